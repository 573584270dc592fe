# cmake -DSNAPSHOT=<exe> -DRECORDING_TOOL=<delta_recording> -DRECORDING=<file> -DSECONDS=<s>
#       -DMAX_KBPS=<k> -P check_recording.cmake
# Records the demo's quantized states (--record) and runs delta_recording on them:
# every frame decodes back equal, and the mean rate stays under MAX_KBPS.

file(REMOVE "${RECORDING}")
execute_process(
  COMMAND "${SNAPSHOT}" --seconds ${SECONDS} --record "${RECORDING}" --svg "${RECORDING}.svg"
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  RESULT_VARIABLE rc
  TIMEOUT 120)
if(NOT rc EQUAL 0)
  message("${out}${err}")
  message(FATAL_ERROR "snapshot demo: exit code ${rc}")
endif()
if(NOT out MATCHES "recording: ([0-9]+) frames")
  message(FATAL_ERROR "snapshot demo: no recording line")
endif()

execute_process(
  COMMAND "${RECORDING_TOOL}" "${RECORDING}" --max-kbps ${MAX_KBPS}
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  RESULT_VARIABLE rc
  TIMEOUT 120)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "delta_recording: exit code ${rc}")
endif()
