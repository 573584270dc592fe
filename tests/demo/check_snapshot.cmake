# cmake -DSNAPSHOT=<exe> -DSECONDS=<s> -DSVG=<path> [-DARGS=<more demo arguments;...>]
#       [-DMIN_CHANGED=<n>] -P check_snapshot.cmake
# Runs the demo and checks its exit code and the lines of its final report.

file(REMOVE "${SVG}")
execute_process(
  COMMAND "${SNAPSHOT}" --seconds ${SECONDS} --svg "${SVG}" ${ARGS}
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  RESULT_VARIABLE rc
  TIMEOUT 90)
message("${out}${err}")

function(fail why)
  message(FATAL_ERROR "snapshot demo: ${why}")
endfunction()

if(NOT rc EQUAL 0)
  fail("exit code ${rc}")
endif()

if(NOT out MATCHES "verification: ([0-9]+) snapshots rebuilt from deltas, ([0-9]+) differ")
  fail("no verification line")
endif()
if(CMAKE_MATCH_1 EQUAL 0 OR NOT CMAKE_MATCH_2 EQUAL 0)
  fail("${CMAKE_MATCH_1} snapshots rebuilt, ${CMAKE_MATCH_2} differ from the server's")
endif()
if(NOT out MATCHES "  ([0-9]+) cubes checked against the true state, ([0-9]+) out of bounds")
  fail("no bounds line")
endif()
if(CMAKE_MATCH_1 EQUAL 0 OR NOT CMAKE_MATCH_2 EQUAL 0)
  fail("${CMAKE_MATCH_1} cubes checked, ${CMAKE_MATCH_2} out of bounds")
endif()

if(NOT out MATCHES "real packets: ([0-9]+) sent, ([0-9]+) dropped by --loss, ([0-9]+) received, ([0-9]+) accepted, ([0-9]+) rejected")
  fail("no real packets line")
endif()
if(CMAKE_MATCH_4 EQUAL 0 OR NOT CMAKE_MATCH_5 EQUAL 0)
  fail("${CMAKE_MATCH_4} real packets accepted, ${CMAKE_MATCH_5} rejected")
endif()

if(NOT out MATCHES "hostile: ([0-9]+) sent, ([0-9]+) received, ([0-9]+) rejected, ([0-9]+) accepted")
  fail("no hostile line")
endif()
if(CMAKE_MATCH_2 EQUAL 0 OR NOT CMAKE_MATCH_3 EQUAL CMAKE_MATCH_2 OR NOT CMAKE_MATCH_4 EQUAL 0)
  fail("hostile: ${CMAKE_MATCH_2} received, ${CMAKE_MATCH_3} rejected, ${CMAKE_MATCH_4} accepted")
endif()
if(NOT out MATCHES "missing_baseline [1-9]")
  fail("no hostile packet was refused as missing_baseline")
endif()

if(NOT out MATCHES "bits per changed cube: [0-9.]+ = index [0-9.]+ \\+ position [0-9.]+ \\+ orientation [0-9.]+ \\+ flags [0-9.]+")
  fail("no delta split line")
endif()
if(MIN_CHANGED)
  if(NOT out MATCHES "cubes differing from 6 frames earlier: mean ([0-9]+)")
    fail("no change line")
  endif()
  if(CMAKE_MATCH_1 LESS MIN_CHANGED)
    fail("${CMAKE_MATCH_1} cubes differ from 6 frames earlier on average, fewer than ${MIN_CHANGED}")
  endif()
endif()

if(NOT out MATCHES "\nresult: PASS")
  fail("no 'result: PASS' line")
endif()
if(NOT EXISTS "${SVG}")
  fail("no chart at ${SVG}")
endif()
