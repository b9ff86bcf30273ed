#!/bin/bash
# Calibration: cuBLAS on unaligned GEMMs over k and grid size (H200): times, then ncu kernel names/grids.
D=.carry/cublas_unal
python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('$D/tilesim-measure.xz'),open('$D/tilesim-measure','wb'))" || exit 1
chmod +x $D/tilesim-measure
export TILESIM_CONFIG_DIR=$PWD/configs
export LD_LIBRARY_PATH=$PWD/$D:$LD_LIBRARY_PATH
ldd $D/tilesim-measure | grep "not found" && exit 1
Q="name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,power.draw,temperature.gpu,pstate"
nvidia-smi --query-gpu=$Q --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
S=$D/gemm_cublas_unaligned_calibration.yaml
timeout 240 $D/tilesim-measure $S --warmup-ms 200 --target-ms 30 --min-runs 20 \
  --csv $OUT/h200_sxm_2026-11-28_gemm_cublas_unaligned_calibration.csv > $OUT/measure.log 2>&1
echo "measure rc=$?"; wc -l $OUT/*.csv
nvidia-smi --query-gpu=$Q --format=csv,noheader >> $OUT/gpu.txt
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
$NCU --version | tail -1 >> $OUT/gpu.txt
python3 - "$S" <<'PY'
import sys,yaml,os
s=yaml.safe_load(open(sys.argv[1]))
os.makedirs('/tmp/one',exist_ok=True)
for w in s['workloads']:
    open(f"/tmp/one/{w['name']}.yaml",'w').write(yaml.safe_dump({'hardware':s['hardware'],'workloads':[w]}))
PY
start=$(date +%s)
for y in /tmp/one/*.yaml; do
  n=$(basename $y .yaml)
  [ $(( $(date +%s) - start )) -gt 200 ] && { echo "ncu: out of time at $n" >> $OUT/ncu_errors.txt; break; }
  timeout 40 $NCU --clock-control none --cache-control none --csv \
    --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread \
    -s 20 -c 16 $D/tilesim-measure $y --warmup-ms 0 --target-ms 1 --min-runs 20 --csv /tmp/x.csv \
    > /tmp/ncu_$n.txt 2>> $OUT/ncu_errors.txt
  echo "== $n rc=$?" >> $OUT/ncu_raw.csv; grep '^"' /tmp/ncu_$n.txt >> $OUT/ncu_raw.csv
done
echo "ncu done in $(( $(date +%s) - start )) s"; date -u >> $OUT/gpu.txt
wc -l $OUT/ncu_raw.csv; tail -3 $OUT/ncu_errors.txt
