#!/bin/bash
# Issue 12 (stop 36): ncu instruction and pipe counts of FlashAttention-2 (PyTorch
# SDPA's FLASH_ATTENTION backend) on the FA2 turn ladder's calibration shapes
# (bench/measurements/h200_sxm_2026-11-28_attention_fa2_turn_ladder_sdpa.csv), one
# labelled ncu report per case, for FA2's fixed and per-turn work (as round 25 did
# for our kernel). Calibration data only; no held-out shape.
Q="name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,power.draw,temperature.gpu,pstate"
nvidia-smi --query-gpu=$Q --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
$NCU --version | tail -1 >> $OUT/gpu.txt
python3 -c "import torch; print('torch', torch.__version__, torch.version.cuda)" >> $OUT/gpu.txt
cat > /tmp/fa2_case.py <<'PY'
import sys, torch
import torch.nn.functional as F
from torch.nn.attention import sdpa_kernel, SDPBackend
b, h, q, k, d, causal = (int(x) for x in sys.argv[1:7])
g = torch.Generator(device="cuda").manual_seed(1)
Q = torch.randn(b, h, q, d, device="cuda", dtype=torch.bfloat16, generator=g)
K = torch.randn(b, h, k, d, device="cuda", dtype=torch.bfloat16, generator=g)
V = torch.randn(b, h, k, d, device="cuda", dtype=torch.bfloat16, generator=g)
with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
    for _ in range(3):
        F.scaled_dot_product_attention(Q, K, V, is_causal=bool(causal))
torch.cuda.synchronize()
PY
M=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__ctas_launched.max,sm__cycles_active.avg,sm__cycles_active.max,smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__warps_active.avg.per_cycle_active
start=$(date +%s)
# b h q k d causal: one query block (q 128) at 128/512/2048 keys, square 256 and 1024, d 64 and 128
for c in "132 16 128 128" "132 16 128 512" "132 16 128 2048" "66 16 256 256" "17 16 1024 1024"; do
  for d in 64 128; do for causal in 0 1; do
    [ $(( $(date +%s) - start )) -gt 200 ] && { echo "ncu: out of time" >> $OUT/ncu.txt; break 3; }
    echo "==== b h q k = $c d $d causal $causal" >> $OUT/ncu.txt
    timeout 40 $NCU --clock-control none -k regex:flash_fwd -s 2 -c 1 --section WarpStateStats --metrics $M \
      python3 /tmp/fa2_case.py $c $d $causal 2>&1 | grep -v "^==PROF==\|^==WARNING==" >> $OUT/ncu.txt
  done; done
done
echo "ncu done in $(( $(date +%s) - start )) s"; date -u >> $OUT/gpu.txt; wc -l $OUT/ncu.txt
