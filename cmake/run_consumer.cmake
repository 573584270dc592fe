# Builds and runs one consumer project (tests/consumer/*) in a fresh binary dir.
# cmake -DSOURCE_DIR=... -DBINARY_DIR=... [-DINSTALL_FROM=<netser build dir>
#       -DINSTALL_PREFIX=...] [-DNETSER_SOURCE_DIR=...] [-DGENERATOR=...]
#       [-DCXX_COMPILER=...] [-DCXX_FLAGS=...] [-DBUILD_TYPE=...] [-DBoost_DIR=...]
#       -P run_consumer.cmake
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

set(configure_args -S "${SOURCE_DIR}" -B "${BINARY_DIR}" "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
if(GENERATOR)
  list(APPEND configure_args -G "${GENERATOR}")
endif()
if(CXX_COMPILER)
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()
list(APPEND configure_args "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}")
if(Boost_DIR)
  list(APPEND configure_args "-DBoost_DIR=${Boost_DIR}")
endif()

if(INSTALL_FROM)
  if(NOT INSTALL_PREFIX)
    message(FATAL_ERROR "run_consumer: INSTALL_FROM needs INSTALL_PREFIX")
  endif()
  file(REMOVE_RECURSE "${INSTALL_PREFIX}")
  run("${CMAKE_COMMAND}" --install "${INSTALL_FROM}" --prefix "${INSTALL_PREFIX}" --config "${BUILD_TYPE}")
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
