#!/usr/bin/env bash
# hopper22's first device call (H200): where the 1536^3 Stream-K time goes.
#   run.sh CARRY_DIR OUT_DIR
# CARRY_DIR holds studies/ and (stripped, gzip) the lead's tilesim-measure and
# tilesim-gemm-check and the PROBE tilesim-measure (clock64 marks per phase,
# see the NOTES), with libyaml-cpp and libfmt.
# 1. PROBE: per-phase traces of the last timed launch of 1536^3 (twice) and
#    3072x3072x4096 Stream-K, each row alone in its process;
# 2. the lead's kernels: kernels/studies/gemm_wgmma_stream_k_phases.yaml, 3 rounds.
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
opts=(--warmup-ms 150 --target-ms 40 --min-runs 30)
st=$carry/studies  # the studies travel in the carried folder
trace() {  # NAME STUDY
  TILESIM_PHASE_TRACE_CSV=$w/trace_$1.csv timeout 60 "$carry/bin/tilesim-measure-probe" "$st/$2.yaml" "${opts[@]}" \
    --csv "$w/trace_$1_timing.csv" >"$w/trace_$1.log" 2>&1
  echo "trace $1 exit $? rows $(wc -l <"$w/trace_$1.csv")"
}
trace wq1536_a trace_wq1536_n192_sk_h200
trace wq3072_a trace_wq3072x3072x4096_c2_sk_h200
trace wq1536_b trace_wq1536_n192_sk_h200
for r in 1 2 3; do
  date -u +"round $r %FT%TZ" >>"$w/timeline.txt"
  timeout 120 "$carry/bin/tilesim-measure-lead" "$st/gemm_wgmma_stream_k_phases.yaml" "${opts[@]}" \
    --csv "$w/study_lead_r$r.csv" --json "$w/study_lead_r$r.json" >"$w/study_lead_r$r.log" 2>&1
  echo "round $r exit $?"
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv | tee "$w/nvidia_smi_after.csv"
date -u +"end %FT%TZ" | tee -a "$w/timeline.txt"
for f in "$w"/trace_*_timing.csv "$w"/study_lead_r*.csv; do cut -d, -f1,12,31,32 "$f" | tail -n +2 | sed "s|^|$(basename "$f" .csv) |"; done
tar -czf "$out/results.tgz" -C "$out" w
