// Kernel graphs on the shipped H100 config, from study YAML: launch-bound
// chains, streams that overlap, dependencies across streams, fusion that
// removes an intermediate's HBM round trip, and the decoder-layer preset.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/gpu/gpu_idle_time.hpp"
#include "tests/support/shipped_hardware.hpp"
#include "workloads/study_loader.hpp"
#include "workloads/study_runner.hpp"

namespace tilesim::workloads {
namespace {

std::vector<WorkloadRun> simulate_study(const std::string& workloads_yaml,
                                        const std::vector<hw::FieldOverride>& overrides = {}) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm", overrides);
  const GemmScheduleRegistry schedules = builtin_gemm_schedules();
  config::Loaded<Study> study = load_study_text("hardware: h100_sxm\nworkloads:\n" + workloads_yaml,
                                                "test.yaml", study_schedule_names(schedules));
  EXPECT_TRUE(study.ok()) << study.diagnostics.format();
  if (!study.ok()) return {};
  config::Loaded<std::vector<WorkloadRun>> runs = run_study(*study.value, spec, schedules);
  EXPECT_TRUE(runs.ok()) << runs.diagnostics.format();
  return runs.ok() ? *runs.value : std::vector<WorkloadRun>{};
}

const gpu::KernelRecord& kernel_named(const WorkloadRun& run, const std::string& name) {
  for (const gpu::KernelRecord& kernel : run.result.kernels) {
    if (kernel.name == name) return kernel;
  }
  throw std::out_of_range("no kernel " + name);
}

TEST(GraphPhysics, TinyKernelsAreHostBoundEagerAndThreeTimesFasterAsACudaGraph) {
  const std::vector<WorkloadRun> runs = simulate_study(R"(
  - name: tiny
    graph:
      launch: compare
      kernels:
        - {name: k, op: elementwise, function: relu, rows: 1, cols: 4096, repeat: 300}
)");
  ASSERT_EQ(runs.size(), 2u);
  const double host_issue_us = testing::shipped_hardware("h100_sxm").launch.host_issue_s * 1e6;
  const double eager_us = runs[0].result.time_us();
  const double graph_us = runs[1].result.time_us();
  EXPECT_EQ(runs[0].name, "tiny/eager");
  EXPECT_EQ(runs[0].result.kernels.size(), 300u);
  // Kernels start one host issue apart: 299 issues between the first and last start.
  EXPECT_NEAR(eager_us, 300 * host_issue_us, 0.1 * 300 * host_issue_us);
  EXPECT_GT(gpu::launch_gaps(runs[0].result).us(), 0.7 * eager_us);
  EXPECT_GE(eager_us / graph_us, 3.0);
}

// Decode GEMVs (m = 1, split-K, slices added by a reduction kernel), each on
// its own weights, captured in one CUDA graph.
std::string gemv_chain(int gemvs) {
  std::string yaml = fmt::format(
      "  - name: chain{}\n    graph:\n      launch: cuda_graph\n"
      "      kernels:\n",
      gemvs);
  for (int i = 0; i < gemvs; ++i) {
    yaml += fmt::format(
        "        - {{name: g{}, op: gemm, m: 1, n: 4096, k: 4096, schedule: split_k, "
        "reduction: parallel}}\n",
        i);
  }
  return yaml;
}

// Per GEMV of a chain (the slope over 1 and 5 GEMVs), in us.
double us_per_chained_gemv(const std::vector<hw::FieldOverride>& overrides) {
  const std::vector<WorkloadRun> runs = simulate_study(gemv_chain(1) + gemv_chain(5), overrides);
  EXPECT_EQ(runs.size(), 2u);
  return runs.size() == 2 ? (runs[1].result.time_us() - runs[0].result.time_us()) / 4 : 0;
}

TEST(GraphPhysics, EveryGemmOfAGraphPaysItsRampAndDrainTheRunItsOverheadOnce) {
  // Ramp and drain 3 us a launch: each GEMV of the chain 3 us later, however
  // large the run's once-paid kernel_overhead.
  const double without_us = us_per_chained_gemv({{"kernels.library.ramp_and_drain", "0 us"}});
  const double with_us = us_per_chained_gemv(
      {{"kernels.library.ramp_and_drain", "3 us"}, {"kernels.library.kernel_overhead", "20 us"}});
  EXPECT_NEAR(with_us - without_us, 3.0, 0.05);
  // One GEMV alone: its CTAs, then both costs.
  const std::vector<WorkloadRun> alone = simulate_study(
      gemv_chain(1),
      {{"kernels.library.ramp_and_drain", "3 us"}, {"kernels.library.kernel_overhead", "20 us"}});
  const std::vector<WorkloadRun> bare = simulate_study(
      gemv_chain(1),
      {{"kernels.library.ramp_and_drain", "0 us"}, {"kernels.library.kernel_overhead", "0 us"}});
  ASSERT_EQ(alone.size(), 1u);
  ASSERT_EQ(bare.size(), 1u);
  // `reduction: parallel`: the split-K kernel, then the reduction kernel.
  EXPECT_EQ(alone[0].result.kernels.size(), 2u);
  EXPECT_NEAR(alone[0].result.time_us() - bare[0].result.time_us(), 23.0, 0.05);
}

// 66 output tiles of 128 x 256 each: one CTA on half the SMs, compute-bound.
constexpr const char* kHalfGpuGemm = "op: gemm, m: 768, n: 2816, k: 8192";

TEST(GraphPhysics, IndependentKernelsOnTwoStreamsOverlap) {
  const std::vector<WorkloadRun> runs = simulate_study(fmt::format(R"(
  - name: two_streams
    graph:
      kernels:
        - {{name: a, {0}, stream: 0}}
        - {{name: b, {0}, stream: 1}}
  - name: one_stream
    graph:
      kernels:
        - {{name: a, {0}}}
        - {{name: b, {0}}}
  - name: alone
    graph:
      kernels:
        - {{name: a, {0}}}
)",
                                                                   kHalfGpuGemm));
  ASSERT_EQ(runs.size(), 3u);
  const double alone_us = runs[2].result.time_us();
  // Both fit on the GPU at once: about one kernel's time (the second is
  // issued one host launch later), where one stream takes two.
  EXPECT_NEAR(runs[0].result.time_us(), alone_us, 0.15 * alone_us);
  EXPECT_GT(runs[1].result.time_us(), 1.8 * alone_us);
}

