# The cluster recipes of docs/sweeps.md give the bytes of one run:
#
# - MODE=parallel: the GNU parallel block of docs/sweeps.md, read from the doc
#   and run as it is (exit 77, skipped, without `parallel`);
# - MODE=slurm: configs/sweeps/slurm_sweep.sh run as Slurm runs it, with the
#   variables of an array of 3 tasks (one stopped by --stop-after, as by a time
#   limit, then run again), then alone to merge.
#
#   cmake -DMODE=parallel|slurm -DTILESIM=... -DSOURCE_DIR=... -DOUT=<dir> -P check_sweep_on_a_cluster.cmake

file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
# The commands name configs/ relative to where they run, as from the source root.
file(CREATE_LINK ${SOURCE_DIR}/configs ${OUT}/configs SYMBOLIC)
get_filename_component(bin_dir ${TILESIM} DIRECTORY)
set(path "${bin_dir}:$ENV{PATH}")
set(golden ${SOURCE_DIR}/tests/app/cli/golden)

function(expect_same_bytes made expected)
  file(SHA256 ${made} made_hash)
  file(SHA256 ${expected} expected_hash)
  if(NOT made_hash STREQUAL expected_hash)
    message(FATAL_ERROR "${made} differs from ${expected}")
  endif()
endfunction()

function(run expected_status)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ARGN} WORKING_DIRECTORY ${OUT}
    RESULT_VARIABLE status ERROR_VARIABLE stderr OUTPUT_VARIABLE stdout)
  if(NOT status STREQUAL expected_status)
    message(FATAL_ERROR "expected exit status ${expected_status}, got ${status}: ${ARGN}\n${stdout}${stderr}")
  endif()
endfunction()

if(MODE STREQUAL "parallel")
  find_program(parallel parallel)
  if(NOT parallel)
    message(STATUS "no GNU parallel: skipped")
    cmake_language(EXIT 77)
  endif()
  file(READ ${SOURCE_DIR}/docs/sweeps.md doc)
  set(marker "<!-- tests/app/cli/check_sweep_on_a_cluster.cmake runs the next block as it is -->\n```sh\n")
  string(FIND "${doc}" "${marker}" start)
  if(start LESS 0)
    message(FATAL_ERROR "docs/sweeps.md has no block marked for this test")
  endif()
  string(LENGTH "${marker}" marker_length)
  math(EXPR start "${start} + ${marker_length}")
  string(SUBSTRING "${doc}" ${start} -1 block)
  string(FIND "${block}" "```" end)
  string(SUBSTRING "${block}" 0 ${end} block)
  message(STATUS "running:\n${block}")
  run(0 PATH=${path} bash -euo pipefail -c "${block}")
  expect_same_bytes(${OUT}/stream_k_vs_m.csv ${golden}/sweep_stream_k_vs_m.csv)
  run(0 PATH=${path} tilesim sweep configs/sweeps/stream_k_vs_m.yaml --svg one_run.svg)
  expect_same_bytes(${OUT}/stream_k_vs_m.svg ${OUT}/one_run.svg)
elseif(MODE STREQUAL "slurm")
  set(script ${SOURCE_DIR}/configs/sweeps/slurm_sweep.sh)
  set(sweep configs/sweeps/l2_capacity.yaml)
  set(array SLURM_ARRAY_TASK_COUNT=3 SLURM_CPUS_PER_TASK=2)
  foreach(task 0 1 2)
    if(task EQUAL 1)
      # Stopped partway (a time limit sends SIGTERM: the same clean stop), then requeued.
      run(130 PATH=${path} ${array} SLURM_ARRAY_TASK_ID=${task} bash ${script} ${sweep} results_l2
        --stop-after 5)
    endif()
    run(0 PATH=${path} ${array} SLURM_ARRAY_TASK_ID=${task} bash ${script} ${sweep} results_l2)
  endforeach()
  # Task 2 again on its own, as `sbatch --array=2 --export=ALL,TILESIM_SHARDS=3` runs it.
  run(0 PATH=${path} SLURM_ARRAY_TASK_COUNT=1 TILESIM_SHARDS=3 SLURM_ARRAY_TASK_ID=2
    bash ${script} ${sweep} results_l2)
  run(0 PATH=${path} bash ${script} ${sweep} results_l2)
  expect_same_bytes(${OUT}/results_l2.csv ${golden}/sweep_l2_capacity.csv)
  run(0 PATH=${path} tilesim sweep ${sweep} --svg one_run.svg --html one_run.html)
  expect_same_bytes(${OUT}/results_l2.svg ${OUT}/one_run.svg)
  # The HTML names the sweep file it was given: the same here.
  expect_same_bytes(${OUT}/results_l2.html ${OUT}/one_run.html)
  # Outside an array without its arguments: usage, status 2.
  run(2 PATH=${path} bash ${script})
else()
  message(FATAL_ERROR "MODE must be parallel or slurm")
endif()
