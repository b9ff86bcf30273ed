#!/usr/bin/env bash
# hopper21's one device call (H200): the lead's and hopper21's builds of
# tilesim-measure / tilesim-gemm-check, carried (stripped, gzip) in CARRY_DIR
# with libyaml-cpp and libfmt, the study YAML and the SASS cubins.
#   run.sh CARRY_DIR OUT_DIR
# 1. SASS of the lead's and hopper21's kernels (cuobjdump of carried cubins);
# 2. hopper21's kernels checked against cuBLAS on fresh random data, every
#    wgmma variant, and compute-sanitizer memcheck / racecheck (in parallel);
# 3. the study, 4 rounds, the two builds in alternate processes;
# 4. ncu of one 1536^3 launch (128x192 cluster DP and SK two_tile), both builds.
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

for b in lead new; do cuobjdump -sass "$carry/sass_$b.cubin" >"$w/sass_$b.txt" 2>&1; done

variants=(m128n192k64_w12_s4_wgmma_tma_store_c2 m128n256k64_w12_s4_wgmma_tma_store
  m128n256k64_w12_s4_wgmma m128n256k64_w12_s4_wgmma_tma_store_c2 m192n192k64_w16_s3_wgmma_tma_store_c2)
for v in "${variants[@]}"; do
  timeout 150 "$carry/bin/tilesim-gemm-check-new" --tile "$v" >"$w/check_$v.log" 2>&1 &
done
wait
sanitize() {  # NAME TOOL ARGS...
  local name=$1 tool=$2
  shift 2
  timeout 120 compute-sanitizer --tool "$tool" --error-exitcode 9 "$carry/bin/tilesim-gemm-check-new" \
    --small "$@" >"$w/sanitizer_$name.log" 2>&1
  echo "exit $?" >>"$w/sanitizer_$name.log"
}
sanitize memcheck_n192_c2 memcheck --tile m128n192k64_w12_s4_wgmma_tma_store_c2 &
sanitize memcheck_m192_c2 memcheck --tile m192n192k64_w16_s3_wgmma_tma_store_c2 &
sanitize memcheck_tma_store memcheck --tile m128n256k64_w12_s4_wgmma_tma_store &
sanitize racecheck_n192_c2_stream_k racecheck --schedule stream_k --tile m128n192k64_w12_s4_wgmma_tma_store_c2 &
sanitize racecheck_tma_store_dp racecheck --schedule data_parallel --tile m128n256k64_w12_s4_wgmma_tma_store &
wait
date -u +"checks done %FT%TZ" | tee -a "$w/timeline.txt"
for v in "${variants[@]}"; do echo "$v: $(tail -1 "$w/check_$v.log")"; done
for f in "$w"/sanitizer_*.log; do echo "$(basename "$f"): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$f" | tail -1) $(tail -1 "$f")"; done

study=$carry/gemm_wgmma_mainloop_descriptors.yaml
for r in 1 2 3 4; do
  if ((r % 2)); then order=(lead new); else order=(new lead); fi
  for b in "${order[@]}"; do
    date -u +"round $r $b %FT%TZ" >>"$w/timeline.txt"
    timeout 120 "$carry/bin/tilesim-measure-$b" "$study" --warmup-ms 150 --target-ms 40 --min-runs 30 \
      --csv "$w/study_${b}_r$r.csv" --json "$w/study_${b}_r$r.json" >"$w/study_${b}_r$r.log" 2>&1
    echo "round $r $b exit $?"
  done
done
date -u +"studies done %FT%TZ" | tee -a "$w/timeline.txt"
tar -czf "$out/results.tgz" -C "$out" w  # what the call brings back if ncu runs out of time

for b in lead new; do
  for s in ncu_wq1536_n192_dp_h200 ncu_wq1536_n192_sk_h200; do
    timeout 60 ncu --clock-control none -k regex:gemm_wgmma_kernel --launch-count 1 \
      --section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats \
      --section WarpStateStats --section LaunchStats --section SourceCounters \
      --metrics smsp__inst_executed.sum,sm__cycles_active.avg,sm__cycles_active.max \
      -o "$w/${s}_$b" "$carry/bin/tilesim-measure-$b" "$carry/$s.yaml" --csv "$w/ncu_run.csv" \
      --min-runs 20 --target-ms 1 --warmup-ms 0 >"$w/${s}_$b.log" 2>&1
    echo "ncu $s $b exit $?"
    ncu --import "$w/${s}_$b.ncu-rep" --page details >"$w/${s}_$b.txt" 2>&1
    ncu --import "$w/${s}_$b.ncu-rep" --page source --print-source sass --csv >"$w/${s}_${b}_sass.csv" 2>&1
  done
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv | tee "$w/nvidia_smi_after.csv"
date -u +"end %FT%TZ" | tee -a "$w/timeline.txt"
tar -czf "$out/results.tgz" -C "$out" w
