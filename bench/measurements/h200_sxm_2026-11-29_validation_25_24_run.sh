#!/bin/bash
# Held-out attention validation 25 + GEMM validation 24, measured once (H200), to be sealed unread.
C=.carry/attention_measure
Q="name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,power.draw,temperature.gpu,pstate"
nvidia-smi --query-gpu=$Q --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
export TILESIM_GIT_REVISION=$(cat .carry/study_revision)
kernels/attention/measure_on_gpu.sh --out $OUT --budget-s 330 --sdpa-warmup-ms 1000 kernels/studies/attention_validation_25.yaml > $OUT/attention_run.txt 2>&1
echo "attention rc=$?"
nvidia-smi --query-gpu=$Q --format=csv,noheader >> $OUT/gpu.txt
W=$(mktemp -d); gunzip -c $C/tilesim-measure.gz > $W/tilesim-measure; chmod +x $W/tilesim-measure
export LD_LIBRARY_PATH=$PWD/$C:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} TILESIM_CONFIG_DIR=$PWD/configs
B=$OUT/h200_sxm_$(date -u +%Y-%m-%d)_gemm_validation_24
timeout 190 $W/tilesim-measure kernels/studies/gemm_validation_24.yaml --warmup-ms 300 --target-ms 50 --min-runs 20 --csv $B.csv --json $B.json > $B.log 2>&1
echo "gemm rc=$?"
nvidia-smi --query-gpu=$Q --format=csv,noheader >> $OUT/gpu.txt; date -u >> $OUT/gpu.txt
ls -la $OUT; wc -l $OUT/*.csv
# A call returns at most eight files: everything also goes back in one archive.
tar -C $OUT -czf $OUT/all_outputs.tar.gz --exclude all_outputs.tar.gz .
