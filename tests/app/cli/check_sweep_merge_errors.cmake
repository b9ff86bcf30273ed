# `tilesim sweep --merge` refuses, with exit status 1 and a message naming the
# file and line, shards that are missing, given twice, of another split or
# another sweep, cut short, or still partial; `--shard` checks I/N.
#
#   cmake -DTILESIM=... -DSWEEP=... -DOUT=<dir> -P check_sweep_merge_errors.cmake

file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})

# expect_error(<regex> <tilesim arguments...>): exit status 1 and stderr matching.
function(expect_error regex)
  execute_process(COMMAND ${TILESIM} ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE stdout
    ERROR_VARIABLE stderr)
  if(NOT status STREQUAL "1")
    message(FATAL_ERROR "expected exit status 1, got ${status}: ${ARGN}\n${stderr}")
  endif()
  if(NOT stderr MATCHES "${regex}")
    message(FATAL_ERROR "stderr of `${ARGN}` does not match\n  ${regex}\n${stderr}")
  endif()
  if(NOT stdout STREQUAL "")
    message(FATAL_ERROR "a refused merge writes nothing to stdout: ${ARGN}\n${stdout}")
  endif()
endfunction()

function(run_ok)
  execute_process(COMMAND ${TILESIM} ${ARGN} RESULT_VARIABLE status ERROR_VARIABLE stderr)
  if(NOT status STREQUAL "0")
    message(FATAL_ERROR "expected success: ${ARGN}\n${stderr}")
  endif()
endfunction()

foreach(index 0 1 2)
  run_ok(sweep ${SWEEP} --shard ${index}/3 --csv ${OUT}/s${index}.csv)
endforeach()
run_ok(sweep ${SWEEP} --shard 0/2 --csv ${OUT}/half0.csv)
set(s0 ${OUT}/s0.csv)
set(s1 ${OUT}/s1.csv)
set(s2 ${OUT}/s2.csv)

expect_error("--merge: error: shard 1/3 missing: the merge needs the files of all 3 shards, 0/3 to 2/3\n1 error"
  sweep ${SWEEP} --merge ${s0} ${s2} --csv ${OUT}/out.csv)
expect_error("s2.csv:[0-9]+:1: error: shard 2/3 is given twice: .*s2.csv is shard 2/3 too"
  sweep ${SWEEP} --merge ${s0} ${s1} ${s2} ${s2})
expect_error("half0.csv:[0-9]+:1: error: shard 0/2 of a split into 2, but .*s0.csv is shard 0/3"
  sweep ${SWEEP} --merge ${s0} ${s1} ${s2} ${OUT}/half0.csv)
# Another sweep: the same file with a hardware field set.
expect_error("s0.csv:[0-9]+:1: error: a shard of another sweep: its fingerprint is [0-9a-f]+, this sweep's is [0-9a-f]+"
  sweep ${SWEEP} --set hbm.bandwidth=4TB/s --merge ${s0} ${s1} ${s2})
if(EXISTS ${OUT}/out.csv)
  message(FATAL_ERROR "a refused merge writes no CSV")
endif()

# Cut short: in the middle of a line, and after a whole row.
file(READ ${s1} text)
string(LENGTH "${text}" length)
math(EXPR half "${length} / 2")
string(SUBSTRING "${text}" 0 ${half} torn)
file(WRITE ${OUT}/torn.csv "${torn}")
expect_error("torn.csv:[0-9]+:1: error: cut short: the last line has no line end"
  sweep ${SWEEP} --merge ${s0} ${OUT}/torn.csv ${s2})
string(FIND "${torn}" "\n" last_line_end REVERSE)
string(SUBSTRING "${torn}" 0 ${last_line_end} rows)
file(WRITE ${OUT}/rows_only.csv "${rows}\n")
expect_error("rows_only.csv:[0-9]+:1: error: cut short: no closing line"
  sweep ${SWEEP} --merge ${s0} ${OUT}/rows_only.csv ${s2})

# A stopped shard's partial file is not a shard's file yet.
execute_process(COMMAND ${TILESIM} sweep ${SWEEP} --shard 1/3 --csv ${OUT}/stopped.csv
  --stop-after 3 RESULT_VARIABLE status ERROR_VARIABLE stderr)
if(NOT status STREQUAL "130" OR NOT stderr MATCHES "--shard 1/3 --csv .*stopped.csv --resume")
  message(FATAL_ERROR "a stopped shard says how to resume it (--shard included): ${status}\n${stderr}")
endif()
expect_error("stopped.csv.partial:[0-9]+:1: error: cut short: .*stopped shard: finish it with --resume"
  sweep ${SWEEP} --merge ${s0} ${OUT}/stopped.csv.partial ${s2})
# Resuming a shard with another shard's progress is refused.
expect_error("stopped.csv.progress:1:1: error: not the progress of this sweep"
  sweep ${SWEEP} --shard 2/3 --csv ${OUT}/stopped.csv --resume)

# A whole sweep's CSV, and a file that is not there.
run_ok(sweep ${SWEEP} --csv ${OUT}/whole.csv)
expect_error("whole.csv:1:1: error: not a shard's file"
  sweep ${SWEEP} --merge ${OUT}/whole.csv)
expect_error("no_such.csv: error: cannot read file"
  sweep ${SWEEP} --merge ${s0} ${s1} ${s2} ${OUT}/no_such.csv)

# --shard I/N and the options it cannot take.
expect_error("--shard: error: 3/3: the shard index counts from 0, so it must be 0 to 2"
  sweep ${SWEEP} --shard 3/3)
expect_error("--shard: error: \"1of3\" is not I/N" sweep ${SWEEP} --shard 1of3)
expect_error("--shard: error: 0/0: the number of shards must be 1 to" sweep ${SWEEP} --shard 0/0)
expect_error("--svg: error: a shard holds part of the sweep; draw it from the merged shards"
  sweep ${SWEEP} --shard 0/3 --svg ${OUT}/part.svg)
expect_error("--merge: error: cannot be used with --resume"
  sweep ${SWEEP} --merge ${s0} --csv ${OUT}/out.csv --resume)
