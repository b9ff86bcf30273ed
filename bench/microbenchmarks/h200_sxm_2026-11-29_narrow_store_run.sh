#!/bin/bash
# The narrow C store rate per SM (H200): build tilesim-narrow-store on the
# device, its SASS store widths (STG.U16 / STG.E / STG.E.128 a point), and the
# table: 2-, 4- and 16-byte stores along rows of C (pitch 2049 / 2050 / 2056
# bf16), 4-32 warps a SM, 1-8 stores a thread a round, C (134 MiB) past L2.
W=$(mktemp -d)
Q="name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,power.draw,temperature.gpu,pstate"
nvidia-smi --query-gpu=$Q --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt; nvcc --version | tail -2 >> $OUT/gpu.txt
nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -I. -Werror=all-warnings -lineinfo \
  kernels/microbench/narrow_store.cu -o $W/store || exit 1
cuobjdump --dump-sass $W/store | grep -E "Function|STG" |
  awk '/Function/{f=$0} !/Function/{c[f" "$2]++} END{for(k in c) print c[k], k}' | sort -k2 > $OUT/sass_stores.txt
B=$OUT/h200_sxm_$(date -u +%Y-%m-%d)_narrow_store
timeout 150 $W/store > $B.csv; echo "store rc=$?"; wc -l $B.csv
nvidia-smi --query-gpu=$Q --format=csv,noheader >> $OUT/gpu.txt
date -u >> $OUT/gpu.txt
column -s, -t < $B.csv; cut -c1-200 $OUT/sass_stores.txt
