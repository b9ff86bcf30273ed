#!/usr/bin/env bash
# hopper25's first device call (H200): where the 1536^3 row's event time goes
# beyond its kernel's duration, and the checks of Stream-K's wave_fit mode.
#   run.sh CARRY_DIR OUT_DIR
# CARRY_DIR holds (stripped, gzip) this branch's tilesim-gemm-check and
# tilesim-gemm-launch-gap, the lead's tilesim-gemm-check
# (tilesim-gemm-check-lead), libyaml-cpp, libfmt and the SASS comparison script.
# 0. SASS of every kernel in both tilesim-gemm-check builds (each links the
#    whole kernel library), kernel by kernel: wave_fit is host code, so every
#    kernel must be the lead's;
# 1. tilesim-gemm-check --schedule stream_k/wave_fit (every tile variant, both
#    fixups, fresh random data against cuBLAS); compute-sanitizer memcheck and
#    racecheck on its small cases;
# 2. tilesim-gemm-launch-gap (kernels/microbench/gemm_launch_gap.cu): event
#    chains, graph chains, host enqueue, empty kernels of our launch;
# 3. ncu (gpu__time_duration, --clock-control none) over 30 launches of each
#    of its cases, L2 flushed before each (ncu's default) and not.
set -u
carry=$(cd "$1" && pwd)
out=$2
w=$out/w
mkdir -p "$w" "$carry/bin"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="$carry/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for f in "$carry"/bin-gz/*.gz; do gunzip -c "$f" >"$carry/bin/$(basename "$f" .gz)"; done
chmod +x "$carry"/bin/*
date -u +"start %FT%TZ" | tee "$w/timeline.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,pstate,temperature.gpu \
  --format=csv | tee "$w/nvidia_smi_before.csv"
(cuobjdump -sass "$carry/bin/tilesim-gemm-check-lead" >/tmp/sass_lead.txt 2>&1
 cuobjdump -sass "$carry/bin/tilesim-gemm-check" >/tmp/sass_new.txt 2>&1
 python3 "$carry/sass_compare.py" /tmp/sass_lead.txt /tmp/sass_new.txt >"$w/sass_compare.txt" 2>&1) &
check=$carry/bin/tilesim-gemm-check
timeout 200 "$check" --schedule stream_k/wave_fit >"$w/check_wave_fit.log" 2>&1 &
sanitize() {  # NAME TOOL ARGS...
  local name=$1 tool=$2
  shift 2
  timeout 200 compute-sanitizer --tool "$tool" --error-exitcode 9 "$check" --small "$@" \
    >"$w/sanitizer_$name.log" 2>&1
  echo "exit $?" >>"$w/sanitizer_$name.log"
}
sanitize memcheck_wave_fit memcheck --schedule stream_k/wave_fit &
sanitize racecheck_wave_fit racecheck --schedule stream_k/wave_fit &
wait
date -u +"checks done %FT%TZ" | tee -a "$w/timeline.txt"
head -3 "$w/sass_compare.txt"
echo "check: $(tail -1 "$w/check_wave_fit.log")"
grep -h FAIL "$w"/check_*.log | head -20
for f in "$w"/sanitizer_*.log; do echo "$(basename "$f"): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$f" | tail -1) $(tail -1 "$f")"; done
gap=$carry/bin/tilesim-gemm-launch-gap
timeout 150 "$gap" >"$w/gap.csv" 2>"$w/gap.err"
echo "gap exit $?"
date -u +"gap done %FT%TZ" | tee -a "$w/timeline.txt"
timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv "$gap" --launches 30 \
  >"$w/ncu_flush.csv" 2>"$w/ncu_flush.err"
echo "ncu flush exit $?"
timeout 120 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv \
  "$gap" --launches 30 >"$w/ncu_noflush.csv" 2>"$w/ncu_noflush.err"
echo "ncu noflush exit $?"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv | tee "$w/nvidia_smi_after.csv"
date -u +"end %FT%TZ" | tee -a "$w/timeline.txt"
cat "$w/gap.csv"
tar -czf "$out/results.tgz" -C "$out" w
