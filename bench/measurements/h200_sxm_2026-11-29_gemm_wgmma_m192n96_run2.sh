#!/usr/bin/env bash
# hopper24's second device call (H200): why the 192x96 tile's main loop is
# slow (call 1: its data-parallel kernel 75-78% of cuBLAS at 4096^3 and
# 8192^3 where 128x256 runs 97-98%).
#   run2.sh CARRY_DIR OUT_DIR   (CARRY_DIR as run.sh's)
# 0. the SASS comparison again with anonymous-namespace names normalized
#    (the first try of this script, with --min-runs 1, profiled nothing);
# 1. ncu (clocks left alone), one launch each (the checked run) of the
#    data-parallel kernel at 4096^3: 192x96 c2 (64-byte swizzled B), 192x192
#    c2 (the same three-consumer kernel, 128-byte swizzle), 128x256 tma_store;
#    and at 1536^3: 192x96 c2 and cuBLAS.
set -u
carry=$(cd "$1" && pwd)
out=$2
w=$out/w2
mkdir -p "$w" "$carry/bin"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="$carry/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TILESIM_CONFIG_DIR=$carry/configs
for f in "$carry"/bin-gz/*.gz; do gunzip -c "$f" >"$carry/bin/$(basename "$f" .gz)"; done
chmod +x "$carry"/bin/*
date -u +"start %FT%TZ" | tee "$w/timeline.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,pstate,temperature.gpu \
  --format=csv | tee "$w/nvidia_smi_before.csv"
(cuobjdump -sass "$carry/bin/tilesim-measure-lead" >/tmp/sass_lead.txt 2>&1
 cuobjdump -sass "$carry/bin/tilesim-measure" >/tmp/sass_new.txt 2>&1
 python3 "$carry/sass_compare.py" /tmp/sass_lead.txt /tmp/sass_new.txt >"$w/sass_compare.txt" 2>&1) &
profile() {  # NAME KERNEL_REGEX LAUNCHES WORKLOAD_YAML
  local name=$1 regex=$2 launches=$3
  printf 'hardware: h200_sxm\nworkloads:\n  - %s\n' "$4" >"$w/$name.yaml"
  timeout 100 ncu --clock-control none --set full -k "regex:$regex" --launch-count "$launches" \
    "$carry/bin/tilesim-measure" "$w/$name.yaml" --warmup-ms 0 --target-ms 1 --min-runs 20 \
    --csv "$w/$name.csv" >"$w/ncu_$name.txt" 2>&1
  echo "$name exit $?"
}
g4='gemm: {m: 4096, n: 4096, k: 4096, dtype: bf16}'
g15='gemm: {m: 1536, n: 1536, k: 1536, dtype: bf16}'
profile dp4096_m192n96 gemm_wgmma 1 "{name: dp4096_m192n96, $g4, kernel: tilesim_ref_wgmma_multicast_m192n96}"
profile dp4096_m192 gemm_wgmma 1 "{name: dp4096_m192, $g4, kernel: tilesim_ref_wgmma_multicast_m192}"
profile dp4096_tma_store gemm_wgmma 1 "{name: dp4096_tma_store, $g4, kernel: tilesim_ref_wgmma_tma_store}"
profile dp1536_m192n96 gemm_wgmma 1 "{name: dp1536_m192n96, $g15, kernel: tilesim_ref_wgmma_multicast_m192n96}"
profile dp1536_cublas 'nvjet|gemm|Kernel' 2 "{name: dp1536_cublas, $g15}"
wait
head -6 "$w/sass_compare.txt"
for f in "$w"/ncu_*.txt; do
  echo "== $(basename "$f")"
  grep -E '^  [a-zA-Z_].*\(|Duration|SM Frequency|Compute \(SM\) Throughput|Memory Throughput|Shared Memory|Registers Per|Issue Slots Busy|Warp Cycles Per Issued|Grid Size|Block Size|Dynamic Shared|bank' "$f" | head -40
done
date -u +"end %FT%TZ" | tee -a "$w/timeline.txt"
tar -czf "$out/results2.tgz" -C "$out" w2
