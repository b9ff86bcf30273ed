// tilesim explain on the shipped H100 config: on every example study each
// breakdown adds up to the simulated time (per run and per kernel) and
// attributing time changes no simulated time; and the physics reads right: a decode GEMM is
// bound by HBM, 8192^3 by the tensor cores, 1536^3 in 128x128 tiles leaves a
// wave-quantization tail, and twice the HBM bandwidth helps the first a lot
// and the second little.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/explain/run_explanation.hpp"
#include "tests/support/shipped_hardware.hpp"
#include "workloads/study_loader.hpp"
#include "workloads/study_runner.hpp"

namespace tilesim::explain {
namespace {

constexpr double kRoundingUs = 1e-6;

std::vector<RunExplanation> explain_yaml(const std::string& study_yaml) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const workloads::GemmScheduleRegistry schedules = workloads::builtin_gemm_schedules();
  config::Loaded<workloads::Study> study = workloads::load_study_text(
      study_yaml, "test.yaml", workloads::study_schedule_names(schedules));
  EXPECT_TRUE(study.ok()) << study.diagnostics.format();
  if (!study.ok()) return {};
  config::Loaded<std::vector<RunExplanation>> explained =
      explain_study(*study.value, spec, schedules);
  EXPECT_TRUE(explained.ok()) << explained.diagnostics.format();
  return explained.ok() ? *explained.value : std::vector<RunExplanation>{};
}

std::vector<std::filesystem::path> shipped_studies() {
  std::vector<std::filesystem::path> paths;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(TILESIM_CONFIG_DIR) / "studies")) {
    if (entry.path().extension() == ".yaml") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

const WhatIf& what_if(const RunExplanation& run, const std::string& change) {
  for (const WhatIf& hint : run.what_ifs) {
    if (hint.change == change) return hint;
  }
  throw std::out_of_range("no what-if " + change + " for " + run.name);
}

// One test per shipped study, so that ctest runs them in parallel.
class ShippedStudy : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(ShippedStudy, EveryBreakdownAddsUpToItsTimeAndAttributionChangesNoTime) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const workloads::GemmScheduleRegistry schedules = workloads::builtin_gemm_schedules();
  config::Loaded<workloads::Study> study = workloads::load_study(
      GetParam(), workloads::study_schedule_names(schedules), TILESIM_CONFIG_DIR);
  ASSERT_TRUE(study.ok()) << study.diagnostics.format();
  gpu::SimulationOptions attributed;
  attributed.attribute_time = true;
  config::Loaded<std::vector<workloads::WorkloadRun>> plain =
      workloads::run_study(*study.value, spec, schedules);
  config::Loaded<std::vector<workloads::WorkloadRun>> runs =
      workloads::run_study(*study.value, spec, schedules, attributed);
  ASSERT_TRUE(plain.ok() && runs.ok()) << runs.diagnostics.format();
  ASSERT_EQ(runs.value->size(), plain.value->size());
  for (std::size_t i = 0; i < plain.value->size(); ++i) {
    const RunExplanation run = explain_run((*runs.value)[i], spec);
    SCOPED_TRACE(run.name);
    EXPECT_EQ(run.time_us, (*plain.value)[i].result.time_us());
    EXPECT_EQ((*runs.value)[i].result.events, (*plain.value)[i].result.events);
    EXPECT_NEAR(run.breakdown.total_us(), run.time_us, kRoundingUs * (1 + run.time_us));
    for (const double us : run.breakdown.us) EXPECT_GE(us, -kRoundingUs);
    for (const KernelExplanation& kernel : run.kernels) {
      SCOPED_TRACE(kernel.name);
      EXPECT_NEAR(kernel.breakdown.total_us(), kernel.time_us, kRoundingUs * (1 + kernel.time_us));
    }
    EXPECT_FALSE(run.verdict.reason.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(ExplainStudy, ShippedStudy, ::testing::ValuesIn(shipped_studies()),
                         [](const ::testing::TestParamInfo<std::filesystem::path>& study) {
                           return study.param.stem().string();
                         });

const char* const kQuickGemms = R"(hardware: h100_sxm
workloads:
  - name: decode
    gemm: {m: 16, n: 8192, k: 8192, dtype: bf16}
    tile: {m: 64, n: 128, k: 64}
  - name: square_8192
    gemm: {m: 8192, n: 8192, k: 8192, dtype: bf16}
  - name: square_1536
    gemm: {m: 1536, n: 1536, k: 1536, dtype: bf16}
    tile: {m: 128, n: 128, k: 64}
)";

TEST(ExplainPhysics, ADecodeGemmIsBoundByHbmAndTwiceTheBandwidthHelpsALot) {
  const std::vector<RunExplanation> runs = explain_yaml(kQuickGemms);
  ASSERT_EQ(runs.size(), 3u);
  const RunExplanation& decode = runs[0];
  EXPECT_EQ(decode.verdict.bound, Bound::hbm) << decode.verdict.reason;
  EXPECT_LT(decode.position.hbm_flops_per_byte(), decode.ceilings.hbm_ridge_flops_per_byte() / 10);
  EXPECT_GT(decode.position.hbm_bytes_per_s(), 0.9 * decode.ceilings.hbm_bytes_per_s);
  EXPECT_LT(what_if(decode, "2x HBM bandwidth").time_change(), -0.3);
  EXPECT_GT(what_if(decode, "2x tensor-core throughput").time_change(), -0.05);
}

TEST(ExplainPhysics, A8192CubeIsBoundByTensorCoresAndBarelyHelpedByHbm) {
  const std::vector<RunExplanation> runs = explain_yaml(kQuickGemms);
  ASSERT_EQ(runs.size(), 3u);
  const RunExplanation& square = runs[1];
  EXPECT_EQ(square.verdict.bound, Bound::tensor) << square.verdict.reason;
  EXPECT_GT(square.breakdown[TimeCause::tensor], 0.8 * square.time_us);
  EXPECT_GT(square.position.hbm_flops_per_byte(), square.ceilings.hbm_ridge_flops_per_byte());
  EXPECT_GT(what_if(square, "2x HBM bandwidth").time_change(), -0.05);
  EXPECT_LT(what_if(square, "2x tensor-core throughput").time_change(), -0.2);
}

TEST(ExplainPhysics, A1536CubeIn128TilesLeavesAWaveQuantizationTail) {
  // 144 tiles on 132 SMs: 12 CTAs in a second wave while 120 SMs idle.
  const std::vector<RunExplanation> runs = explain_yaml(kQuickGemms);
  ASSERT_EQ(runs.size(), 3u);
  const RunExplanation& square = runs[2];
  EXPECT_GT(square.breakdown[TimeCause::tail], 0.25 * square.time_us);
  EXPECT_NE(square.verdict.reason.find("idle"), std::string::npos) << square.verdict.reason;
  // Stream-K removes the tail.
  EXPECT_LT(what_if(square, "as stream_k:two_tile:deterministic").time_change(), -0.2);
}

TEST(ExplainPhysics, TinyEagerKernelsAreLaunchBoundAndAGraphHelps) {
  const std::vector<RunExplanation> runs = explain_yaml(R"(hardware: h100_sxm
workloads:
  - name: tiny
    graph:
      launch: eager
      kernels:
        - {name: relu, op: elementwise, function: relu, rows: 1, cols: 4096, repeat: 20}
)");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].verdict.bound, Bound::launch) << runs[0].verdict.reason;
  EXPECT_GT(runs[0].breakdown[TimeCause::launch_gap], 0.5 * runs[0].time_us);
  EXPECT_LT(what_if(runs[0], "as cuda_graph").time_change(), -0.3);
}

}  // namespace
}  // namespace tilesim::explain
