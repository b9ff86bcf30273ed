#!/usr/bin/env bash
# 16 libFuzzer processes on the lent machine's CPU cores: the sanitize preset's
# fuzz binaries (ASan + UBSan + coverage), each target's processes sharing its
# corpus, through tests/fuzz/run_fuzzer.sh (seeds, regressions, dictionary,
# -max_len, limits as in CI). Usage, from a folder laid out as a source tree
# (docs/fuzzing.md, "Long runs"): device_fuzz_run.sh SECONDS
#   tests/fuzz/run_fuzzer.sh, tests/fuzz/regressions/, configs/,
#   build/tests/fuzz/{seeds/,tilesim.dict} (from build-sanitize),
#   bins.tar.gz (the five build-sanitize/bin/*_fuzzer, strip --strip-debug),
#   lib/ (libyaml-cpp.so.0.7, libfmt.so.9, libstdc++.so.6.carried: not on that machine)
# Writes $OUT/fuzz_run.tar.gz: every process's log and any crash inputs.
set -u
seconds=$1
here=$(pwd)
mkdir -p build/bin && tar xzf bins.tar.gz -C build/bin
export LD_LIBRARY_PATH=$here/lib
if ldd build/bin/study_yaml_fuzzer | grep -q "not found\|GLIBCXX.*not"; then
  cp lib/libstdc++.so.6.carried lib/libstdc++.so.6
fi
ldd build/bin/study_yaml_fuzzer | grep -i "not found" && exit 1
export TILESIM_CONFIG_DIR=$here/configs
export ASAN_OPTIONS=detect_leaks=0
echo "# $(date -u +%FT%TZ) $(nproc) cores; $seconds s per process; $(uname -r)"
declare -A procs=([hardware_yaml]=2 [set_override]=3 [measured_csv]=3 [study_yaml]=4 [sweep_yaml]=4)
mkdir -p logs
for target in "${!procs[@]}"; do
  for i in $(seq 1 "${procs[$target]}"); do
    tests/fuzz/run_fuzzer.sh build "$target" -seed="$i" -max_total_time="$seconds" \
      > "logs/${target}_$i.log" 2>&1 &
  done
done
wait
for target in hardware_yaml set_override measured_csv study_yaml sweep_yaml; do
  runs=$(cat logs/${target}_*.log | awk '/number_of_executed_units/ {s += $2} END {print s + 0}')
  artifacts=$(ls build/tests/fuzz/artifacts/$target 2>/dev/null | wc -l)
  corpus=$(ls build/tests/fuzz/corpus/$target 2>/dev/null | wc -l)
  echo "$target: $runs inputs in ${procs[$target]} processes x $seconds s; corpus $corpus; artifacts: $artifacts"
done
mkdir -p "$OUT"
tar czf "$OUT/fuzz_run.tar.gz" logs build/tests/fuzz/artifacts
