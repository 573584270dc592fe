# cmake -DSNAPSHOT=<exe> -DSECONDS=<s> -DSVG=<path> -P check_snapshot.cmake
# Runs the demo and checks its exit code and the lines of its final report.

file(REMOVE "${SVG}")
execute_process(
  COMMAND "${SNAPSHOT}" --seconds ${SECONDS} --svg "${SVG}"
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  RESULT_VARIABLE rc
  TIMEOUT 60)
message("${out}${err}")

function(fail why)
  message(FATAL_ERROR "snapshot demo: ${why}")
endfunction()

if(NOT rc EQUAL 0)
  fail("exit code ${rc}")
endif()

if(NOT out MATCHES "verification: ([0-9]+) cubes checked, ([0-9]+) mismatches")
  fail("no verification line")
endif()
if(CMAKE_MATCH_1 EQUAL 0 OR NOT CMAKE_MATCH_2 EQUAL 0)
  fail("${CMAKE_MATCH_1} cubes checked, ${CMAKE_MATCH_2} mismatches")
endif()

if(NOT out MATCHES "real packets: ([0-9]+) sent, ([0-9]+) received, ([0-9]+) accepted, ([0-9]+) rejected")
  fail("no real packets line")
endif()
if(CMAKE_MATCH_3 EQUAL 0 OR NOT CMAKE_MATCH_4 EQUAL 0)
  fail("${CMAKE_MATCH_3} real packets accepted, ${CMAKE_MATCH_4} rejected")
endif()

if(NOT out MATCHES "hostile: ([0-9]+) sent, ([0-9]+) received, ([0-9]+) rejected, ([0-9]+) accepted")
  fail("no hostile line")
endif()
if(CMAKE_MATCH_2 EQUAL 0 OR NOT CMAKE_MATCH_3 EQUAL CMAKE_MATCH_2 OR NOT CMAKE_MATCH_4 EQUAL 0)
  fail("hostile: ${CMAKE_MATCH_2} received, ${CMAKE_MATCH_3} rejected, ${CMAKE_MATCH_4} accepted")
endif()

if(NOT out MATCHES "\nresult: PASS")
  fail("no 'result: PASS' line")
endif()
if(NOT EXISTS "${SVG}")
  fail("no chart at ${SVG}")
endif()
