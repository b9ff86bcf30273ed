#!/bin/bash
# ncu of our mma.sync flash kernel on the turn ladder's square rows (calibration), causal vs not: how much of a
# causal square row's softmax hides under the co-resident CTA's GEMMs (attn25's next step).
C=.carry/attention_measure; D=.carry/ncu336
W=$(mktemp -d); gunzip -c $C/tilesim-measure.gz > $W/tilesim-measure; chmod +x $W/tilesim-measure
export LD_LIBRARY_PATH=$PWD/$C:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} TILESIM_CONFIG_DIR=$PWD/configs
Q="name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu,pstate"
nvidia-smi --query-gpu=$Q --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1); $NCU --version | tail -1 >> $OUT/gpu.txt
python3 - $D/attention_ref_turn_ladder.yaml <<'PY'
import sys,yaml,os
s=yaml.safe_load(open(sys.argv[1])); os.makedirs('/tmp/one',exist_ok=True)
for w in s['workloads']:
    open(f"/tmp/one/{w['name']}.yaml",'w').write(yaml.safe_dump({'hardware':s['hardware'],'workloads':[w]}))
PY
start=$(date +%s)
for n in rtl_q336_k336_b44_h16_d64_causal rtl_q336_k336_b44_h16_d64 rtl_q672_k672_b22_h16_d64_causal rtl_q672_k672_b22_h16_d64 rtl_q336_k336_b44_h16_d128_causal rtl_q336_k336_b44_h16_d128; do
  [ $(( $(date +%s) - start )) -gt 200 ] && { echo "ncu: out of time at $n" >> $OUT/ncu.txt; break; }
  echo "==== $n" >> $OUT/ncu.txt
  timeout 60 $NCU --clock-control none -k regex:flash_forward -s 3 -c 1 \
    --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats \
    --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section InstructionStats \
    --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__warps_active.avg.per_cycle_active,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_active.min,gpu__time_duration.sum \
    $W/tilesim-measure /tmp/one/$n.yaml --warmup-ms 0 --target-ms 1 --min-runs 20 --csv /tmp/x.csv \
    2>&1 | grep -v "^==PROF==\|^tilesim" >> $OUT/ncu.txt
done
echo "ncu done in $(( $(date +%s) - start )) s"; date -u >> $OUT/gpu.txt; wc -l $OUT/ncu.txt
