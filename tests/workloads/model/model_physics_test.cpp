// The model workload on the shipped H100 config: N layers composed from three
// simulated ones match a simulation of all N; a batch-1 decode step streams
// the weights at HBM bandwidth; weight and KV-cache bytes from the published
// dimensions; the out-of-memory frontier; framework eager launches pay the
// per-op dispatch.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/support/shipped_hardware.hpp"
#include "workloads/graph/graph_gemm_choice.hpp"
#include "workloads/graph/graph_lowering.hpp"
#include "workloads/model/layer_repetition.hpp"
#include "workloads/model/model_memory.hpp"
#include "workloads/model/model_runner.hpp"
#include "workloads/study_loader.hpp"
#include "workloads/study_runner.hpp"

namespace tilesim::workloads {
namespace {

std::vector<WorkloadRun> simulate_study(const std::string& workloads_yaml,
                                        const std::vector<hw::FieldOverride>& overrides = {}) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm", overrides);
  const GemmScheduleRegistry schedules = builtin_gemm_schedules();
  config::Loaded<Study> study =
      load_study_text("hardware: h100_sxm\nworkloads:\n" + workloads_yaml, "test.yaml",
                      study_schedule_names(schedules), TILESIM_CONFIG_DIR);
  EXPECT_TRUE(study.ok()) << study.diagnostics.format();
  if (!study.ok()) return {};
  config::Loaded<std::vector<WorkloadRun>> runs = run_study(*study.value, spec, schedules);
  EXPECT_TRUE(runs.ok()) << runs.diagnostics.format();
  return runs.ok() ? *runs.value : std::vector<WorkloadRun>{};
}

double figure(const WorkloadRun& run, const std::string& key) {
  for (const WorkloadParameter& item : run.figures) {
    if (item.key != key) continue;
    if (const auto* value = std::get_if<double>(&item.value)) return *value;
    return static_cast<double>(std::get<std::int64_t>(item.value));
  }
  ADD_FAILURE() << "no figure " << key;
  return 0;
}

ModelWorkload small_model(int layers) {
  ModelWorkload model;
  model.name = "small";
  model.shape.hidden = 1024;
  model.shape.heads = 16;
  model.shape.kv_heads = 4;
  model.shape.head_dim = 64;
  model.shape.intermediate = 4096;
  model.shape.layers = layers;
  model.shape.batch = 8;
  model.shape.context = 2048;
  model.prompt_tokens = 512;
  model.vocab = 32000;
  return model;
}

// Every (phase, ops, launch): three layers extended to eight against all
// eight simulated. The extension assumes each layer after the second starts
// in the same state; this is the check that it does.
TEST(ModelPhysics, RepeatedLayersMatchSimulatingEveryLayer) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const GemmScheduleRegistry schedules = builtin_gemm_schedules();
  constexpr int kLayers = 8;
  const ModelWorkload model = small_model(kLayers);
  for (const LayerPhase phase : {LayerPhase::prefill, LayerPhase::decode}) {
    for (const LayerOps ops : {LayerOps::fused, LayerOps::unfused, LayerOps::framework}) {
      for (const gpu::LaunchMode mode : {gpu::LaunchMode::eager, gpu::LaunchMode::cuda_graph}) {
        auto simulate = [&](int layers) {
          const config::Loaded<KernelGraph> graph =
              with_chosen_gemms(model_graph(model, phase, ops, layers), spec, schedules, {});
          EXPECT_TRUE(graph.ok()) << graph.diagnostics.format();
          config::Loaded<LoweredGraph> lowered =
              lower_kernel_graph(*graph.value, mode, spec, schedules);
          EXPECT_TRUE(lowered.ok()) << lowered.diagnostics.format();
          return gpu::simulate(lowered.value->plan, spec);
        };
        const gpu::SimulationResult all = simulate(kLayers);
        RepeatedLayers repeated;
        const gpu::SimulationResult composed =
            repeat_last_layer(simulate(kSimulatedLayers), kSimulatedLayers, kLayers, repeated);
        const std::string what =
            std::string(phase == LayerPhase::prefill ? "prefill " : "decode ") + to_string(ops) +
            (mode == gpu::LaunchMode::eager ? " eager" : " graph");
        EXPECT_EQ(composed.kernels.size(), all.kernels.size()) << what;
        EXPECT_NEAR(composed.time_us(), all.time_us(), 0.005 * all.time_us()) << what;
        EXPECT_NEAR(composed.traffic().hbm_bytes(), all.traffic().hbm_bytes(),
                    0.005 * all.traffic().hbm_bytes())
            << what;
        EXPECT_NEAR(composed.sm_utilization(), all.sm_utilization(), 0.01) << what;
        EXPECT_EQ(composed.kernels.back().name, all.kernels.back().name) << what;
      }
    }
  }
}

