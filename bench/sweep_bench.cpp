// Sweep speed: a 1,000-point sweep (40 values of m x 25 of n, k = 4096, bf16,
// data-parallel) read, checked and simulated on 1 and 2 worker threads. Target:
// <= 10 s on 2 cores.
//   build/bin/tilesim_bench --benchmark_filter=sweep

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "workloads/study_runner.hpp"
#include "workloads/sweep/sweep_loader.hpp"
#include "workloads/sweep/sweep_runner.hpp"

namespace {

using tilesim::workloads::builtin_gemm_schedules;
using tilesim::workloads::GemmScheduleRegistry;
using tilesim::workloads::load_sweep_text;
using tilesim::workloads::run_sweep;
using tilesim::workloads::study_schedule_names;
using tilesim::workloads::SweepLoadOptions;
using tilesim::workloads::SweepRunOptions;
using tilesim::workloads::SweepSpec;

constexpr const char* kThousandPoints = R"(hardware: h100_sxm
workload:
  name: grid
  gemm: {m: 128, n: 256, k: 4096, dtype: bf16}
vary:
  - key: gemm.m
    range: {from: 128, to: 5120, step: 128}
  - key: gemm.n
    range: {from: 256, to: 6400, step: 256}
)";

SweepSpec load_thousand_points(int threads) {
  SweepLoadOptions options;
  options.threads = threads;
  options.config_dir = TILESIM_CONFIG_DIR;
  options.schedule_names = study_schedule_names(builtin_gemm_schedules());
  auto loaded = load_sweep_text(kThousandPoints, "bench_sweep.yaml", options);
  if (!loaded.ok()) {
    std::fputs(loaded.diagnostics.format().c_str(), stderr);
    std::exit(1);
  }
  return std::move(*loaded.value);
}

// Reading and checking every point (one study per point), then simulating them.
void sweep_1000_points(benchmark::State& state, bool approximate) {
  const GemmScheduleRegistry registry = builtin_gemm_schedules();
  SweepRunOptions options;
  options.threads = static_cast<int>(state.range(0));
  options.approximate = approximate;
  std::size_t runs = 0;
  for (auto _ : state) {
    const SweepSpec spec = load_thousand_points(options.threads);
    auto result = run_sweep(spec, registry, options);
    runs = result.value->runs.size();
    benchmark::DoNotOptimize(result);
  }
  state.counters["points"] = static_cast<double>(runs);
  state.counters["points_per_s"] =
      benchmark::Counter(static_cast<double>(runs), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK_CAPTURE(sweep_1000_points, exact, false)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1);
// The same in approximate mode (docs/model.md).
BENCHMARK_CAPTURE(sweep_1000_points, approximate, true)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1);

// Reading and checking alone.
void sweep_1000_points_validation(benchmark::State& state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(load_thousand_points(static_cast<int>(state.range(0))));
  }
}
BENCHMARK(sweep_1000_points_validation)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
