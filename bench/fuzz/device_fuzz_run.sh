#!/usr/bin/env bash
# libFuzzer processes on every CPU core of the lent machine but two: the fuzz
# preset's binaries (ASan + UBSan + coverage), each target's processes sharing
# its corpus, through tests/fuzz/run_fuzzer.sh (seeds, regressions, dictionary,
# -max_len, limits as in CI). Usage, from a folder laid out as a source tree
# (docs/fuzzing.md, "Long runs"): device_fuzz_run.sh SECONDS [TARGET=INPUTS ...]
#   tests/fuzz/run_fuzzer.sh, tests/fuzz/regressions/, configs/,
#   build/tests/fuzz/{seeds/,tilesim.dict} (from build-fuzz),
#   bins.tar.gz (the five build-fuzz/bin/*_fuzzer, strip --strip-debug),
#   lib/ (libyaml-cpp.so.0.7, libfmt.so.9, libstdc++.so.6.carried: not on that machine),
#   corpus.tar.gz (optional: an earlier run's fuzz_corpus.tar.gz, to go on from it).
# TARGET=INPUTS: inputs an earlier run of the same binaries gave a target; the
# cores are shared out by what each target still lacks of 1,000,000.
# FUZZ_RUNS_PER_PROCESS=N (optional): a process stops after N mutations, before
# SECONDS if it gets there first.
# Writes $OUT/fuzz_run.tar.gz (every process's log and any crash inputs) and
# $OUT/fuzz_corpus.tar.gz (the corpora, for the next run).
set -u
seconds=$1
shift
declare -A done_before
for given in "$@"; do done_before[${given%%=*}]=${given#*=}; done
here=$(pwd)
if [ -f corpus.tar.gz ]; then mkdir -p build/tests/fuzz && tar xzf corpus.tar.gz -C build/tests/fuzz; fi
mkdir -p build/bin && tar xzf bins.tar.gz -C build/bin
export LD_LIBRARY_PATH=$here/lib
if ldd build/bin/study_yaml_fuzzer | grep -q "not found\|GLIBCXX.*not"; then
  cp lib/libstdc++.so.6.carried lib/libstdc++.so.6
fi
ldd build/bin/study_yaml_fuzzer | grep -i "not found" && exit 1
export TILESIM_CONFIG_DIR=$here/configs
# malloc_context_size=0: no allocation stacks in a report (a found input is run
# again at home for them); ASan still finds everything, 10-20% faster.
export ASAN_OPTIONS=detect_leaks=0:malloc_context_size=0
targets=(hardware_yaml set_override measured_csv study_yaml sweep_yaml)
# Process-seconds a million inputs take, per target: one over the inputs per
# second of one process on the 64-core nvidia-h100-x4 machine with 62 running
# (2026-11-27, bench/fuzz/2026-11-27_device_run_1m.log; the 2026-11-26 run of
# 16 on 16 cores gave 1.5 times as many per process). The cores are shared out
# by what each target still lacks of a million inputs.
declare -A cost=([hardware_yaml]=7600 [set_override]=10900 [measured_csv]=15900 \
  [study_yaml]=4700 [sweep_yaml]=13000)
for target in "${!cost[@]}"; do
  lacking=$((1000000 - ${done_before[$target]:-0}))
  cost[$target]=$((cost[$target] * (lacking > 0 ? lacking : 0) / 1000000))
done
cores=$(nproc)
slots=$((cores > 8 ? cores - 2 : cores))
total=0
for target in "${targets[@]}"; do total=$((total + cost[$target])); done
if [ "$total" -eq 0 ]; then echo "every target has its 1,000,000 inputs"; exit 0; fi
# A target that already has its million inputs gets no process.
declare -A procs
for target in "${targets[@]}"; do
  procs[$target]=$(((slots * cost[$target] + total / 2) / total))
  if [ "${procs[$target]}" -lt 1 ] && [ "${cost[$target]}" -gt 0 ]; then procs[$target]=1; fi
done
running=()
for target in "${targets[@]}"; do [ "${procs[$target]}" -gt 0 ] && running+=("$target"); done
targets=("${running[@]}")
echo "# $(date -u +%FT%TZ) $cores cores, $slots processes; $seconds s per process; $(uname -r)"
mkdir -p logs
for target in "${targets[@]}"; do
  for i in $(seq 1 "${procs[$target]}"); do
    # -reload=30: 62 processes re-reading one growing corpus every second (the
    # default) ran at half the rate (bench/fuzz/2026-11-27_device_run_4_sweep.log).
    tests/fuzz/run_fuzzer.sh build "$target" -seed="$i" -reload=30 \
      ${FUZZ_RUNS_PER_PROCESS:+-runs=$FUZZ_RUNS_PER_PROCESS} -max_total_time="$seconds" \
      > "logs/${target}_$i.log" 2>&1 &
  done
done
wait
echo "# $(date -u +%FT%TZ) done"
for target in "${targets[@]}"; do
  logs=(logs/"${target}"_*.log)
  runs=$(cat "${logs[@]}" | awk '/number_of_executed_units/ {s += $2} END {print s + 0}')
  rates=$(cat "${logs[@]}" | awk '/average_exec_per_sec/ {print $2}' | sort -n | paste -sd' ')
  start=$(grep -h -m1 INITED "${logs[@]}" | sed 's/.*cov: \([0-9]*\).*/\1/' | sort -n | head -1)
  end=$(grep -h DONE "${logs[@]}" | sed 's/.*cov: \([0-9]*\).*/\1/' | sort -n | tail -1)
  rss=$(cat "${logs[@]}" | awk '/peak_rss_mb/ {print $2}' | sort -n | tail -1)
  slowest=$(cat "${logs[@]}" | awk '/slowest_unit_time_sec/ {print $2}' | sort -n | tail -1)
  # libFuzzer also keeps an input that took over 10 s (slow-unit-*), which is no failure.
  artifacts=$(ls build/tests/fuzz/artifacts/"$target" 2>/dev/null | grep -vc '^slow-unit-')
  slow=$(ls build/tests/fuzz/artifacts/"$target" 2>/dev/null | grep -c '^slow-unit-')
  corpus=$(ls build/tests/fuzz/corpus/"$target" 2>/dev/null | wc -l)
  echo "$target: $runs inputs in ${procs[$target]} processes x $seconds s" \
    "(per process per s: $rates); coverage $start -> $end; peak RSS ${rss} MB;" \
    "slowest input ${slowest} s ($slow over 10 s); corpus $corpus; crash, timeout or" \
    "out-of-memory inputs: $artifacts"
done
for log in logs/*.log; do
  if grep -q "ERROR\|==ERROR\|runtime error\|Timeout\|out-of-memory\|deadly signal" "$log"; then
    echo "## $log: a finding"
    grep -m5 -A20 "ERROR\|runtime error\|Timeout\|out-of-memory\|deadly signal" "$log"
  fi
done
mkdir -p "$OUT"
tar czf "$OUT/fuzz_run.tar.gz" logs build/tests/fuzz/artifacts
tar czf "$OUT/fuzz_corpus.tar.gz" -C build/tests/fuzz corpus