TEST(GraphPhysics, ADependencyAcrossStreamsIsHonoured) {
  const std::vector<WorkloadRun> runs = simulate_study(fmt::format(R"(
  - name: event
    graph:
      kernels:
        - {{name: producer, {0}, stream: 0}}
        - {{name: consumer, {0}, stream: 1, after: [producer]}}
)",
                                                                   kHalfGpuGemm));
  ASSERT_EQ(runs.size(), 1u);
  const gpu::KernelRecord& producer = kernel_named(runs[0], "producer.gemm_dp");
  const gpu::KernelRecord& consumer = kernel_named(runs[0], "consumer.gemm_dp");
  EXPECT_GE(consumer.start, producer.end);
  EXPECT_GT(runs[0].result.time_us(), 1.8 * (producer.end - producer.start).us());
}

TEST(GraphPhysics, FusingTheActivationRemovesTheIntermediatesRoundTrip) {
  // C = A B (1024 x 2048, 4 MiB in bf16) then GELU(C): separately, C is
  // written back to HBM and read again (from L2, where it still is); fused
  // into the epilogue, it never leaves the CTA.
  const std::vector<WorkloadRun> runs = simulate_study(R"(
  - name: unfused
    graph:
      kernels:
        - {name: mm, op: gemm, m: 1024, n: 2048, k: 1024}
        - {name: act, op: elementwise, function: gelu, rows: 1024, cols: 2048, inputs: [mm]}
  - name: fused
    graph:
      kernels:
        - {name: mm, op: gemm, m: 1024, n: 2048, k: 1024, activation: gelu}
)");
  ASSERT_EQ(runs.size(), 2u);
  const double intermediate_bytes = 1024.0 * 2048 * 2;
  const gpu::MemoryTraffic unfused = runs[0].result.traffic();
  const gpu::MemoryTraffic fused = runs[1].result.traffic();
  EXPECT_NEAR(unfused.hbm_bytes() - fused.hbm_bytes(), intermediate_bytes,
              0.03 * intermediate_bytes);
  // The separate kernel read C from L2: all of it, none from HBM.
  const gpu::KernelRecord& act = kernel_named(runs[0], "act");
  EXPECT_NEAR(act.traffic.l2_read_bytes, intermediate_bytes, 0.01 * intermediate_bytes);
  EXPECT_LT(act.traffic.hbm_read_bytes, 0.01 * intermediate_bytes);
}

