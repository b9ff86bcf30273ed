#!/bin/bash
# attn26 (issue 12): the lone-CTA calibration of our mma.sync flash kernel (kernels/studies/attention_ref_lone_cta_calibration.yaml), H200, and ncu of two of its rows.
D=.carry/attn26
python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('$D/tilesim-measure.xz'),open('/tmp/tilesim-measure','wb'))" || exit 1
chmod +x /tmp/tilesim-measure
export TILESIM_CONFIG_DIR=$PWD/configs TILESIM_GIT_REVISION=4ae8836
export LD_LIBRARY_PATH=$PWD/$D:$LD_LIBRARY_PATH
ldd /tmp/tilesim-measure | grep "not found" && exit 1
Q="name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,power.draw,temperature.gpu,pstate"
nvidia-smi --query-gpu=$Q --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
S=$D/attention_ref_lone_cta_calibration.yaml
timeout 100 /tmp/tilesim-measure $S --warmup-ms 150 --target-ms 60 \
  --csv $OUT/h200_sxm_2026-11-29_attention_ref_lone_cta_calibration_ref.csv > $OUT/measure.log 2>&1
echo "measure rc=$?"; wc -l $OUT/*.csv; tail -4 $OUT/measure.log
nvidia-smi --query-gpu=$Q --format=csv,noheader >> $OUT/gpu.txt
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
$NCU --version | tail -1 >> $OUT/gpu.txt
python3 - "$S" <<'PY'
import sys,yaml,os
s=yaml.safe_load(open(sys.argv[1])); os.makedirs('/tmp/one',exist_ok=True)
for w in s['workloads']:
    open(f"/tmp/one/{w['name']}.yaml",'w').write(yaml.safe_dump({'hardware':s['hardware'],'workloads':[w]}))
PY
start=$(date +%s)
for n in lone_q128_k4288_b22_h6kv1_d64 lone_q128_k4288_b44_h6kv1_d64 lone_q128_k4288_b22_h6kv1_d128 lone_q128_k4288_b44_h6kv1_d128; do
  [ $(( $(date +%s) - start )) -gt 60 ] && { echo "ncu: out of time at $n" >> $OUT/ncu.txt; break; }
  echo "==== $n" >> $OUT/ncu.txt
  timeout 30 $NCU --clock-control none -k regex:flash_forward -s 3 -c 1 --section SpeedOfLight --section WarpStateStats \
    --metrics sm__ctas_launched.min,sm__ctas_launched.max,sm__ctas_launched.sum,sm__cycles_active.avg,sm__cycles_active.max,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__warps_active.avg.per_cycle_active,gpu__time_duration.sum \
    /tmp/tilesim-measure /tmp/one/$n.yaml --warmup-ms 0 --target-ms 1 --min-runs 20 --csv /tmp/x.csv \
    2>&1 | grep -v "^==PROF==\|^tilesim" >> $OUT/ncu.txt
done
echo "ncu done in $(( $(date +%s) - start )) s"; date -u >> $OUT/gpu.txt; wc -l $OUT/ncu.txt
