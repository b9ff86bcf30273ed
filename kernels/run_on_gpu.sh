#!/usr/bin/env bash
# Build the reference kernels and tilesim-measure for Hopper, check every GEMM
# schedule against cuBLAS and every attention variant against a float64
# reference, and measure studies — one command on a GPU machine:
#
#   kernels/run_on_gpu.sh [--out DIR] [--build-dir DIR] [--prebuilt BIN_DIR]
#                         [--sanitize] [--sass] [--no-check] [STUDY.yaml ...]
#
#   STUDY.yaml   studies to measure (default: kernels/studies/gemm_ref_vs_cublas.yaml)
#   --out        where CSV/JSON/logs go (default: bench/measurements/run-<date>)
#   --build-dir  CMake build directory (default: build-gpu)
#   --prebuilt   skip configure/build; use tilesim-gemm-check, tilesim-attention-check
#                (when present) and tilesim-measure from BIN_DIR
#   --sanitize   also run compute-sanitizer (memcheck, initcheck, synccheck, racecheck) on the
#                checkers' small and odd cases: every GEMM schedule and tile variant, every
#                attention variant (one log per tool and checker)
#   --sass       also write a per-kernel SASS summary (HMMA, HGMMA, LDSM, TMA, spills)
#   --ncu        also profile one 4096^3 launch per tile variant with Nsight Compute
#                (tensor-pipe activity, bank conflicts, L2/DRAM throughput;
#                --clock-control none: the clocks stay as they are)
#   --variants   also measure kernels/studies/gemm_tile_variants.yaml per tile variant
#   --no-check   skip the correctness test
#   --no-measure measure no study (e.g. with --sanitize alone)
# TILESIM_STEP_TIMEOUT=SECONDS bounds each check and measurement (e.g. on a leased machine).
# Exit status: non-zero when the build, the check or a measurement fails.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="$repo/build-gpu"
out_dir="$repo/bench/measurements/run-$(date -u +%Y-%m-%d)"
prebuilt=""
sanitize=0
sass=0
ncu=0
variants=0
check=1
measure=1
studies=()
while (($#)); do
  case "$1" in
    --out) out_dir=$2; shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    --prebuilt) prebuilt=$2; shift 2 ;;
    --sanitize) sanitize=1; shift ;;
    --sass) sass=1; shift ;;
    --ncu) ncu=1; shift ;;
    --variants) variants=1; shift ;;
    --no-check) check=0; shift ;;
    --no-measure) measure=0; shift ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) studies+=("$1"); shift ;;
  esac
