#!/bin/bash
# The unaligned gather rate per SM at cuBLAS's own occupancy (H200): 8 warps a
# SM (its align1 256x128 kernel: one CTA of 256 threads, 229 registers; its
# 128x128: two of 128 threads, 252 registers; ncu in the menu calibration) with
# a k-block's loads a thread in flight (16-64), built on the device; the SASS
# order of the fenced kernels (every LDG before the first STS?) and the table.
D=.carry/cublas23; W=$(mktemp -d)
Q="name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,power.draw,temperature.gpu,pstate"
nvidia-smi --query-gpu=$Q --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt; nvcc --version | tail -2 >> $OUT/gpu.txt
nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -I$D -Werror=all-warnings -lineinfo \
  $D/kernels/microbench/unaligned_gather.cu -o $W/gather || exit 1
# Per fenced kernel: its LDG/STS/BAR sequence, run-length coded (e.g. LDGx48 STSx48 BARx2).
cuobjdump --dump-sass $W/gather | grep -E "Function|LDG|STS|BAR" |
  awk '/Function/{if(f!="")print f": "s" "op"x"n; f=$0; s=""; op=""; n=0; next}
       {o=$2; sub(/\..*/,"",o); if(o==op){n++} else {if(op!="")s=s" "op"x"n; op=o; n=1}}
       END{print f": "s" "op"x"n}' | grep -i "Lb1E" > $OUT/sass_order.txt
B=$OUT/h200_sxm_$(date -u +%Y-%m-%d)_unaligned_gather_deep
timeout 60 $W/gather --deep > $B.csv; echo "gather rc=$?"; wc -l $B.csv
nvidia-smi --query-gpu=$Q --format=csv,noheader >> $OUT/gpu.txt
date -u >> $OUT/gpu.txt
column -s, -t < $B.csv; cat $OUT/sass_order.txt | cut -c1-300
