# Fails when a source file includes a header of a layer above its own
# (hwmodels -> sim/engine -> sim/gpu -> workloads -> app). Run with
#   cmake -DSOURCE_DIR=<repo> -P check_layer_includes.cmake
# The CMake link check (root CMakeLists.txt) guards targets; this guards headers,
# which a header-only include could slip past.
set(rules
  "hwmodels|sim/ workloads/ app/ kernels/"
  "sim/engine|hwmodels/ sim/gpu/ workloads/ app/ kernels/"
  "sim/gpu|workloads/ app/ kernels/"
  "workloads|app/ kernels/")
set(violations "")
foreach(rule IN LISTS rules)
  string(REPLACE "|" ";" parts "${rule}")
  list(GET parts 0 layer)
  list(GET parts 1 forbidden)
  separate_arguments(forbidden)
  file(GLOB_RECURSE sources "${SOURCE_DIR}/${layer}/*.hpp" "${SOURCE_DIR}/${layer}/*.cpp")
  foreach(source IN LISTS sources)
    file(STRINGS "${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS includes)
      foreach(prefix IN LISTS forbidden)
        if(line MATCHES "\"${prefix}")
          file(RELATIVE_PATH relative "${SOURCE_DIR}" "${source}")
          string(STRIP "${line}" line)
          list(APPEND violations "${relative}: ${line} (${layer} must not include ${prefix})")
        endif()
      endforeach()
    endforeach()
  endforeach()
endforeach()
if(violations)
  list(JOIN violations "\n" text)
  message(FATAL_ERROR "layering violations:\n${text}")
endif()
message(STATUS "layering: every include points down")
