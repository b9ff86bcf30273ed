#!/bin/bash
# Calibration: cuBLAS's kernel by size and row alignment (H200): times, then ncu kernel names/grids.
C=.carry/attention_measure; D=.carry/menu
W=$(mktemp -d); gunzip -c $C/tilesim-measure.gz > $W/tilesim-measure; chmod +x $W/tilesim-measure
export LD_LIBRARY_PATH=$PWD/$C:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} TILESIM_CONFIG_DIR=$PWD/configs TILESIM_GIT_REVISION=5696246
Q="name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,power.draw,temperature.gpu,pstate"
nvidia-smi --query-gpu=$Q --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
S=$D/gemm_cublas_menu_calibration.yaml
B=$OUT/h200_sxm_$(date -u +%Y-%m-%d)_gemm_cublas_menu_calibration
timeout 120 $W/tilesim-measure $S --warmup-ms 200 --target-ms 30 --min-runs 20 --csv $B.csv --json $B.json > $B.log 2>&1
echo "measure rc=$?"; wc -l $B.csv
nvidia-smi --query-gpu=$Q --format=csv,noheader >> $OUT/gpu.txt
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1); $NCU --version | tail -1 >> $OUT/gpu.txt
python3 - "$S" <<'PY'
import sys,yaml,os
s=yaml.safe_load(open(sys.argv[1])); os.makedirs('/tmp/one',exist_ok=True)
for w in s['workloads']:
    open(f"/tmp/one/{w['name']}.yaml",'w').write(yaml.safe_dump({'hardware':s['hardware'],'workloads':[w]}))
PY
start=$(date +%s)
for y in /tmp/one/*.yaml; do
  n=$(basename $y .yaml)
  [ $(( $(date +%s) - start )) -gt 240 ] && { echo "ncu: out of time at $n" >> $OUT/ncu_errors.txt; break; }
  timeout 30 $NCU --clock-control none --cache-control none --csv \
    --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread \
    -k 'regex:gemm|Kernel|splitK|nvjet|xmma|cutlass|wmma|reduce' -s 10 -c 12 $W/tilesim-measure $y --warmup-ms 0 --target-ms 1 --min-runs 20 --csv /tmp/x.csv \
    > /tmp/ncu_$n.txt 2>> $OUT/ncu_errors.txt
  echo "== $n rc=$?" >> $OUT/ncu_raw.csv; grep '^"' /tmp/ncu_$n.txt >> $OUT/ncu_raw.csv
done
echo "ncu done in $(( $(date +%s) - start )) s"; date -u >> $OUT/gpu.txt
wc -l $OUT/ncu_raw.csv; tail -3 $OUT/ncu_errors.txt