// Batch 1 at a short context reads every weight once per token: the step
// takes at least weights / sustained HBM bandwidth, and not much more.
TEST(ModelPhysics, BatchOneDecodeStreamsTheWeightsAtHbmBandwidth) {
  const std::vector<WorkloadRun> runs = simulate_study(R"(
  - name: llama
    model: {preset: llama3_8b, phase: decode, batch: 1, context: 512}
)");
  ASSERT_EQ(runs.size(), 1u);
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const double floor_us = figure(runs[0], "weight_bytes") / spec.hbm.sustained_bytes_per_s() * 1e6;
  EXPECT_GE(runs[0].result.time_us(), floor_us);
  EXPECT_LE(runs[0].result.time_us(), 1.25 * floor_us);
  EXPECT_DOUBLE_EQ(figure(runs[0], "tpot_us"), runs[0].result.time_us());
  EXPECT_DOUBLE_EQ(figure(runs[0], "tokens_per_s"), 1e6 / runs[0].result.time_us());
}

// Llama-3-8B: 8,030,261,248 parameters (the published count), 128 KiB of K
// and V per token (2 x 32 layers x 8 heads x 128 x 2 bytes).
TEST(ModelPhysics, WeightAndKvBytesFromThePublishedDimensions) {
  const std::vector<WorkloadRun> runs = simulate_study(R"(
  - name: llama
    model: {preset: llama3_8b, phase: decode, batch: 16, context: 4096}
)");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_DOUBLE_EQ(figure(runs[0], "weight_bytes"), 2.0 * 8'030'261'248);
  EXPECT_DOUBLE_EQ(figure(runs[0], "kv_cache_bytes"), 16.0 * 4096 * 131072);
  EXPECT_DOUBLE_EQ(figure(runs[0], "memory_bytes"),
                   figure(runs[0], "weight_bytes") + figure(runs[0], "kv_cache_bytes"));
}

// (80 GB - 16.06 GB of weights) / (8192 tokens x 128 KiB) = 59.55 sequences;
// tied embeddings are counted once; Llama-3-70B's 141 GB do not fit at all.
TEST(ModelPhysics, MaxConcurrencyIsTheOutOfMemoryFrontier) {
  ModelWorkload llama = small_model(32);
  llama.shape.hidden = 4096;
  llama.shape.heads = 32;
  llama.shape.kv_heads = 8;
  llama.shape.head_dim = 128;
  llama.shape.intermediate = 14336;
  llama.vocab = 128256;
  EXPECT_EQ(max_concurrency(llama, 8192, 80e9), 59);
  const double per_sequence = 8192 * kv_cache_bytes_per_token(llama);
  EXPECT_LE(model_weight_bytes(llama) + 59 * per_sequence, 80e9);
  EXPECT_GT(model_weight_bytes(llama) + 60 * per_sequence, 80e9);
  ModelWorkload tied = llama;
  tied.tied_embeddings = true;
  EXPECT_DOUBLE_EQ(model_weight_bytes(llama) - model_weight_bytes(tied), 2.0 * 128256 * 4096);

  const std::vector<WorkloadRun> runs = simulate_study(R"(
  - name: big
    model: {preset: llama3_70b, phase: decode, batch: 1, context: 1024}
)");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_GT(figure(runs[0], "weight_bytes"), 140e9);
  EXPECT_EQ(figure(runs[0], "max_concurrency"), 0);
  // 80 layers, the last of them repeated from the third.
  EXPECT_TRUE(std::any_of(runs[0].result.kernels.begin(), runs[0].result.kernels.end(),
                          [](const gpu::KernelRecord& k) { return k.name.starts_with("L79."); }));
}

// A plain PyTorch forward launches ~46 kernels a layer; eagerly, each op
// waits for the host's dispatch, so a small decode step is host-bound at
// ops x (framework_dispatch + host_issue); as a CUDA graph it is not.
TEST(ModelPhysics, FrameworkEagerLaunchesPayTheDispatchPerOp) {
  const std::string model = R"(
  - name: llama
    model: {preset: llama3_8b, layers: 4, phase: decode, batch: 1, context: 1024,
            fused: framework, launch: compare}
)";
  const std::vector<WorkloadRun> without =
      simulate_study(model, {{"launch.framework_dispatch", "0 us"}});
  const std::vector<WorkloadRun> with =
      simulate_study(model, {{"launch.framework_dispatch", "20 us"}});
  ASSERT_EQ(with.size(), 2u);
  const double eager_us = with[0].result.time_us();
  const auto kernels = static_cast<double>(with[0].result.kernels.size());
  EXPECT_GT(kernels, 4 * 40);
  // Ops, not kernels, pay the dispatch (split-K reductions come with their GEMM).
  EXPECT_GT(eager_us, 0.8 * kernels * 20.0);
  EXPECT_LT(eager_us, kernels * (20.0 + 4.5));
  EXPECT_DOUBLE_EQ(with[1].result.time_us(), without[1].result.time_us());
  EXPECT_LT(without[0].result.time_us(), 0.5 * eager_us);
}

}  // namespace
}  // namespace tilesim::workloads
