# Runs the command that reads one bad input and checks that it fails cleanly:
# exit status 1 (not a crash, not an internal error), a diagnostic naming the
# file with line and column, the expected message, short stderr, no output
# file, not even a partial one, and all of it within MAX_MS milliseconds of
# wall-clock time.
#
#   cmake -DTILESIM=... -DINPUT=... -DKIND=hardware|study|sweep|measured
#         -DOUT=<empty dir> -DEXPECT=<regex> -DMAX_MS=<ms> -P check_bad_input.cmake

file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
if(KIND STREQUAL "hardware")
  set(command simulate configs/studies/quickstart.yaml --hw ${INPUT})
elseif(KIND STREQUAL "kernel_profile")
  set(command validate ${INPUT})
elseif(KIND STREQUAL "study")
  set(command simulate ${INPUT})
elseif(KIND STREQUAL "sweep")
  set(command sweep ${INPUT} --csv ${OUT}/sweep.csv --svg ${OUT}/sweep.svg)
elseif(KIND STREQUAL "measured")
  set(command compare --measured ${INPUT} --hw h100_sxm --json ${OUT}/compare.json
    --svg ${OUT}/compare.svg)
else()
  message(FATAL_ERROR "unknown kind ${KIND}")
endif()
if(KIND STREQUAL "hardware" OR KIND STREQUAL "study")
  list(APPEND command --json ${OUT}/out.json --csv ${OUT}/out.csv --trace ${OUT}/trace.json
    --timeline ${OUT}/timeline.svg)
endif()

string(TIMESTAMP started_us "%s%f")
execute_process(COMMAND ${TILESIM} ${command}
  RESULT_VARIABLE status OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
string(TIMESTAMP finished_us "%s%f")
math(EXPR elapsed_ms "(${finished_us} - ${started_us}) / 1000")
string(LENGTH "${stderr}" stderr_length)
set(report "command: tilesim ${command}\nexit status: ${status} after ${elapsed_ms} ms\nstderr (${stderr_length} bytes):\n${stderr}")

if(NOT status STREQUAL "1")
  message(FATAL_ERROR "expected exit status 1 (an input problem)\n${report}")
endif()
string(REGEX REPLACE "([][+.*?()^$|\\\\])" "\\\\\\1" file_pattern "${INPUT}")
if(NOT stderr MATCHES "(^|\n)${file_pattern}:[1-9][0-9]*:[1-9][0-9]*: error: ")
  message(FATAL_ERROR "expected a diagnostic at ${INPUT}:line:column\n${report}")
endif()
if(NOT stderr MATCHES "${EXPECT}")
  message(FATAL_ERROR "expected stderr to match: ${EXPECT}\n${report}")
endif()
if(stderr MATCHES "internal error")
  message(FATAL_ERROR "an internal error is a bug, not a diagnostic\n${report}")
endif()
if(stderr_length GREATER 16384)
  message(FATAL_ERROR "stderr is ${stderr_length} bytes: a diagnostic must not echo a huge input")
endif()
file(GLOB_RECURSE written LIST_DIRECTORIES false ${OUT}/* ${OUT}/.*)
if(written)
  message(FATAL_ERROR "a failed command must write no file, found: ${written}\n${report}")
endif()
if(elapsed_ms GREATER MAX_MS)
  message(FATAL_ERROR "took ${elapsed_ms} ms, more than ${MAX_MS} ms for a bad input\n${report}")
endif()
