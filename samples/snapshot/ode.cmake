# The Open Dynamics Engine, which samples/snapshot's world (cube_world.cpp) runs on:
# pkg-config's ode, else the library and <ode/ode.h>. Defines the imported target
# netser_ode (GLOBAL: the demo in samples/ and its scene tests in tests/demo both link
# it) when found. Included from both places; the search runs once.
#
# Cross builds (make s390x, make i686) have no ODE for the target: pkg-config would
# answer for the host, so only find_library and find_path, which stay inside the
# toolchain's root, are asked there, and the scene is left out.
get_property(searched GLOBAL PROPERTY NETSER_ODE_SEARCHED)
if(searched)
  return()
endif()
set_property(GLOBAL PROPERTY NETSER_ODE_SEARCHED ON)

if(NOT CMAKE_CROSSCOMPILING)
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(NETSER_ODE QUIET IMPORTED_TARGET GLOBAL ode)
  endif()
endif()
if(TARGET PkgConfig::NETSER_ODE)
  add_library(netser_ode INTERFACE IMPORTED GLOBAL)
  target_link_libraries(netser_ode INTERFACE PkgConfig::NETSER_ODE)
else()
  find_library(NETSER_ODE_LIBRARY ode)
  find_path(NETSER_ODE_INCLUDE_DIR ode/ode.h)
  if(NETSER_ODE_LIBRARY AND NETSER_ODE_INCLUDE_DIR)
    add_library(netser_ode UNKNOWN IMPORTED GLOBAL)
    set_target_properties(netser_ode PROPERTIES
      IMPORTED_LOCATION "${NETSER_ODE_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${NETSER_ODE_INCLUDE_DIR}")
  endif()
endif()
if(NOT TARGET netser_ode)
  message(STATUS "netser: ODE not found (Debian: libode-dev): samples/snapshot and its scene tests are not built")
endif()
