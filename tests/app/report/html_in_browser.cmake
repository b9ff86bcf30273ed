# Writes the --html reports of simulate, compare and sweep and loads each in
# headless Chromium: the page's own load-time script must mark the body
# data-status="ok" (it records the first script error instead), and the
# browser's console must show no uncaught error. Exit 77 (skipped) without
# Chromium.
#   cmake -DTILESIM=... -DWORK_DIR=... -P html_in_browser.cmake   (from the source root)
find_program(browser NAMES chromium chromium-browser google-chrome)
if(NOT browser)
  message(STATUS "no chromium: skipped")
  cmake_language(EXIT 77)
endif()
file(MAKE_DIRECTORY ${WORK_DIR})
set(reports
  "simulate|configs/studies/quickstart.yaml"
  "compare|--measured|bench/measurements/h100_sxm_2026-11-21_gemm_dataset.csv"
  "sweep|configs/sweeps/stream_k_vs_m.yaml|-j|2|--csv|${WORK_DIR}/sweep.csv")
foreach(report IN LISTS reports)
  string(REPLACE "|" ";" arguments "${report}")
  list(GET arguments 0 command)
  set(page ${WORK_DIR}/${command}.html)
  file(REMOVE ${page})
  execute_process(COMMAND ${TILESIM} ${arguments} --html ${page} RESULT_VARIABLE status
    OUTPUT_QUIET ERROR_VARIABLE err)
  if(status OR NOT EXISTS ${page})
    message(FATAL_ERROR "tilesim ${command} --html failed (${status}): ${err}")
  endif()
  file(READ ${page} html)
  if(html MATCHES "<link|<script src|<img src|@import|url\\(")
    message(FATAL_ERROR "${page} refers to something outside itself")
  endif()
  execute_process(COMMAND ${browser} --headless --no-sandbox --disable-gpu --enable-logging=stderr
      --v=0 --dump-dom file://${page}
    RESULT_VARIABLE status OUTPUT_VARIABLE dom ERROR_VARIABLE console TIMEOUT 60)
  if(status)
    message(FATAL_ERROR "chromium failed on ${page} (${status}): ${console}")
  endif()
  if(NOT dom MATCHES "data-status=\"ok\"")
    string(REGEX MATCH "data-status=\"[^\"]*\"" found "${dom}")
    message(FATAL_ERROR "${page}: the page's script did not finish: ${found}")
  endif()
  if(console MATCHES "CONSOLE[^\n]*(Uncaught|Error)")
    message(FATAL_ERROR "${page}: console errors:\n${console}")
  endif()
  message(STATUS "${command}: loaded in chromium, data-status=ok")
endforeach()
