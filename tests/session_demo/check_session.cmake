# cmake -DSESSION=<exe or empty> -DSECONDS=<s> -DCLIENTS=<n> -DBUDGET=<bytes> -P check_session.cmake
# Runs samples/session and checks its exit code, its table (one row per client) and its
# totals.

if(SESSION STREQUAL "")
  message("session demo: skipped (samples/session is not built: ENet not found)")
  return()
endif()

execute_process(
  COMMAND "${SESSION}" --seconds ${SECONDS} --clients ${CLIENTS} --budget ${BUDGET}
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  RESULT_VARIABLE rc
  TIMEOUT 50)
message("${out}${err}")

function(fail why)
  message(FATAL_ERROR "session demo: ${why}")
endfunction()

if(NOT rc EQUAL 0)
  fail("exit code ${rc}")
endif()

# One row per client: client join_s loss_% latency_ms first_bytes packets dropped kbps
# over_budget accepted missing_baseline baseline_mismatch errors mismatches full lag
string(REPEAT " +[0-9]+" 4 four)
string(REPEAT " +[0-9]+" 8 eight)
set(row "\n *[0-9]+ +[0-9.]+ +[0-9.]+${four} +[0-9.]+${eight}")
string(REGEX MATCHALL "${row}" rows "${out}")
list(LENGTH rows count)
if(NOT count EQUAL CLIENTS)
  fail("${count} client rows, not ${CLIENTS}")
endif()
foreach(r IN LISTS rows)
  string(REGEX MATCHALL "[0-9.]+" v "${r}")
  list(GET v 0 who)
  list(GET v 4 first_bytes)
  list(GET v 8 over_budget)
  list(GET v 9 accepted)
  list(GET v 12 errors)
  list(GET v 13 mismatches)
  list(GET v 14 full)
  set(who "client ${who}")
  if(first_bytes EQUAL 0)
    fail("${who} never accepted its first snapshot (late join)")
  endif()
  if(NOT over_budget EQUAL 0)
    fail("${who}: ${over_budget} packets over the budget")
  endif()
  if(accepted LESS 2)
    fail("${who} accepted ${accepted} snapshots: no delta after its first")
  endif()
  if(NOT errors EQUAL 0 OR NOT mismatches EQUAL 0)
    fail("${who}: ${errors} packets failed to read, ${mismatches} snapshots differ from the server's record")
  endif()
  # Its first snapshot is the whole state; the halt lets it catch up at least once more.
  if(full LESS 2)
    fail("${who} held the server's whole state in ${full} snapshots: never caught up after joining")
  endif()
endforeach()

if(NOT out MATCHES "total: ([0-9]+) of ([0-9]+) clients joined, [0-9]+ packets, [0-9.]+ kbps, ([0-9]+) over budget, [0-9]+ accepted, [0-9]+ missing_baseline, [0-9]+ baseline_mismatch, ([0-9]+) errors, ([0-9]+) mismatches")
  fail("no total line")
endif()
if(NOT CMAKE_MATCH_1 EQUAL CLIENTS OR NOT CMAKE_MATCH_2 EQUAL CLIENTS)
  fail("${CMAKE_MATCH_1} of ${CMAKE_MATCH_2} clients joined, ${CLIENTS} started")
endif()
if(NOT CMAKE_MATCH_3 EQUAL 0 OR NOT CMAKE_MATCH_4 EQUAL 0 OR NOT CMAKE_MATCH_5 EQUAL 0)
  fail("totals: ${CMAKE_MATCH_3} over budget, ${CMAKE_MATCH_4} errors, ${CMAKE_MATCH_5} mismatches")
endif()

if(NOT out MATCHES "server: [0-9]+ snapshots, ([0-9]+) late joins \\(largest first snapshot ([0-9]+) bytes, reliable\\), ([0-9]+) deltas \\(largest ([0-9]+) bytes, ([0-9]+) over budget\\), [0-9]+ changes sent, ([0-9]+) deferred, [0-9]+ acks, ([0-9]+) foreign, ([0-9]+) write failures")
  fail("no server line")
endif()
if(NOT CMAKE_MATCH_1 EQUAL CLIENTS)
  fail("${CMAKE_MATCH_1} late joins for ${CLIENTS} clients")
endif()
# ENet's MTU is 1400 bytes: a larger first snapshot went in fragments.
if(NOT CMAKE_MATCH_2 GREATER 1400)
  fail("the largest first snapshot is ${CMAKE_MATCH_2} bytes: ENet did not have to fragment it")
endif()
if(CMAKE_MATCH_4 GREATER BUDGET OR NOT CMAKE_MATCH_5 EQUAL 0)
  fail("largest delta ${CMAKE_MATCH_4} bytes, ${CMAKE_MATCH_5} over the budget of ${BUDGET}")
endif()
if(CMAKE_MATCH_6 EQUAL 0)
  fail("nothing deferred: the budget was not exercised")
endif()
if(NOT CMAKE_MATCH_7 EQUAL 0 OR NOT CMAKE_MATCH_8 EQUAL 0)
  fail("the server got ${CMAKE_MATCH_7} packets of no known kind and failed ${CMAKE_MATCH_8} writes")
endif()

# Priority: the units near a client's point of interest go first, so fewer of them are
# left behind than of the others.
if(NOT out MATCHES "priority: after each delta, ([0-9.]+)% of the units within [0-9.]+ m of the client's point of interest were behind the full state, ([0-9.]+)% of the others")
  fail("no priority line")
endif()
if(NOT CMAKE_MATCH_1 LESS CMAKE_MATCH_2)
  fail("${CMAKE_MATCH_1}% of the near units behind, ${CMAKE_MATCH_2}% of the others: priority had no effect")
endif()

if(NOT out MATCHES "\nresult: PASS")
  fail("no 'result: PASS' line")
endif()
