#!/usr/bin/env bash
# hopper21's second device call (H200): ncu with SASS source counters of
# cuBLAS at 1536^3 and, at 1536x1536x8192, of our 128x192 cluster kernel
# (data-parallel) and cuBLAS, from the lead's tilesim-measure (carried).
#   run.sh CARRY_DIR OUT_DIR
set -u
carry=$(cd "$1" && pwd)
out=$2
w=$out/w
mkdir -p "$w" "$carry/bin"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="$carry/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TILESIM_CONFIG_DIR=$(pwd)/configs
gunzip -c "$carry/bin-gz/tilesim-measure-lead.gz" >"$carry/bin/tilesim-measure-lead"
chmod +x "$carry/bin/tilesim-measure-lead"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,pstate,temperature.gpu \
  --format=csv | tee "$w/nvidia_smi_before.csv"
profile() {  # NAME STUDY KERNEL_REGEX LAUNCHES
  timeout 90 ncu --clock-control none -k "regex:$3" --launch-count "$4" \
    --section SpeedOfLight --section InstructionStats --section WarpStateStats \
    --section LaunchStats --section SourceCounters \
    --metrics smsp__inst_executed.sum,sm__cycles_active.avg,sm__cycles_active.max \
    -o "$w/$1" "$carry/bin/tilesim-measure-lead" "$carry/$2.yaml" --csv "$w/run_$1.csv" \
    --min-runs 20 --target-ms 1 --warmup-ms 0 >"$w/$1.log" 2>&1
  echo "ncu $1 exit $?"
  ncu --import "$w/$1.ncu-rep" --page details >"$w/$1.txt" 2>&1
  ncu --import "$w/$1.ncu-rep" --page source --print-source sass --csv >"$w/${1}_sass.csv" 2>&1
}
profile cublas_1536 ncu_wq1536_cublas_h200 nvjet 3
profile k8192_n192 ncu_wq1536x8192_h200 gemm_wgmma_kernel 1
profile k8192_cublas ncu_wq1536x8192_cublas_h200 "nvjet|sm90|cutlass" 3
grep -E "^  [a-z_]|Duration|Executed Instructions  |SM Active Cycles" "$w"/*.txt | head -60
tar -czf "$out/results.tgz" -C "$out" w
