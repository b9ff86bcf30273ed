#!/usr/bin/env bash
# hopper22's second device call (H200): peers' partials stored by the copy
# engine (gemm_partial_staging.cuh) against the lead.
#   run.sh CARRY_DIR OUT_DIR
# CARRY_DIR holds (stripped, gzip) the lead's tilesim-measure and hopper22's
# tilesim-measure and tilesim-gemm-check, libyaml-cpp, libfmt and studies/.
# 1. hopper22's kernels checked against cuBLAS on fresh random data, every
#    wgmma variant, and compute-sanitizer memcheck / racecheck;
# 2. kernels/studies/gemm_wgmma_stream_k_phases.yaml, 4 rounds, the two
#    builds in alternate processes (the lead first in rounds 1 and 3).
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
# The data-parallel wgmma kernels' SASS, lead against hopper22 (their code
# path should be untouched), and the new kernels' registers and spills.
for b in lead new; do
  cuobjdump -sass "$carry/bin/tilesim-measure-$b" | awk '
    /Function :/ { keep = ($0 ~ /gemm_wgmma_kernel/ && $0 ~ /DataParallelScheduler/) }
    keep && NF' >"$w/dp_sass_$b.txt" 2>&1
done
echo "data-parallel wgmma SASS: $(wc -l <"$w/dp_sass_lead.txt") lines lead, $(diff "$w/dp_sass_lead.txt" "$w/dp_sass_new.txt" | wc -l) diff lines"
cuobjdump --dump-resource-usage "$carry/bin/tilesim-measure-new" >"$w/new_resources.txt" 2>&1
grep -A1 'Function.*gemm_wgmma_kernel' "$w/new_resources.txt" | grep -o 'REG:[0-9]* STACK:[0-9]*' | sort | uniq -c
check=$carry/bin/tilesim-gemm-check-new
variants=(m128n192k64_w12_s4_wgmma_tma_store_c2 m128n256k64_w12_s4_wgmma_tma_store
  m128n256k64_w12_s4_wgmma m128n256k64_w12_s4_wgmma_tma_store_c2 m192n192k64_w16_s3_wgmma_tma_store_c2)
for v in "${variants[@]}"; do
  timeout 150 "$check" --tile "$v" >"$w/check_$v.log" 2>&1 &
done
wait
sanitize() {  # NAME TOOL ARGS...
  local name=$1 tool=$2
  shift 2
  timeout 150 compute-sanitizer --tool "$tool" --error-exitcode 9 "$check" --small "$@" \
    >"$w/sanitizer_$name.log" 2>&1
  echo "exit $?" >>"$w/sanitizer_$name.log"
}
sanitize memcheck_n192_c2 memcheck --tile m128n192k64_w12_s4_wgmma_tma_store_c2 &
sanitize memcheck_m192_c2 memcheck --tile m192n192k64_w16_s3_wgmma_tma_store_c2 &
sanitize memcheck_tma_store memcheck --tile m128n256k64_w12_s4_wgmma_tma_store &
sanitize racecheck_n192_c2_stream_k racecheck --schedule stream_k --tile m128n192k64_w12_s4_wgmma_tma_store_c2 &
sanitize racecheck_tma_store_stream_k racecheck --schedule stream_k --tile m128n256k64_w12_s4_wgmma_tma_store &
sanitize racecheck_n192_c2_split_k racecheck --schedule split_k --tile m128n192k64_w12_s4_wgmma_tma_store_c2 &
wait
date -u +"checks done %FT%TZ" | tee -a "$w/timeline.txt"
for v in "${variants[@]}"; do echo "$v: $(tail -1 "$w/check_$v.log")"; done
for f in "$w"/sanitizer_*.log; do echo "$(basename "$f"): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$f" | tail -1) $(tail -1 "$f")"; done

study=$carry/studies/gemm_wgmma_stream_k_phases.yaml
opts=(--warmup-ms 150 --target-ms 40 --min-runs 30)
for r in 1 2 3 4; do
  if ((r % 2)); then order=(lead new); else order=(new lead); fi
  for b in "${order[@]}"; do
    date -u +"round $r $b %FT%TZ" >>"$w/timeline.txt"
    timeout 120 "$carry/bin/tilesim-measure-$b" "$study" "${opts[@]}" \
      --csv "$w/study_${b}_r$r.csv" --json "$w/study_${b}_r$r.json" >"$w/study_${b}_r$r.log" 2>&1
    echo "round $r $b exit $?"
  done
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv | tee "$w/nvidia_smi_after.csv"
date -u +"end %FT%TZ" | tee -a "$w/timeline.txt"
for f in "$w"/study_*_r*.csv; do cut -d, -f1,12,31 "$f" | tail -n +2 | sed "s|^|$(basename "$f" .csv) |"; done
tar -czf "$out/results.tgz" -C "$out" w
