#!/bin/bash
# Round 25 (attn25): our mma.sync flash kernel's turn ladder, a calibration microbenchmark, and ncu of three of its rows, H200.
D=.carry/attn25
python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('$D/tilesim-measure.xz'),open('$D/tilesim-measure','wb'))" || exit 1
chmod +x $D/tilesim-measure
export TILESIM_CONFIG_DIR=$PWD/configs TILESIM_GIT_REVISION=c607e7c
export LD_LIBRARY_PATH=$PWD/$D:$LD_LIBRARY_PATH
ldd $D/tilesim-measure | grep "not found" && exit 1
Q="name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,power.draw,temperature.gpu,pstate"
nvidia-smi --query-gpu=$Q --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
S=$D/attention_ref_turn_ladder.yaml
timeout 150 $D/tilesim-measure $S --warmup-ms 150 --target-ms 60 \
  --csv $OUT/h200_sxm_2026-11-28_attention_ref_turn_ladder_ref.csv > $OUT/measure.log 2>&1
echo "measure rc=$?"; wc -l $OUT/*.csv; tail -4 $OUT/measure.log
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
for n in rtl_q128_k64_b132_h16_d64 rtl_q128_k640_b132_h16_d64 rtl_q128_k192_b132_h16_d64_causal rtl_q128_k192_b132_h16_d64; do
  [ $(( $(date +%s) - start )) -gt 90 ] && { echo "ncu: out of time at $n" >> $OUT/ncu.txt; break; }
  echo "==== $n" >> $OUT/ncu.txt
  timeout 45 $NCU --clock-control none -k regex:flash_forward -s 3 -c 1 \
    --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats \
    --section SchedulerStats --section MemoryWorkloadAnalysis --section InstructionStats \
    $D/tilesim-measure /tmp/one/$n.yaml --warmup-ms 0 --target-ms 1 --min-runs 20 --csv /tmp/x.csv \
    2>&1 | grep -v "^==PROF==\|^tilesim" >> $OUT/ncu.txt
done
echo "ncu done in $(( $(date +%s) - start )) s"; date -u >> $OUT/gpu.txt
wc -l $OUT/ncu.txt
