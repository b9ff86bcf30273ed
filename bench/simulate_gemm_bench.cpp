// Simulator speed: how long one prediction takes. Users sweep thousands of
// points, so a prediction must take milliseconds.
//   build/bin/tilesim_bench --benchmark_filter=gemm

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>

#include "app/cli/keep_freed_memory.hpp"
#include "hwmodels/hardware_loader.hpp"
#include "sim/engine/fluid_counts.hpp"
#include "workloads/study.hpp"
#include "workloads/study_runner.hpp"

namespace {

using tilesim::workloads::GemmWorkload;

tilesim::hw::HardwareSpec h100() {
  auto spec = tilesim::hw::load_hardware_spec(std::filesystem::path(TILESIM_CONFIG_DIR) /
                                              "hw/h100_sxm.yaml");
  if (!spec.ok()) {
    std::fputs(spec.diagnostics.format().c_str(), stderr);
    std::exit(1);
  }
  return *spec.value;
}

GemmWorkload square_bf16(std::int64_t size, const char* schedule) {
  GemmWorkload workload;
  workload.name = "bench";
  workload.problem = {size, size, size, tilesim::hw::DataType::bf16, tilesim::hw::DataType::bf16};
  workload.schedule = schedule;
  return workload;
}

// The events of the last simulation by kind: flows (CTA steps), the
// completion wakeups that end them, updates of rates run as events of their
// own, and the rest (CTA dispatches, pipeline fills, flag wakes, launches);
// `full_recomputations`: general max-min re-solves, the costly kind of update.
// Of `auto`, the winner's run alone.
void add_event_kinds(benchmark::State& state, std::uint64_t events,
                     const tilesim::sim::FluidCounts& counts) {
  state.counters["flows"] = static_cast<double>(counts.flows);
  state.counters["completion_events"] = static_cast<double>(counts.completion_events);
  state.counters["update_events"] = static_cast<double>(counts.update_events);
  state.counters["other_events"] =
      static_cast<double>(events - counts.completion_events - counts.update_events);
  state.counters["full_recomputations"] = static_cast<double>(counts.full_recomputations);
}

// Simulates one workload (through the study runner, so `auto` searches its
// candidates) and reports events and simulated time; `approximate`: in
// approximate mode (docs/model.md).
void simulate(benchmark::State& state, const GemmWorkload& workload, bool approximate = false) {
  const tilesim::hw::HardwareSpec spec = h100();
  const auto registry = tilesim::workloads::builtin_gemm_schedules();
  tilesim::workloads::Study study;
  study.workloads.emplace_back(workload);
  tilesim::gpu::SimulationOptions options;
  options.set_approximate(approximate);
  std::uint64_t events = 0;
  tilesim::sim::FluidCounts counts;
  double time_us = 0;
  for (auto _ : state) {
    auto runs = tilesim::workloads::run_study(study, spec, registry, options);
    events = runs.value->front().result.events;
    counts = runs.value->front().result.fluid_counts;
    time_us = runs.value->front().result.time_us();
    benchmark::DoNotOptimize(runs);
  }
  state.counters["events"] = static_cast<double>(events);
  state.counters["events_per_s"] = benchmark::Counter(
      static_cast<double>(events), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["simulated_us"] = time_us;
  add_event_kinds(state, events, counts);
}

void data_parallel_gemm(benchmark::State& state) {
  simulate(state, square_bf16(state.range(0), "data_parallel"));
}
BENCHMARK(data_parallel_gemm)->Arg(1536)->Arg(4096)->Arg(8192)->Unit(benchmark::kMillisecond);

void stream_k_gemm(benchmark::State& state) {
  simulate(state, square_bf16(state.range(0), "stream_k"));
}
BENCHMARK(stream_k_gemm)->Arg(1536)->Arg(8192)->Unit(benchmark::kMillisecond);

// `auto` simulates every candidate schedule and tile, then the winner again.
void auto_gemm(benchmark::State& state) {
  simulate(state, square_bf16(state.range(0), "auto"));
}
BENCHMARK(auto_gemm)->Arg(1536)->Arg(4096)->Unit(benchmark::kMillisecond);

// Issue 16's speed cases, exact and approximate: 8192^3 Stream-K, `auto`
// (1536^3 and 4096^3) and 65536^3 data-parallel (131,072 CTAs, 993 waves).
void target_stream_k_8192(benchmark::State& state) {
  simulate(state, square_bf16(8192, "stream_k"), state.range(0) != 0);
}
BENCHMARK(target_stream_k_8192)
    ->ArgName("approximate")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);

void target_auto(benchmark::State& state) {
  simulate(state, square_bf16(state.range(0), "auto"), state.range(1) != 0);
}
BENCHMARK(target_auto)
    ->ArgNames({"size", "approximate"})
    ->ArgsProduct({{1536, 4096}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

void target_data_parallel_65536(benchmark::State& state) {
  simulate(state, square_bf16(65536, "data_parallel"), state.range(0) != 0);
}
BENCHMARK(target_data_parallel_65536)
    ->ArgName("approximate")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);

}  // namespace

// BENCHMARK_MAIN, with the allocator policy of the tilesim command, so that
// the sweep cases measure what `tilesim sweep` does.
int main(int argc, char** argv) {
  tilesim::cli::keep_freed_memory();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
