# A sweep split into N shards (N = 1, 2, 3, 7), each run on its own (one of
# them stopped and resumed, one written to stdout), merged from its files in
# any order, gives the CSV, SVG and HTML bytes of one unsharded run.
#
#   cmake -DTILESIM=... -DSWEEP=... -DOUT=<dir> -P check_sweep_shards.cmake

file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})

function(run_sweep expected_status)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE stdout
    ERROR_VARIABLE stderr)
  if(NOT status STREQUAL expected_status)
    message(FATAL_ERROR "expected exit status ${expected_status}, got ${status}: ${ARGN}\n${stderr}")
  endif()
  set(last_stdout "${stdout}" PARENT_SCOPE)
endfunction()

run_sweep(0 ${TILESIM} sweep ${SWEEP} -j 2 --csv ${OUT}/whole.csv --svg ${OUT}/whole.svg
  --html ${OUT}/whole.html)

foreach(count 1 2 3 7)
  math(EXPR last "${count} - 1")
  set(shard_files "")
  foreach(index RANGE ${last})
    set(shard ${OUT}/shard_${index}_of_${count}.csv)
    if(count EQUAL 3 AND index EQUAL 1)
      # Stopped partway, then resumed: the same file as a shard run through.
      run_sweep(130 ${TILESIM} sweep ${SWEEP} --shard ${index}/${count} --csv ${shard} -j 2
        --stop-after 40)
      if(EXISTS ${shard} OR NOT EXISTS ${shard}.partial)
        message(FATAL_ERROR "a stopped shard keeps only ${shard}.partial and .progress")
      endif()
      run_sweep(0 ${TILESIM} sweep ${SWEEP} --shard ${index}/${count} --csv ${shard} -j 1 --resume)
    elseif(count EQUAL 2 AND index EQUAL 1)
      # To stdout, as in `tilesim sweep ... --shard I/N > FILE`.
      run_sweep(0 ${TILESIM} sweep ${SWEEP} --shard ${index}/${count} --csv - -j 2)
      file(WRITE ${shard} "${last_stdout}")
    else()
      run_sweep(0 ${TILESIM} sweep ${SWEEP} --shard ${index}/${count} --csv ${shard} -j 2)
    endif()
    list(PREPEND shard_files ${shard})  # merged last to first: the order given does not matter
  endforeach()
  run_sweep(0 ${TILESIM} sweep ${SWEEP} --merge ${shard_files} --csv ${OUT}/merged_${count}.csv
    --svg ${OUT}/merged_${count}.svg --html ${OUT}/merged_${count}.html)
  foreach(kind csv svg html)
    file(SHA256 ${OUT}/whole.${kind} whole)
    file(SHA256 ${OUT}/merged_${count}.${kind} merged)
    if(NOT whole STREQUAL merged)
      message(FATAL_ERROR "${count} shards merged: the ${kind} differs from one run's")
    endif()
  endforeach()
  message(STATUS "${count} shards merged: CSV, SVG and HTML are the bytes of one run")
endforeach()
