# Runs one tilesim command and checks what it did. Arguments (-D):
#   COMMAND        the command, arguments separated by '|'
#   EXPECT_EXIT    an exit status, or "nonzero"
#   EXPECT_REGEX   optional: stdout+stderr must match
#   OUTPUT_FILE    optional: a file the command writes ...
#   GOLDEN_FILE    ... that must equal this one byte for byte
#                  (TILESIM_UPDATE_GOLDEN=1 in the environment rewrites it instead)
#   JSON_KEY       optional: OUTPUT_FILE must parse as JSON and have this top-level key
string(REPLACE "|" ";" command "${COMMAND}")
if(OUTPUT_FILE)
  file(REMOVE "${OUTPUT_FILE}")
endif()
execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(EXPECT_EXIT STREQUAL "nonzero")
  if(status EQUAL 0)
    message(FATAL_ERROR "expected a non-zero exit, got 0\n${all}")
  endif()
elseif(NOT status EQUAL EXPECT_EXIT)
  message(FATAL_ERROR "expected exit ${EXPECT_EXIT}, got ${status}\n${all}")
endif()
if(EXPECT_REGEX AND NOT all MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match '${EXPECT_REGEX}':\n${all}")
endif()
if(JSON_KEY)
  file(READ "${OUTPUT_FILE}" content)
  string(JSON kind ERROR_VARIABLE json_error TYPE "${content}" "${JSON_KEY}")
  if(json_error)
    message(FATAL_ERROR "${OUTPUT_FILE}: not JSON with key '${JSON_KEY}': ${json_error}")
  endif()
endif()
if(GOLDEN_FILE)
  if("$ENV{TILESIM_UPDATE_GOLDEN}" STREQUAL "1")
    file(COPY_FILE "${OUTPUT_FILE}" "${GOLDEN_FILE}")
    message(STATUS "updated ${GOLDEN_FILE}")
  else()
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${OUTPUT_FILE}" "${GOLDEN_FILE}"
                    RESULT_VARIABLE differs)
    if(differs)
      message(FATAL_ERROR "${OUTPUT_FILE} differs from ${GOLDEN_FILE}. If the change is intended, "
                          "rerun with TILESIM_UPDATE_GOLDEN=1 and review the diff.")
    endif()
  endif()
endif()
