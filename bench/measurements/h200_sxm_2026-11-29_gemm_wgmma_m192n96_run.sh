#!/usr/bin/env bash
# hopper24's device call (H200): the 192x96 cluster variant.
#   run.sh CARRY_DIR OUT_DIR
# CARRY_DIR holds (stripped, gzip) hopper24's tilesim-measure and
# tilesim-gemm-check, the lead's tilesim-measure (tilesim-measure-lead),
# libyaml-cpp, libfmt, studies/, this branch's configs/ (the new profile) and
# the SASS comparison script (the device's checkout is the session's, not this
# branch).
# 0. SASS of every kernel in both tilesim-measure builds, compared kernel by
#    kernel (..._sass_compare.py): the lead's kernels must be unchanged;
# 1. tilesim-gemm-check --tile m192n96k64_w16_s4_wgmma_tma_store_c2 (every
#    schedule, fixup, Stream-K mode and type; fresh random data vs cuBLAS;
#    the other variants' kernels are checked by step 0); compute-sanitizer memcheck on the new variant's
#    small cases (every schedule) and racecheck on its Stream-K and split-K;
# 2. kernels/studies/gemm_wgmma_m192n96.yaml, ROUNDS rounds (default 4), one
#    process each, the rows in study order in odd rounds, reversed in even.
set -u
carry=$(cd "$1" && pwd)
out=$2
rounds=${ROUNDS:-4}
w=$out/w
mkdir -p "$w" "$carry/bin"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="$carry/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TILESIM_CONFIG_DIR=$carry/configs
for f in "$carry"/bin-gz/*.gz; do gunzip -c "$f" >"$carry/bin/$(basename "$f" .gz)"; done
chmod +x "$carry"/bin/*
date -u +"start %FT%TZ" | tee "$w/timeline.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,pstate,temperature.gpu \
  --format=csv | tee "$w/nvidia_smi_before.csv"
cuobjdump -sass "$carry/bin/tilesim-measure-lead" >/tmp/sass_lead.txt 2>&1
cuobjdump -sass "$carry/bin/tilesim-measure" >/tmp/sass_new.txt 2>&1
python3 "$carry/sass_compare.py" \
  /tmp/sass_lead.txt /tmp/sass_new.txt >"$w/sass_compare.txt" 2>&1
head -12 "$w/sass_compare.txt"
grep -c HGMMA.64x96x16 /tmp/sass_new.txt
check=$carry/bin/tilesim-gemm-check
new=m192n96k64_w16_s4_wgmma_tma_store_c2
variants=($new)
for v in "${variants[@]}"; do
  timeout 150 "$check" --tile "$v" >"$w/check_$v.log" 2>&1 &
done
sanitize() {  # NAME TOOL ARGS...
  local name=$1 tool=$2
  shift 2
  timeout 150 compute-sanitizer --tool "$tool" --error-exitcode 9 "$check" --small "$@" \
    >"$w/sanitizer_$name.log" 2>&1
  echo "exit $?" >>"$w/sanitizer_$name.log"
}
sanitize memcheck_new memcheck --tile $new &
sanitize racecheck_new_sk racecheck --tile $new --schedule stream_k &
sanitize racecheck_new_split_k racecheck --tile $new --schedule split_k_serial &
wait
date -u +"checks done %FT%TZ" | tee -a "$w/timeline.txt"
for v in "${variants[@]}"; do echo "$v: $(tail -1 "$w/check_$v.log")"; done
grep -h FAIL "$w"/check_*.log | head -20
for f in "$w"/sanitizer_*.log; do echo "$(basename "$f"): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$f" | tail -1) $(tail -1 "$f")"; done

study=$carry/studies/gemm_wgmma_m192n96.yaml
{ sed -n '1,/^workloads:/p' "$study"; grep '^  - ' "$study" | tac; } >"$w/study_reversed.yaml"
opts=(--warmup-ms 150 --target-ms 40 --min-runs 30)
for r in $(seq 1 "$rounds"); do
  if ((r % 2)); then s=$study; else s=$w/study_reversed.yaml; fi
  date -u +"round $r %FT%TZ" >>"$w/timeline.txt"
  timeout 150 "$carry/bin/tilesim-measure" "$s" "${opts[@]}" \
    --csv "$w/study_r$r.csv" --json "$w/study_r$r.json" >"$w/study_r$r.log" 2>&1
  echo "round $r exit $?"
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv | tee "$w/nvidia_smi_after.csv"
date -u +"end %FT%TZ" | tee -a "$w/timeline.txt"
for f in "$w"/study_r*.csv; do cut -d, -f1,12,27,31 "$f" | tail -n +2 | sed "s|^|$(basename "$f" .csv) |"; done
tar -czf "$out/results.tgz" -C "$out" w
