// Simulator speed: how long one prediction takes. Users sweep thousands of
// points, so a prediction must take milliseconds.
//   build/bench/tilesim_bench --benchmark_filter=Gemm

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>

#include "hwmodels/hardware_loader.hpp"
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

void simulate_square_gemm(benchmark::State& state) {
  const tilesim::hw::HardwareSpec spec = h100();
  const auto registry = tilesim::workloads::builtin_gemm_schedules();
  GemmWorkload workload;
  workload.name = "bench";
  const std::int64_t size = state.range(0);
  workload.problem = {size, size, size, tilesim::hw::DataType::bf16, tilesim::hw::DataType::bf16};
  std::uint64_t events = 0;
  double time_us = 0;
  for (auto _ : state) {
    auto run = tilesim::workloads::simulate_gemm(workload, spec, registry);
    events = run.value->result.events;
    time_us = run.value->result.time_us();
    benchmark::DoNotOptimize(run);
  }
  state.counters["events"] = static_cast<double>(events);
  state.counters["events_per_s"] = benchmark::Counter(
      static_cast<double>(events), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["simulated_us"] = time_us;
}
BENCHMARK(simulate_square_gemm)->Arg(1536)->Arg(4096)->Arg(8192)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
