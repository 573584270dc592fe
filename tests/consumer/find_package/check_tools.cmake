# Runs the installed schema tools (docs/schema.md section 9) on what the consumer wrote:
# cmake -DPYTHON=... -DTOOLS_DIR=<prefix>/bin -DWRITER=<consumer_netser> -DWORK=<dir> -P check_tools.cmake
cmake_minimum_required(VERSION 3.21)

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# tool: a script of TOOLS_DIR; the exit status must be `status`; its stdout in `out`.
function(tool out status name)
  execute_process(COMMAND "${PYTHON}" "${TOOLS_DIR}/${name}" ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${status}")
    message(FATAL_ERROR "check_tools: ${name} ${ARGN}: exit ${rc}, not ${status}\n${text}${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

execute_process(COMMAND "${WRITER}" "${WORK}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check_tools: ${WRITER} ${WORK} failed (${rc})")
endif()
set(schema "${WORK}/node.schema.json")

tool(decoded 0 netser_schema_decode.py "${schema}" "${WORK}/node.bin")
string(JSON value GET "${decoded}" value value)
string(JSON kid GET "${decoded}" value kids 3 value)
string(JSON slots LENGTH "${decoded}" value kids)
if(NOT value EQUAL 7 OR NOT kid EQUAL 9 OR NOT slots EQUAL 5)
  message(FATAL_ERROR "check_tools: the decoder read ${decoded}")
endif()
tool(refused 1 netser_schema_decode.py "${schema}" --hex "00 01 02 03 04 05 06 07")
tool(same 0 netser_schema_diff.py "${schema}" "${schema}")
tool(lua 0 netser_dissector.py --port "40000=${schema}" -o "${WORK}/node.lua")
if(NOT EXISTS "${WORK}/node.lua")
  message(FATAL_ERROR "check_tools: the dissector wrote no ${WORK}/node.lua")
endif()
tool(bad 2 netser_schema_diff.py "${schema}" "${WORK}/none.json")
message(STATUS "check_tools: the installed tools decode, diff and dissect")