TEST(GraphPhysics, ASmallDecodeLayerIsLaunchBoundEagerButNotAsACudaGraph) {
  // Four small unfused layers at batch 1: 60 kernels (each split-K GEMM has
  // its reduction kernel), most shorter than the 4.5 us host issue, so eager
  // launches leave the GPU waiting most of the time (about 70%); a graph's
  // front end leaves it waiting about a quarter of the time.
  const std::vector<WorkloadRun> runs = simulate_study(R"(
  - name: small
    layer: {phase: decode, hidden: 512, heads: 8, kv_heads: 2, head_dim: 64,
            intermediate: 1536, batch: 1, context: 128, layers: 4, fused: false,
            launch: compare}
)");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].result.kernels.size(), 60u);
  const double eager_us = runs[0].result.time_us();
  const double graph_us = runs[1].result.time_us();
  EXPECT_GT(eager_us / graph_us, 1.2);
  const double eager_gap_share = gpu::launch_gaps(runs[0].result).us() / eager_us;
  const double graph_gap_share = gpu::launch_gaps(runs[1].result).us() / graph_us;
  EXPECT_GT(eager_gap_share, 0.5);
  // A graph still pays ~0.4 us between dependent nodes: small against 1-2 us
  // kernels, but less than half of eager's share.
  EXPECT_LT(graph_gap_share, 0.5 * eager_gap_share);
}

TEST(GraphPhysics, ALlamaPrefillLayerIsDominatedByItsGemms) {
  const std::vector<WorkloadRun> runs = simulate_study(R"(
  - name: prefill
    layer: {phase: prefill, tokens: 2048, fused: false}
)");
  ASSERT_EQ(runs.size(), 1u);
  double gemm_us = 0;
  for (const gpu::KernelRecord& kernel : runs[0].result.kernels) {
    if (kernel.name.find(".gemm_") != std::string::npos)
      gemm_us += (kernel.end - kernel.start).us();
  }
  EXPECT_EQ(runs[0].result.kernels.size(), 11u);
  EXPECT_GT(gemm_us / runs[0].result.time_us(), 0.8);
}

TEST(GraphPhysics, AFusedLlamaDecodeLayerHasFewerKernelsAndMovesFewerBytes) {
  const std::vector<WorkloadRun> runs = simulate_study(R"(
  - name: decode
    layer: {phase: decode, batch: 32, context: 4096, fused: compare, launch: cuda_graph}
)");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].name, "decode/fused");
  EXPECT_LT(runs[0].result.kernels.size(), runs[1].result.kernels.size());
  EXPECT_LT(runs[0].result.traffic().hbm_bytes(), runs[1].result.traffic().hbm_bytes());
  EXPECT_LT(runs[0].result.time_us(), runs[1].result.time_us());
  // The KV cache (32 x 4096 keys x 8 heads x 128 x 2 (K, V) x 2 B) dominates.
  const double kv_bytes = 32.0 * 4096 * 8 * 128 * 2 * 2;
  EXPECT_GT(runs[0].result.traffic().hbm_bytes(), kv_bytes);
}

