#!/bin/bash
# The unaligned gather rate per SM (H200): build tilesim-unaligned-gather on the
# device, its SASS (are the narrow loads all issued before the stores?), the
# table, and Nsight Compute on two points (sectors per request, L1 busy) to set
# beside round 19's ncu of cuBLAS's align1 kernel.
D=.carry/cublas22; W=$(mktemp -d)
Q="name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,power.draw,temperature.gpu,pstate"
nvidia-smi --query-gpu=$Q --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt; nvcc --version | tail -2 >> $OUT/gpu.txt
nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -I$D -Werror=all-warnings -lineinfo \
  $D/kernels/microbench/unaligned_gather.cu -o $W/gather || exit 1
cuobjdump --dump-sass $W/gather | grep -E "Function|LDG|STS|BAR" | awk '/Function/{f=$0} !/Function/{c[f" "$1" "$2]++} END{for(k in c) print c[k], k}' | sort -k2 > $OUT/sass_counts.txt
B=$OUT/h200_sxm_$(date -u +%Y-%m-%d)_unaligned_gather
timeout 120 $W/gather > $B.csv; echo "gather rc=$?"; wc -l $B.csv
nvidia-smi --query-gpu=$Q --format=csv,noheader >> $OUT/gpu.txt
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1); $NCU --version | tail -1 >> $OUT/gpu.txt
M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,l1tex__throughput.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,sm__cycles_elapsed.avg,smsp__inst_executed_op_global_ld.sum,l1tex__lsu_writeback_active.avg.pct_of_peak_sustained_active,l1tex__m_xbar2l1tex_read_sectors.sum
for pt in "2 2 8 1 16" "4 2 8 1 16" "2 2 4 2 16" "2 16 8 1 16"; do
  echo "== $pt" >> $OUT/ncu.txt
  timeout 40 $NCU --clock-control none --metrics $M -k regex:gather -s 1 -c 1 $W/gather --once $pt >> $OUT/ncu.txt 2>&1
done
date -u >> $OUT/gpu.txt
column -s, -t < $B.csv | head -80
