# Builds and runs one consumer project (tests/consumer/*) in a fresh binary dir.
# cmake -DSOURCE_DIR=... -DBINARY_DIR=... [-DINSTALL_FROM=<netser build dir>
#       -DINSTALL_PREFIX=...] [-DNETSER_SOURCE_DIR=...] [-DGENERATOR=...]
#       [-DCXX_COMPILER=...] [-DCXX_FLAGS=...] [-DBUILD_TYPE=...] [-DBoost_DIR=...]
#       [-DNETSER_CONFIGURE_SOURCE=<netser source> -DINSTALL_PREFIX=...]
#       [-DEXTRA_CMAKE_ARGS=<arg>] [-DEXPECT_INSTALLED=<path> [-DEXPECT_SAME_AS=<file>]]
#       [-DEXPECT_ABSENT=<path>] -P run_consumer.cmake
#
# NETSER_CONFIGURE_SOURCE: configure, build and install netser from that source tree
# first (tests, samples and benchmarks off), into BINARY_DIR/netser, then consume it.
# EXTRA_CMAKE_ARGS go to every configure (e.g. -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON).
# EXPECT_INSTALLED / EXPECT_ABSENT: paths relative to INSTALL_PREFIX that the
# installation must hold (with the content of EXPECT_SAME_AS) or must not.
cmake_minimum_required(VERSION 3.21)

foreach(var SOURCE_DIR BINARY_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "run_consumer: ${var} is required")
  endif()
endforeach()
if(NOT CMAKE_COMMAND)
  set(CMAKE_COMMAND cmake)
endif()
if(NOT BUILD_TYPE)
  set(BUILD_TYPE Release)
endif()

function(run)
  string(REPLACE ";" " " shown "${ARGN}")
  message(STATUS "run_consumer: ${shown}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run_consumer: failed (${rc}): ${shown}")
  endif()
endfunction()

file(REMOVE_RECURSE "${BINARY_DIR}")

# What every configure gets: netser's own (NETSER_CONFIGURE_SOURCE) and the consumer's.
set(toolchain_args "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}" ${EXTRA_CMAKE_ARGS})
if(GENERATOR)
  list(APPEND toolchain_args -G "${GENERATOR}")
endif()
if(CXX_COMPILER)
  list(APPEND toolchain_args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()

set(configure_args -S "${SOURCE_DIR}" -B "${BINARY_DIR}" ${toolchain_args} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}")
if(Boost_DIR)
  list(APPEND configure_args "-DBoost_DIR=${Boost_DIR}")
endif()

if(NETSER_CONFIGURE_SOURCE)
  if(NOT INSTALL_PREFIX)
    message(FATAL_ERROR "run_consumer: NETSER_CONFIGURE_SOURCE needs INSTALL_PREFIX")
  endif()
  set(netser_build "${BINARY_DIR}/netser")
  run("${CMAKE_COMMAND}" -S "${NETSER_CONFIGURE_SOURCE}" -B "${netser_build}" ${toolchain_args}
      -DNETSER_BUILD_TESTS=OFF -DNETSER_BUILD_SAMPLES=OFF -DNETSER_BUILD_BENCHMARKS=OFF)
  run("${CMAKE_COMMAND}" --build "${netser_build}" --config "${BUILD_TYPE}")
  set(INSTALL_FROM "${netser_build}")
endif()

if(INSTALL_FROM)
  if(NOT INSTALL_PREFIX)
    message(FATAL_ERROR "run_consumer: INSTALL_FROM needs INSTALL_PREFIX")
  endif()
  file(REMOVE_RECURSE "${INSTALL_PREFIX}")
  run("${CMAKE_COMMAND}" --install "${INSTALL_FROM}" --prefix "${INSTALL_PREFIX}" --config "${BUILD_TYPE}")
  foreach(path IN LISTS EXPECT_INSTALLED)
    if(NOT EXISTS "${INSTALL_PREFIX}/${path}")
      message(FATAL_ERROR "run_consumer: ${path} is not installed in ${INSTALL_PREFIX}")
    endif()
    if(EXPECT_SAME_AS)
      file(READ "${INSTALL_PREFIX}/${path}" installed)
      file(READ "${EXPECT_SAME_AS}" original)
      if(NOT installed STREQUAL original)
        message(FATAL_ERROR "run_consumer: the installed ${path} differs from ${EXPECT_SAME_AS}")
      endif()
    endif()
    message(STATUS "run_consumer: installed ${path}")
  endforeach()
  foreach(path IN LISTS EXPECT_ABSENT)
    if(EXISTS "${INSTALL_PREFIX}/${path}")
      message(FATAL_ERROR "run_consumer: ${path} should not be installed in ${INSTALL_PREFIX}")
    endif()
  endforeach()
  # The consumer checks that netser_DIR lies under this prefix, so a netser
  # installed elsewhere on the system can't pass the test in its place.
  list(APPEND configure_args "-DCMAKE_PREFIX_PATH=${INSTALL_PREFIX}"
                             "-DNETSER_EXPECTED_PREFIX=${INSTALL_PREFIX}")
endif()
if(NETSER_SOURCE_DIR)
  list(APPEND configure_args "-DNETSER_SOURCE_DIR=${NETSER_SOURCE_DIR}")
endif()

run("${CMAKE_COMMAND}" ${configure_args})
run("${CMAKE_COMMAND}" --build "${BINARY_DIR}" --config "${BUILD_TYPE}")
run("${CMAKE_COMMAND}" --build "${BINARY_DIR}" --config "${BUILD_TYPE}" --target run_consumer)