// A PyTorch kernel's CTAs each wait the family's setup before their first load
// (configs/frameworks/pytorch.yaml); at one row the grid is one wave, so every
// node of a chain takes that much longer than a tuned kernel's, plus three L2
// round trips: ATen's generic elementwise_kernel loads a thread's four
// elements one after another, where a tuned kernel issues them together.
TEST(GraphPhysics, AFrameworkKernelPaysItsFamilysSetupAndLoadsOncePerNodeAtDecodeSize) {
  const std::vector<WorkloadRun> runs = simulate_study(R"(
  - name: tuned
    graph:
      launch: cuda_graph
      kernels:
        - {name: k, op: elementwise, function: relu, rows: 1, cols: 4096, repeat: 64}
  - name: generic
    graph:
      launch: cuda_graph
      kernels:
        - {name: k, op: elementwise, function: relu, rows: 1, cols: 4096, repeat: 64,
           family: generic}
)");
  ASSERT_EQ(runs.size(), 2u);
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const double setup_us =
      spec.framework_profiles.at("pytorch").setup_s(hw::FrameworkKernelFamily::generic) * 1e6;
  ASSERT_GT(setup_us, 0.1);
  const double expected_us = setup_us + 3 * spec.l2.latency_s * 1e6;
  const double per_node_us = (runs[1].result.time_us() - runs[0].result.time_us()) / 64;
  EXPECT_NEAR(per_node_us, expected_us, 0.1 * expected_us);
}

// On a GPU no framework profile runs on, a framework layer is refused with one
// error (not one per kernel) that names the profile.
TEST(GraphPhysics, AFrameworkDecodeLayerNeedsTheFrameworkProfile) {
  hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  spec.framework_profiles.clear();
  const GemmScheduleRegistry schedules = builtin_gemm_schedules();
  config::Loaded<Study> study = load_study_text(
      "hardware: h100_sxm\nworkloads:\n  - name: d\n    layer: {phase: decode, batch: 1, "
      "context: 1024, fused: framework}\n",
      "test.yaml", study_schedule_names(schedules));
  ASSERT_TRUE(study.ok()) << study.diagnostics.format();
  const config::Loaded<std::vector<WorkloadRun>> runs = run_study(*study.value, spec, schedules);
  ASSERT_FALSE(runs.ok());
  ASSERT_EQ(runs.diagnostics.size(), 1u) << runs.diagnostics.format();
  EXPECT_NE(runs.diagnostics.format().find("framework profile `pytorch`"), std::string::npos)
      << runs.diagnostics.format();
}

// A prefill's GEMMs are chosen per shape, as a library picks its kernel: at
// 768 tokens a K projection (768 x 1024 x 4096) is 24 data-parallel tiles of
// 128 x 256 on 132 SMs, which `auto` beats by far (cuBLAS: 13-14 us against
// 36 us data-parallel); the V projection, of the same shape, gets the same
// choice.
TEST(GraphPhysics, PrefillGemmsAreChosenPerShapeByDefault) {
  const std::string layer =
      "    layer: {phase: prefill, hidden: 4096, heads: 32, kv_heads: 8, head_dim: 128, "
      "intermediate: 14336, tokens: 768, fused: framework, launch: cuda_graph";
  const std::vector<WorkloadRun> runs =
      simulate_study("  - name: chosen\n" + layer + "}\n" + "  - name: data_parallel\n" + layer +
                     ", schedule: data_parallel}\n");
  ASSERT_EQ(runs.size(), 2u);
  auto kernel_us = [](const WorkloadRun& run, const std::string& name) {
    const gpu::KernelRecord& kernel = kernel_named(run, name);
    return (kernel.end - kernel.start).us();
  };
  const double chosen_k_us = kernel_us(runs[0], "k_proj.gemm_split_k");
  EXPECT_LT(chosen_k_us, 0.7 * kernel_us(runs[1], "k_proj.gemm_dp"));
  EXPECT_NEAR(chosen_k_us, kernel_us(runs[0], "v_proj.gemm_split_k"), 0.02 * chosen_k_us);
  EXPECT_LT(runs[0].result.time_us(), runs[1].result.time_us());
}

}  // namespace
}  // namespace tilesim::workloads
