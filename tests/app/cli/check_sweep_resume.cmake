# A sweep stopped partway and resumed, twice, with different thread counts and
# a torn write between, ends with the same CSV and SVG bytes as one that ran
# through; while stopped, only PATH.partial and PATH.progress exist.
#
#   cmake -DTILESIM=... -DSWEEP=... -DOUT=<dir> [-DSIGINT=ON] -P check_sweep_resume.cmake
# With SIGINT, the first stop is a SIGINT sent from a shell instead of --stop-after.

file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})

function(run_sweep expected_status)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE stdout
    ERROR_VARIABLE stderr)
  if(NOT status STREQUAL expected_status)
    message(FATAL_ERROR "expected exit status ${expected_status}, got ${status}: ${ARGN}\n${stderr}")
  endif()
  set(last_stderr "${stderr}" PARENT_SCOPE)
endfunction()

function(expect_stopped)
  if(NOT EXISTS ${OUT}/resumed.csv.partial OR NOT EXISTS ${OUT}/resumed.csv.progress)
    message(FATAL_ERROR "a stopped sweep keeps resumed.csv.partial and resumed.csv.progress")
  endif()
  if(EXISTS ${OUT}/resumed.csv OR EXISTS ${OUT}/resumed.svg)
    message(FATAL_ERROR "a stopped sweep writes neither the CSV nor the SVG")
  endif()
endfunction()

run_sweep(0 ${TILESIM} sweep ${SWEEP} -j 2 --csv ${OUT}/whole.csv --svg ${OUT}/whole.svg)

set(resumed ${TILESIM} sweep ${SWEEP} --csv ${OUT}/resumed.csv --svg ${OUT}/resumed.svg)
if(SIGINT)
  # Ctrl-C once two points are written (the progress file has its title and
  # two counts), so that the signal finds the sweep running on any machine.
  list(JOIN resumed " " command)
  execute_process(COMMAND sh -c "${command} -j 2 & sweep=$!
      until [ \"$(grep -c '' ${OUT}/resumed.csv.progress 2>/dev/null)\" -ge 3 ]; do
        kill -0 $sweep 2>/dev/null || break; sleep 0.02; done
      kill -INT $sweep; wait $sweep"
    RESULT_VARIABLE status ERROR_VARIABLE stderr)
  if(status STREQUAL "0")
    message(STATUS "the sweep finished before the signal; nothing was stopped")
    file(REMOVE ${OUT}/resumed.csv ${OUT}/resumed.svg)
    run_sweep(130 ${resumed} -j 2 --stop-after 100)
  elseif(NOT status STREQUAL "130")
    message(FATAL_ERROR "Ctrl-C must stop a sweep with exit status 130, got ${status}\n${stderr}")
  endif()
else()
  run_sweep(130 ${resumed} -j 2 --stop-after 137)
  if(NOT last_stderr MATCHES "sweep stopped after 137 of 1000 simulations.*--resume")
    message(FATAL_ERROR "expected a message naming the simulations done and --resume:\n${last_stderr}")
  endif()
endif()
expect_stopped()

run_sweep(130 ${resumed} -j 1 --resume --stop-after 300)
expect_stopped()
# A kill in the middle of a write leaves a torn last line: resuming drops it.
file(APPEND ${OUT}/resumed.csv.partial "128,256,point/split_k,gemm,split_k:ser")
file(APPEND ${OUT}/resumed.csv.progress "4")

run_sweep(0 ${resumed} -j 3 --resume)
foreach(output resumed.csv.partial resumed.csv.progress)
  if(EXISTS ${OUT}/${output})
    message(FATAL_ERROR "a finished sweep leaves no ${output}")
  endif()
endforeach()
foreach(kind csv svg)
  file(SHA256 ${OUT}/whole.${kind} whole)
  file(SHA256 ${OUT}/resumed.${kind} resumed)
  if(NOT whole STREQUAL resumed)
    message(FATAL_ERROR "the resumed sweep's ${kind} differs from the uninterrupted one's")
  endif()
endforeach()
