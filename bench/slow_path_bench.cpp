// Simulator speed on the fluid model's slow path: many CTAs per SM contend for
// several resources full at once, so every flow start or end re-solves the
// rates by progressive filling (sim/engine/fluid_network.hpp, docs/limits.md).
//   build/bin/tilesim_bench --benchmark_filter=slow_path

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "hwmodels/hardware_loader.hpp"
#include "workloads/study_loader.hpp"
#include "workloads/study_runner.hpp"

namespace {

// Our unfused causal attention, 4 x 32 heads x 2500 keys (attention validation
// 2's slowest row; its softmax runs a CTA per row): ~880 flows in each
// re-solve, ~64 rounds of filling.
constexpr const char* kUnfusedCausal = R"(hardware: h100_sxm
workloads:
  - name: unfused_causal_2500
    attention: {batch: 4, heads: 32, q_len: 2500, kv_len: 2500, head_dim: 128, causal: true, dtype: bf16}
    variant: unfused
    kernel: tilesim_ref
)";

// A Llama-3-8B decode layer at batch 2048: split-K decode GEMMs with a dozen
// CTAs per SM; few rounds, most flows freeze on a resource.
constexpr const char* kDecodeLayer = R"(hardware: h100_sxm
workloads:
  - name: decode_layer_2048
    layer: {phase: decode, hidden: 4096, heads: 32, kv_heads: 8, head_dim: 128, intermediate: 14336, batch: 2048, context: 4096, fused: true, launch: eager}
)";

void simulate_study(benchmark::State& state, const char* text) {
  const std::filesystem::path config_dir(TILESIM_CONFIG_DIR);
  const auto registry = tilesim::workloads::builtin_gemm_schedules();
  auto study =
      tilesim::workloads::load_study_text(text, "slow_path_bench", registry.names(), config_dir);
  auto spec = tilesim::hw::load_hardware_spec(config_dir / "hw/h100_sxm.yaml");
  if (!study.ok() || !spec.ok()) {
    std::fputs(study.diagnostics.format().c_str(), stderr);
    std::fputs(spec.diagnostics.format().c_str(), stderr);
    std::exit(1);
  }
  std::uint64_t events = 0;
  std::uint64_t recomputations = 0;
  for (auto _ : state) {
    auto runs = tilesim::workloads::run_study(*study.value, *spec.value, registry, {});
    if (!runs.ok()) {
      std::fputs(runs.diagnostics.format().c_str(), stderr);
      std::exit(1);
    }
    events = runs.value->front().result.events;
    recomputations = runs.value->front().result.fluid_counts.full_recomputations;
    benchmark::DoNotOptimize(runs);
  }
  state.counters["events"] = static_cast<double>(events);
  state.counters["full_recomputations"] = static_cast<double>(recomputations);
}

void slow_path_unfused_causal_attention(benchmark::State& state) {
  simulate_study(state, kUnfusedCausal);
}
BENCHMARK(slow_path_unfused_causal_attention)->Unit(benchmark::kSecond)->Iterations(1);

void slow_path_decode_layer(benchmark::State& state) {
  simulate_study(state, kDecodeLayer);
}
BENCHMARK(slow_path_decode_layer)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