done
((${#studies[@]} || !measure)) || studies=("$repo/kernels/studies/gemm_ref_vs_cublas.yaml")
mkdir -p "$out_dir"
export PATH="/usr/local/cuda/bin:$PATH"
export TILESIM_CONFIG_DIR="${TILESIM_CONFIG_DIR:-$repo/configs}"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
limit=()
[[ -n "${TILESIM_STEP_TIMEOUT:-}" ]] && limit=(timeout "$TILESIM_STEP_TIMEOUT")
status=0

echo "== GPU"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,pstate \
  --format=csv | tee "$out_dir/nvidia_smi.csv" || echo "(nvidia-smi unavailable)"

if [[ -n "$prebuilt" ]]; then
  bin_dir=$prebuilt
else
  echo "== build ($build_dir)"
  cmake -S "$repo" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES=90a -DTILESIM_BUILD_TESTS=ON -DTILESIM_BUILD_BENCH=OFF
  cmake --build "$build_dir" --target tilesim-gemm-check tilesim-attention-check tilesim-measure \
    tilesim-device-info tilesim-mma-peak
  bin_dir="$build_dir/bin"
fi
if [[ -x "$bin_dir/tilesim-device-info" ]]; then
  "$bin_dir/tilesim-device-info" | tee "$out_dir/device_info.json"
fi
if [[ -x "$bin_dir/tilesim-mma-peak" ]]; then
  echo "== mma.sync ceiling (register-only)"
  "$bin_dir/tilesim-mma-peak" | tee "$out_dir/mma_peak.json"
fi

if ((sass)) && command -v cuobjdump >/dev/null; then
  echo "== SASS per kernel (instruction counts)"
  cuobjdump -sass "$bin_dir/tilesim-measure" | awk '
    /Function :/ { name = $3 }
    / HMMA/ { hmma[name]++; seen[name] = 1 } /HGMMA/ { hgmma[name]++; seen[name] = 1 }
    /LDSM/ { ldsm[name]++ } /LDGSTS/ { ldgsts[name]++ } /UTMALDG/ { tma[name]++ }
    /LDL|STL/ { spill[name]++ } /BAR.SYNC/ { bar[name]++ }
    END { printf "%6s %6s %6s %6s %6s %6s %5s  %s\n", "HMMA", "HGMMA", "LDSM", "LDGSTS", "TMA",
                 "LDL/STL", "BAR", "kernel"
          for (n in seen) printf "%6d %6d %6d %6d %6d %6d %5d  %s\n", hmma[n], hgmma[n], ldsm[n],
                                 ldgsts[n], tma[n], spill[n], bar[n], n }' \
    | tee "$out_dir/sass_summary.txt"
fi

if ((check)); then
  echo "== correctness: every schedule and fixup against cuBLAS"
  "${limit[@]}" "$bin_dir/tilesim-gemm-check" 2>&1 | tee "$out_dir/gemm_check.log" || status=1
  if [[ -x "$bin_dir/tilesim-attention-check" ]]; then
    echo "== correctness: every attention variant against a float64 reference"
    "${limit[@]}" "$bin_dir/tilesim-attention-check" 2>&1 | tee "$out_dir/attention_check.log" \
      || status=1
  fi
fi

if ((sanitize)); then
  echo "== compute-sanitizer on small and odd cases (every GEMM schedule and tile, every attention variant)"
  # One log per tool and checker; a finding or a hang fails that step alone.
  sanitize_step() {  # NAME TOOL CHECKER [ARGS...]
    local name=$1 tool=$2 checker=$3
    shift 3
    local log="$out_dir/sanitizer_$name.log"
    if "${limit[@]}" compute-sanitizer --tool "$tool" --error-exitcode 9 "$bin_dir/$checker" \
      --small "$@" >"$log" 2>&1; then
      echo "$name: clean ($(grep -cE '^ *ok ' "$log") cases)"
    else
      status=1
      echo "$name: FAILED (see $log)"
      tail -20 "$log"
    fi
  }
  for tool in memcheck initcheck synccheck; do
    sanitize_step "gemm_$tool" "$tool" tilesim-gemm-check
  done
  # racecheck per schedule family, so that one family's inter-CTA waits
  # (split-K and Stream-K fixups) cannot hide another's result.
  for schedule in data_parallel split_k_serial split_k_parallel stream_k; do
    sanitize_step "gemm_racecheck_$schedule" racecheck tilesim-gemm-check --schedule "$schedule"
  done
  if [[ -x "$bin_dir/tilesim-attention-check" ]]; then
    for tool in memcheck initcheck synccheck racecheck; do
      sanitize_step "attention_$tool" "$tool" tilesim-attention-check
    done
  fi
fi

tile_variants=(m128n128k32_w8_s4 m128n128k32_w4_s4 m256n128k64_w8_s3 m256n128k64_w8_s4
  m128n256k32_w8_s4 m128n256k64_w12_s4_wgmma m128n256k64_w12_s4_wgmma_tma_store)
if ((ncu)) && command -v ncu >/dev/null; then
  echo "== Nsight Compute, one 4096^3 launch per tile variant"
  metrics=sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
  metrics+=,sm__inst_executed_pipe_tensor_op_hmma.sum,smsp__inst_executed.sum
  metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,lts__t_bytes.sum.per_second
  metrics+=,dram__bytes.sum.per_second,sm__warps_active.avg.pct_of_peak_sustained_active
  metrics+=,smsp__average_warp_latency_issue_stalled_barrier,gpu__time_duration.sum
  metrics+=,smsp__average_warp_latency_issue_stalled_short_scoreboard
  metrics+=,smsp__average_warp_latency_issue_stalled_mio_throttle
  metrics+=,smsp__average_warp_latency_issue_stalled_math_pipe_throttle
  metrics+=,smsp__average_warp_latency_issue_stalled_long_scoreboard
  for v in "${tile_variants[@]}"; do
    "${limit[@]}" ncu --clock-control none --kernel-name regex:gemm_kernel --launch-count 1 \
      --metrics "$metrics" --csv "$bin_dir/tilesim-measure" \
      "$repo/kernels/studies/ncu_square_4096.yaml" --csv "$out_dir/ncu_run.csv" \
      --tile-variant "$v" --min-runs 20 --target-ms 1 >"$out_dir/ncu_$v.csv" 2>&1 || status=1
    echo "$v"; grep -E '"(sm__pipe|l1tex__data_bank|lts__t_bytes|dram__bytes|gpu__time)' \
      "$out_dir/ncu_$v.csv" | awk -F'","' '{print "   " $(NF-2) " = " $NF}' | tr -d '"'
  done
fi

if ((variants)); then
  for v in "${tile_variants[@]}"; do
    echo "== tile variant $v"
    "${limit[@]}" "$bin_dir/tilesim-measure" "$repo/kernels/studies/gemm_tile_variants.yaml" \
      --tile-variant "$v" --csv "$out_dir/variants_$v.csv" --json "$out_dir/variants_$v.json" \
      || status=$?
  done
fi

for study in "${studies[@]}"; do
  name=$(basename "$study" .yaml)
  echo "== measure $study"
  "${limit[@]}" "$bin_dir/tilesim-measure" "$study" --csv "$out_dir/$name.csv" --json "$out_dir/$name.json" \
    || status=$?
done
echo "== results in $out_dir"
exit "$status"
