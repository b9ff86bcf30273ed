#!/usr/bin/env bash
# hopper25's second device call (H200): Stream-K's wave_fit mode beside
# two_tile, data-parallel and cuBLAS, in one process per round.
#   run.sh CARRY_DIR OUT_DIR
# CARRY_DIR holds (stripped, gzip) this branch's tilesim-measure, libyaml-cpp,
# libfmt, studies/ and this branch's configs/ (the device's checkout is the
# session's, not this branch). Every row is checked against cuBLAS on fresh
# random data (output poisoned) before it is timed; wave_fit's own checks,
# sanitizers and SASS comparison ran in the first call
# (h200_sxm_2026-11-29_gemm_launch_gap_run.sh).
# kernels/studies/gemm_stream_k_wave_fit.yaml, ROUNDS rounds (default 4), one
# process each, the rows in study order in odd rounds, reversed in even.
set -u
carry=$(cd "$1" && pwd)
out=$2
rounds=${ROUNDS:-4}
w=$out/w
mkdir -p "$w" "$carry/bin"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="$carry/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TILESIM_CONFIG_DIR=$carry/configs
gunzip -c "$carry/bin-gz/tilesim-measure.gz" >"$carry/bin/tilesim-measure"
chmod +x "$carry"/bin/*
date -u +"start %FT%TZ" | tee "$w/timeline.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,pstate,temperature.gpu \
  --format=csv | tee "$w/nvidia_smi_before.csv"
study=$carry/studies/gemm_stream_k_wave_fit.yaml
{ sed -n '1,/^workloads:/p' "$study"; grep '^  - ' "$study" | tac; } >"$w/study_reversed.yaml"
opts=(--warmup-ms 150 --target-ms 40 --min-runs 30)
for r in $(seq 1 "$rounds"); do
  if ((r % 2)); then s=$study; else s=$w/study_reversed.yaml; fi
  date -u +"round $r %FT%TZ" >>"$w/timeline.txt"
  timeout 150 "$carry/bin/tilesim-measure" "$s" "${opts[@]}" \
    --csv "$w/study_r$r.csv" --json "$w/study_r$r.json" >"$w/study_r$r.log" 2>&1
  echo "round $r exit $?"
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv | tee "$w/nvidia_smi_after.csv"
date -u +"end %FT%TZ" | tee -a "$w/timeline.txt"
for f in "$w"/study_r*.csv; do cut -d, -f1,12,31 "$f" | tail -n +2 | sed "s|^|$(basename "$f" .csv) |"; done
tar -czf "$out/results.tgz" -C "$out" w
