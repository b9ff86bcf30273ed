#!/bin/bash
# Second pass: ncu on the four small workloads whose first 36 kernels were all input fills.
D=.carry/cublas_unal
python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('$D/tilesim-measure.xz'),open('$D/tilesim-measure','wb'))" || exit 1
chmod +x $D/tilesim-measure
export TILESIM_CONFIG_DIR=$PWD/configs
export LD_LIBRARY_PATH=$PWD/$D:$LD_LIBRARY_PATH
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
python3 - $D/gemm_cublas_unaligned_calibration.yaml <<'PY'
import sys,yaml,os
s=yaml.safe_load(open(sys.argv[1]))
os.makedirs('/tmp/one',exist_ok=True)
for w in s['workloads']:
    if w['name'] in ('ucal_unal2_1001x1003x1025_cublas','ucal_unal2_1001x1003x257_cublas','ucal_unal8_1004x1012x1028_cublas','ucal_unal8_1004x1012x260_cublas'):
        open(f"/tmp/one/{w['name']}.yaml",'w').write(yaml.safe_dump({'hardware':s['hardware'],'workloads':[w]}))
PY
for y in /tmp/one/*.yaml; do
  n=$(basename $y .yaml)
  timeout 60 $NCU --clock-control none --cache-control none --csv \
    --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread \
    -k 'regex:gemm|Kernel2|splitK|nvjet|xmma' -s 10 -c 16 $D/tilesim-measure $y --warmup-ms 0 --target-ms 1 --min-runs 20 --csv /tmp/x.csv \
    > /tmp/ncu_$n.txt 2>> $OUT/ncu_errors.txt
  echo "== $n rc=$?" >> $OUT/ncu_raw.csv; grep '^"' /tmp/ncu_$n.txt >> $OUT/ncu_raw.csv
done
wc -l $OUT/ncu_raw.csv; tail -3 $OUT/ncu_errors.txt
