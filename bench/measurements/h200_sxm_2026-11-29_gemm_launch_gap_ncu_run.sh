#!/usr/bin/env bash
# hopper25's third device call (H200): why our 192x96 kernel at 1536^3 is
# slower than cuBLAS's back to back (event chains, ncu without its L2 flush)
# but close to it after a flush. ncu (--clock-control none) over 20 launches
# of each case of tilesim-gemm-launch-gap (--launches 20), our GEMM kernels
# and cuBLAS's only, L2 flushed before each launch (ncu's default) and not:
# duration, elapsed GPC cycles (the clock), SM active cycles, DRAM bytes
# read and written, L2 bytes, instructions.
#   run.sh CARRY_DIR OUT_DIR   (CARRY_DIR: tilesim-gemm-launch-gap, gzip)
set -u
carry=$(cd "$1" && pwd)
out=$2
w=$out/w
mkdir -p "$w" "$carry/bin"
export PATH="/usr/local/cuda/bin:$PATH"
gunzip -c "$carry/bin-gz/tilesim-gemm-launch-gap.gz" >"$carry/bin/tilesim-gemm-launch-gap"
chmod +x "$carry"/bin/*
gap=$carry/bin/tilesim-gemm-launch-gap
metrics=gpu__time_duration.sum,gpc__cycles_elapsed.max,sm__cycles_active.avg,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,smsp__inst_executed.sum
date -u +"start %FT%TZ" | tee "$w/timeline.txt"
for cache in all none; do
  timeout 150 ncu --clock-control none --cache-control "$cache" --metrics "$metrics" \
    -k regex:"nvjet|gemm_wgmma" --csv "$gap" --launches 20 >"$w/ncu_$cache.csv" 2>"$w/ncu_$cache.err"
  echo "ncu cache $cache exit $?"
done
date -u +"end %FT%TZ" | tee -a "$w/timeline.txt"
tar -czf "$out/results.tgz" -C "$out" w
