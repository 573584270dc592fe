# Included after find_package(netser): netser_DIR must lie under NETSER_EXPECTED_PREFIX
# (when given), so that a netser installed elsewhere cannot pass a test in its place.
if(NETSER_EXPECTED_PREFIX)
  file(REAL_PATH "${netser_DIR}" found)
  file(REAL_PATH "${NETSER_EXPECTED_PREFIX}" expected)
  string(FIND "${found}" "${expected}/" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "netser found at ${found}, expected under ${expected}")
  endif()
endif()
