#!/bin/bash
# Issue 12 (stop 38): why FA2's causal rows of uneven CTA lengths cost more than
# their masked turns' instructions. ncu stall reasons (per issued instruction),
# instruction-cache counters where the chip exposes them, and cycles of PyTorch
# SDPA's FLASH_ATTENTION backend on the FA2 turn ladder's calibration shapes
# (bench/measurements/h200_sxm_2026-11-28_attention_fa2_turn_ladder_sdpa.csv):
# square 256 keys at two CTAs an SM (b 66, 2112 CTAs) and at one CTA an SM
# (b 4, 128 CTAs), the one-query-block row (every CTA in lock step, one masked
# turn) and square 1024; d 64 and 128, causal and not. Calibration data only;
# no held-out shape. Run from the repo root on the device:
#   bash bench/measurements/h200_sxm_2026-11-29_attention_fa2_stalls_run.sh
Q="name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,power.draw,temperature.gpu,pstate"
nvidia-smi --query-gpu=$Q --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
$NCU --version | tail -1 >> $OUT/gpu.txt
python3 -c "import torch; print('torch', torch.__version__, torch.version.cuda)" >> $OUT/gpu.txt
$NCU --query-metrics --chip gh100 2>&1 | grep -i -E 'icc|imc|instruction_cache|inst_cache|l0i|l1i|no_instruction|branch_target' > $OUT/icache_metrics.txt
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
ICC=$(grep -o -E '^ *(sm|smsp)__[a-z0-9_]*(icc|imc)[a-z0-9_]*' $OUT/icache_metrics.txt | tr -d ' ' | sort -u | head -6 | sed 's/$/.sum/' | paste -sd,)
M=gpu__time_duration.sum,launch__grid_size,sm__ctas_launched.max,sm__cycles_active.avg,sm__cycles_active.max,smsp__inst_executed.sum,sm__warps_active.avg.per_cycle_active,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio
[ -n "$ICC" ] && M="$M,$ICC"
echo "metrics: $M" >> $OUT/gpu.txt
start=$(date +%s)
for c in "66 16 256 256" "4 16 256 256" "132 16 128 128" "17 16 1024 1024"; do
  for d in 64 128; do for causal in 0 1; do
    [ $(( $(date +%s) - start )) -gt 170 ] && { echo "ncu: out of time" >> $OUT/ncu.txt; break 3; }
    echo "==== b h q k = $c d $d causal $causal" >> $OUT/ncu.txt
    timeout 40 $NCU --clock-control none -k regex:flash_fwd -s 2 -c 1 --metrics "$M" \
      python3 /tmp/fa2_case.py $c $d $causal 2>&1 | grep -v "^==PROF==\|^==WARNING==" >> $OUT/ncu.txt
  done; done
done
echo "ncu done in $(( $(date +%s) - start )) s"; date -u >> $OUT/gpu.txt; wc -l $OUT/ncu.txt
