#!/usr/bin/env bash
# hopper23's second device call (H200): the even split's fast path (c = 0
# keeps the lead's single division) checked, and the even split timed against
# the lead's kernels.
#   run.sh CARRY_DIR OUT_DIR
# CARRY_DIR holds (stripped, gzip) hopper23's tilesim-measure and
# tilesim-gemm-check, the lead's tilesim-measure (tilesim-measure-lead),
# libyaml-cpp, libfmt and studies/.
# 1. every Stream-K variant of every tile variant checked against cuBLAS on
#    fresh random data; compute-sanitizer memcheck and racecheck (small shapes);
# 2. kernels/studies/gemm_wgmma_stream_k_phases.yaml (hopper22's study: no
#    stream_k_split key, so the even split), 4 rounds, the two builds in
#    alternate processes (the lead first in rounds 1 and 3).
set -u
carry=$(cd "$1" && pwd)
out=$2
repo=$(pwd)
w=$out/w
mkdir -p "$w" "$carry/bin"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="$carry/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TILESIM_CONFIG_DIR=$repo/configs
for f in "$carry"/bin-gz/*.gz; do gunzip -c "$f" >"$carry/bin/$(basename "$f" .gz)"; done
chmod +x "$carry"/bin/*
date -u +"start %FT%TZ" | tee "$w/timeline.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,pstate,temperature.gpu \
  --format=csv | tee "$w/nvidia_smi_before.csv"
check=$carry/bin/tilesim-gemm-check
variants=(m128n128k32_w8_s4 m128n128k32_w4_s4 m256n128k64_w8_s3 m256n128k64_w8_s4 m128n256k32_w8_s4
  m128n256k64_w12_s4_wgmma m128n256k64_w12_s4_wgmma_tma_store m128n256k64_w12_s4_wgmma_tma_store_c2
  m128n192k64_w12_s4_wgmma_tma_store_c2 m192n192k64_w16_s3_wgmma_tma_store_c2)
for v in "${variants[@]}"; do
  timeout 200 "$check" --schedule stream_k --tile "$v" >"$w/check_$v.log" 2>&1 &
done
wait
date -u +"checks done %FT%TZ" | tee -a "$w/timeline.txt"
for v in "${variants[@]}"; do echo "$v: $(tail -1 "$w/check_$v.log")"; done
grep -h FAIL "$w"/check_*.log | head -20
sanitize() {  # NAME TOOL ARGS...
  local name=$1 tool=$2
  shift 2
  timeout 200 compute-sanitizer --tool "$tool" --error-exitcode 9 "$check" --small --schedule stream_k "$@" \
    >"$w/sanitizer_$name.log" 2>&1
  echo "exit $?" >>"$w/sanitizer_$name.log"
}
sanitize memcheck_all memcheck &
sanitize racecheck_n192_c2 racecheck --tile m128n192k64_w12_s4_wgmma_tma_store_c2 &
sanitize racecheck_tma_store racecheck --tile m128n256k64_w12_s4_wgmma_tma_store &
sanitize racecheck_mma_sync racecheck --tile m128n128k32_w8_s4 &
wait
date -u +"sanitizers done %FT%TZ" | tee -a "$w/timeline.txt"
for f in "$w"/sanitizer_*.log; do echo "$(basename "$f"): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$f" | tail -1) $(tail -1 "$f")"; done

study=$carry/studies/gemm_wgmma_stream_k_phases.yaml
opts=(--warmup-ms 150 --target-ms 40 --min-runs 30)
for r in 1 2 3 4; do
  if ((r % 2)); then order=(lead new); else order=(new lead); fi
  for b in "${order[@]}"; do
    if [ "$b" = lead ]; then bin=$carry/bin/tilesim-measure-lead; else bin=$carry/bin/tilesim-measure; fi
    date -u +"round $r $b %FT%TZ" >>"$w/timeline.txt"
    timeout 150 "$bin" "$study" "${opts[@]}" \
      --csv "$w/study_${b}_r$r.csv" --json "$w/study_${b}_r$r.json" >"$w/study_${b}_r$r.log" 2>&1
    echo "round $r $b exit $?"
  done
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv | tee "$w/nvidia_smi_after.csv"
date -u +"end %FT%TZ" | tee -a "$w/timeline.txt"
for f in "$w"/study_*_r*.csv; do cut -d, -f1,12,31 "$f" | tail -n +2 | sed "s|^|$(basename "$f" .csv) |"; done
tar -czf "$out/results.tgz" -C "$out" w
