# Installs the build tree into a scratch prefix, builds a tiny consumer with
# find_package(tilesim), runs it, and runs the installed command from outside
# the source tree (it must find its installed configs).
#   cmake -DBUILD_DIR=... -DWORK_DIR=... -DCONSUMER_DIR=... [-DPYTHON=... -DPYTHON_DIR=...]
#         -P install_and_consume.cmake
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err
    WORKING_DIRECTORY ${WORK_DIR})
  if(status)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer -G Ninja
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run(${WORK_DIR}/consumer/consumer)
if(NOT out MATCHES "^square_4096 [0-9.]+ us")
  message(FATAL_ERROR "consumer printed: ${out}")
endif()
message(STATUS "consumer: ${out}")
# The installed command, with no TILESIM_CONFIG_DIR, from a directory outside the tree.
unset(ENV{TILESIM_CONFIG_DIR})
run(${prefix}/bin/tilesim simulate ${prefix}/share/tilesim/configs/studies/quickstart.yaml --csv -)
if(NOT out MATCHES "square_8192,gemm,data_parallel")
  message(FATAL_ERROR "installed tilesim printed: ${out}")
endif()
run(${prefix}/bin/tilesim --version)
if(NOT out MATCHES "^tilesim [0-9]+\\.[0-9]+\\.[0-9]+ \\(")
  message(FATAL_ERROR "tilesim --version printed: ${out}")
endif()
# Completion reads the commands from the installed binary's --help.
# (Lines, not semicolons: run() would split its arguments at a semicolon.)
run(bash -c "export PATH=${prefix}/bin:$PATH
source ${prefix}/share/bash-completion/completions/tilesim
COMP_WORDS=(tilesim si)
COMP_CWORD=1
_tilesim
echo \"\${COMPREPLY[*]}\"")
if(NOT out MATCHES "^simulate")
  message(FATAL_ERROR "completion of 'tilesim si' gave: ${out}")
endif()

# The installed Python package, imported from outside the tree.
if(PYTHON)
  run(${CMAKE_COMMAND} -E env PYTHONPATH=${prefix}/${PYTHON_DIR}/.. ${PYTHON} -c
    "import tilesim
print(tilesim.simulate('${prefix}/share/tilesim/configs/studies/quickstart.yaml')[0]['name'])")
  if(NOT out MATCHES "^square_8192")
    message(FATAL_ERROR "installed Python package printed: ${out}${err}")
  endif()
endif()
