#!/usr/bin/env bash
# Fuzzes one target of the fuzz preset's build, with the options every run
# shares (ctest's short runs and the long runs of docs/fuzzing.md):
#
#   tests/fuzz/run_fuzzer.sh BUILD_DIR TARGET [libFuzzer options...]
#   tests/fuzz/run_fuzzer.sh build-fuzz study_yaml -max_total_time=30
#   nice -n 19 tests/fuzz/run_fuzzer.sh build-fuzz study_yaml -runs=1000000
#
# Reads the seeds (BUILD_DIR/tests/fuzz/seeds/TARGET) and the committed
# regression inputs (tests/fuzz/regressions/TARGET); new inputs go to
# BUILD_DIR/tests/fuzz/corpus/TARGET, a crash to BUILD_DIR/tests/fuzz/artifacts/TARGET/.
# -timeout and -rss_limit_mb: an accepted input predicts in < 10 s and < 2 GiB
# in a release build (docs/limits.md); ASan, UBSan and coverage make a run
# about 3x slower and add shadow memory and a quarantine.
set -euo pipefail
if [ "$#" -lt 2 ]; then
  echo "usage: $0 BUILD_DIR TARGET [libFuzzer options...]" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
target=$2
shift 2
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
fuzz_build=$build/tests/fuzz
corpus=$fuzz_build/corpus/$target
artifacts=$fuzz_build/artifacts/$target
mkdir -p "$corpus" "$artifacts"
inputs=("$corpus" "$fuzz_build/seeds/$target")
if [ -d "$source_dir/tests/fuzz/regressions/$target" ]; then
  inputs+=("$source_dir/tests/fuzz/regressions/$target")
fi
# -max_len: reading an input costs about its length (a CSV row, a workload or a
# sweep point is a YAML document of its own), and the longest seeds (64 KB
# measurement files, 350-workload studies) ran at a few inputs per second.
# 4 KB holds a few dozen rows, workloads or points; a hardware file is whole
# in 8 KB. libFuzzer cuts longer seeds to it. A later -max_len overrides it.
max_len=4096
if [ "$target" = hardware_yaml ]; then max_len=8192; fi
cd "$source_dir"  # studies name hardware files relative to the working directory
exec "$build/bin/${target}_fuzzer" -timeout=30 -rss_limit_mb=3072 -malloc_limit_mb=2048 \
  -max_len="$max_len" -dict="$fuzz_build/tilesim.dict" -artifact_prefix="$artifacts/" \
  -print_final_stats=1 "$@" "${inputs[@]}"
