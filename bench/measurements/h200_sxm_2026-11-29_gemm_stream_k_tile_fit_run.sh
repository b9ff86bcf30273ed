#!/usr/bin/env bash
# hopper26's second device call (H200): Stream-K's tile_fit mode (the tile
# cluster along n (A multicast, m192n96k64_w16_s4_wgmma_tma_store_c2n).
#   run.sh CARRY_DIR OUT_DIR
# CARRY_DIR holds (stripped, gzip) this branch's tilesim-gemm-check and
# tilesim-measure, the lead's tilesim-gemm-check (tilesim-gemm-check-lead),
# libyaml-cpp, libfmt, this branch's configs/ and studies/ and the SASS
# comparison script (the device's checkout is the session's, not this branch).
# 0. SASS of every kernel in both tilesim-gemm-check builds, kernel by kernel:
#    the lead's kernels must be unchanged (names aside: kClusterN's default);
# 1. tilesim-gemm-check --schedule stream_k/tile_fit (every case, both fixups,
#    fresh random data against cuBLAS); compute-sanitizer memcheck and
#    racecheck on its small cases;
# 2. kernels/studies/gemm_stream_k_tile_fit.yaml, ROUNDS rounds (default 4),
#    one process each, in study order in odd rounds and reversed in even.
set -u
carry=$(cd "$1" && pwd)
out=$2
rounds=${ROUNDS:-4}
w=$out/w
mkdir -p "$w" "$carry/bin"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="$carry/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TILESIM_CONFIG_DIR=$carry/configs
for f in "$carry"/bin-gz/*.gz; do gunzip -c "$f" >"$carry/bin/$(basename "$f" .gz)"; done
chmod +x "$carry"/bin/*
date -u +"start %FT%TZ" | tee "$w/timeline.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,pstate,temperature.gpu \
  --format=csv | tee "$w/nvidia_smi_before.csv"
(cuobjdump -sass "$carry/bin/tilesim-gemm-check-lead" >/tmp/sass_lead.txt 2>&1
 cuobjdump -sass "$carry/bin/tilesim-gemm-check" >/tmp/sass_new.txt 2>&1
 python3 "$carry/sass_compare.py" /tmp/sass_lead.txt /tmp/sass_new.txt >"$w/sass_compare.txt" 2>&1) &
check=$carry/bin/tilesim-gemm-check
timeout 150 "$check" --schedule stream_k/tile_fit >"$w/check_tile_fit.log" 2>&1 &
sanitize() {  # NAME TOOL
  timeout 120 compute-sanitizer --tool "$2" --error-exitcode 9 "$check" --small --schedule stream_k/tile_fit \
    >"$w/sanitizer_$1.log" 2>&1
  echo "exit $?" >>"$w/sanitizer_$1.log"
}
sanitize memcheck memcheck &
sanitize racecheck racecheck &
wait
date -u +"checks done %FT%TZ" | tee -a "$w/timeline.txt"
head -3 "$w/sass_compare.txt"
echo "check: $(tail -1 "$w/check_tile_fit.log")"
grep -h FAIL "$w"/check_*.log | head -20
for f in "$w"/sanitizer_*.log; do echo "$(basename "$f"): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$f" | tail -1) $(tail -1 "$f")"; done
study=$carry/studies/gemm_stream_k_tile_fit.yaml
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
