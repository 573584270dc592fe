# Compiles one source with the command compile_commands.json holds for it (with the
# compiler replaced by CXX, -fsyntax-only and no colour), and checks how it fails:
#   cmake -DCOMPILE_COMMANDS=<compile_commands.json> -DSOURCE=<file.cpp>
#         -DBUILD_CXX=<the build's compiler> -DCXX=<compiler> -DEXPECT=<regex> [-DFORBID=<regex>] [-DMAX_LINES=30] -P check_compile_fail.cmake
# The compile must fail; the first line with `error:` must match EXPECT; no line may
# match FORBID; the whole output must take at most MAX_LINES lines.
cmake_minimum_required(VERSION 3.21)

foreach(var COMPILE_COMMANDS SOURCE BUILD_CXX CXX EXPECT)
  if(NOT ${var})
    message(FATAL_ERROR "check_compile_fail: ${var} is required")
  endif()
endforeach()
if(NOT MAX_LINES)
  set(MAX_LINES 30)
endif()

file(READ "${COMPILE_COMMANDS}" json)
string(JSON count LENGTH "${json}")
math(EXPR last "${count} - 1")
set(command "")
foreach(i RANGE ${last})
  string(JSON file GET "${json}" ${i} file)
  if(file STREQUAL SOURCE)
    string(JSON command GET "${json}" ${i} command)
    string(JSON directory GET "${json}" ${i} directory)
    break()
  endif()
endforeach()
if(command STREQUAL "")
  message(FATAL_ERROR "check_compile_fail: no compile command for ${SOURCE} in ${COMPILE_COMMANDS}")
endif()

separate_arguments(args UNIX_COMMAND "${command}")
# Everything after the build's compiler (a launcher such as ccache may come first).
list(FIND args "${BUILD_CXX}" at)
math(EXPR at "${at} + 1")
list(SUBLIST args ${at} -1 args)
execute_process(
  COMMAND "${CXX}" ${args} -fsyntax-only -fdiagnostics-color=never
  WORKING_DIRECTORY "${directory}"
  RESULT_VARIABLE result
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output)

string(REPLACE ";" "\\;" output "${output}")
string(REGEX REPLACE "\n$" "" trimmed "${output}")
string(REPLACE "\n" ";" lines "${trimmed}")
list(LENGTH lines line_count)

set(problems "")
if(result EQUAL 0)
  string(APPEND problems "  it compiled\n")
endif()
set(first_error "")
foreach(line IN LISTS lines)
  if(line MATCHES "error:")
    set(first_error "${line}")
    break()
  endif()
endforeach()
if(NOT first_error MATCHES "${EXPECT}")
  string(APPEND problems "  the first error line does not match `${EXPECT}`:\n    ${first_error}\n")
endif()
if(FORBID AND output MATCHES "${FORBID}")
  string(APPEND problems "  the output matches the forbidden `${FORBID}`\n")
endif()
if(line_count GREATER MAX_LINES)
  string(APPEND problems "  ${line_count} lines, more than ${MAX_LINES}\n")
endif()

if(problems)
  message("---- ${CXX} output (${line_count} lines):\n${output}----")
  message(FATAL_ERROR "check_compile_fail: ${SOURCE}:\n${problems}")
endif()
message(STATUS "${SOURCE}: ${line_count} lines with ${CXX}; first error: ${first_error}")
