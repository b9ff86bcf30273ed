#!/usr/bin/env bash
# Measure an attention study on a lent GPU in one call: our kernels with
# tilesim-measure (built here, carried) and the library rows with PyTorch SDPA
# (kernels/attention/sdpa_measure.py), into dated CSV + JSON files.
#
# Here, once (copies tilesim-measure, gzipped, and the shared libraries it
# needs that the device lacks into the carry folder; about 10 MB):
#   kernels/attention/measure_on_gpu.sh --stage [--bin build/bin]
# On the device (from the repo root; carry: [".carry/attention_measure"]):
#   kernels/attention/measure_on_gpu.sh --out "$OUT" [STUDY.yaml]
#
#   STUDY.yaml   default kernels/studies/attention_validation_2.yaml
#   --out DIR    where the files go (default bench/measurements/run-<date>)
#   --budget-s S wall-clock budget of both steps together (default 450): SDPA
#                gets at most a third, tilesim-measure the rest; a step cut by
#                its limit keeps the rows it timed (its JSON says complete: false
#                or stopped_early)
#   --target-ms  GPU time spent timing each workload (default 100)
#   --sdpa-warmup-ms MS  SDPA's warm-up per row (default 50, as validation 2
#                was measured; 1000 = tilesim-measure's sustained warm-up, so
#                the board's power law holds for SDPA's rows too)
# Files: <gpu>_<date>_<study>_ref.{csv,json} (tilesim-measure),
#        <gpu>_<date>_<study>_sdpa.{csv,json} (SDPA), <gpu>_<date>_<study>.log,
#        nvidia_smi.csv; <gpu> is h100_sxm or h200_sxm from nvidia-smi.
# Exit status: non-zero when a step failed or was cut by its limit.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
carry="$repo/.carry/attention_measure"
study="$repo/kernels/studies/attention_validation_2.yaml"
out_dir="$repo/bench/measurements/run-$(date -u +%Y-%m-%d)"
bin_dir="$repo/build/bin"
budget_s=450
target_ms=100
sdpa_warmup_ms=50
stage=0
while (($#)); do
  case "$1" in
    --stage) stage=1; shift ;;
    --bin) bin_dir=$2; shift 2 ;;
    --out) out_dir=$2; shift 2 ;;
    --budget-s) budget_s=$2; shift 2 ;;
    --target-ms) target_ms=$2; shift 2 ;;
    --sdpa-warmup-ms) sdpa_warmup_ms=$2; shift 2 ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    -*) echo "measure_on_gpu.sh: unknown option $1" >&2; exit 2 ;;
    *) study=$1; shift ;;
  esac
done

if ((stage)); then
  [[ -x "$bin_dir/tilesim-measure" ]] || {
    echo "measure_on_gpu.sh: no $bin_dir/tilesim-measure (cmake --build build --target tilesim-measure)" >&2
    exit 2
  }
  mkdir -p "$carry"
  strip -o "$carry/tilesim-measure" "$bin_dir/tilesim-measure"
  gzip -f "$carry/tilesim-measure"
  # The device has CUDA (cuBLAS, cudart) but not Debian's yaml-cpp and fmt.
  ldd "$bin_dir/tilesim-measure" | awk '/libyaml-cpp|libfmt/ { print $3 }' \
    | xargs -r cp -L -t "$carry"
  echo "$bin_dir/tilesim-measure of $(date -u -r "$bin_dir/tilesim-measure" +%FT%TZ), staged at $(git -C "$repo" rev-parse --short=12 HEAD)" \
    >"$carry/binary_revision"
  du -sh "$carry"
  exit 0
fi

[[ -f "$carry/tilesim-measure.gz" ]] || {
  echo "measure_on_gpu.sh: $carry/tilesim-measure.gz missing: run --stage here first and carry .carry/attention_measure" >&2
  exit 2
}
mkdir -p "$out_dir"
started=$SECONDS
work=$(mktemp -d)
gunzip -c "$carry/tilesim-measure.gz" >"$work/tilesim-measure"
chmod +x "$work/tilesim-measure"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="$carry:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TILESIM_CONFIG_DIR="$repo/configs"
export TILESIM_GIT_REVISION="${TILESIM_GIT_REVISION:-$(git -C "$repo" rev-parse HEAD 2>/dev/null || echo unknown)}"

gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu_name" in
  *H200*) gpu=h200_sxm ;;
  *H100*) gpu=h100_sxm ;;
  *) gpu=$(echo "$gpu_name" | tr 'A-Z ' 'a-z_') ;;
esac
base="$out_dir/${gpu}_$(date -u +%Y-%m-%d)_$(basename "$study" .yaml)"
log="$base.log"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,pstate \
  --format=csv | tee "$out_dir/nvidia_smi.csv"
echo "== $(date -u +%FT%TZ) $study on $gpu_name, tilesim-measure from $(cat "$carry/binary_revision" 2>/dev/null), checkout $TILESIM_GIT_REVISION" | tee "$log"
status=0

sdpa_budget=$((budget_s / 3))
echo "== SDPA (budget ${sdpa_budget} s)" | tee -a "$log"
timeout $((sdpa_budget + 30)) python3 "$repo/kernels/attention/sdpa_measure.py" "$study" \
  --csv "${base}_sdpa.csv" --json "${base}_sdpa.json" --target-ms "$target_ms" \
  --warmup-ms "$sdpa_warmup_ms" --time-budget-s "$sdpa_budget" >>"$log" 2>&1 || { status=$?; echo "SDPA exit $status" | tee -a "$log"; }
echo "== SDPA done after $((SECONDS - started)) s" | tee -a "$log"

measure_s=$((budget_s - (SECONDS - started)))
echo "== tilesim-measure (limit ${measure_s} s)" | tee -a "$log"
timeout "$measure_s" "$work/tilesim-measure" "$study" --skip-unsupported --target-ms "$target_ms" \
  --csv "${base}_ref.csv" --json "${base}_ref.json" >>"$log" 2>&1 \
  || { status=$?; echo "tilesim-measure exit $status" | tee -a "$log"; }
rows() { [[ -f "$1" ]] && echo $(($(wc -l <"$1") - 1)) || echo 0; }
echo "== done after $((SECONDS - started)) s: $(rows "${base}_ref.csv") own rows, $(rows "${base}_sdpa.csv") SDPA rows" | tee -a "$log"
rm -rf "$work"
exit "$status"
