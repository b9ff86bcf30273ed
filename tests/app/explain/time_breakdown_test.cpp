// Time breakdowns on the tiny GPU of tests/support/tiny_gpu.hpp, worked out
// by hand: busy SM-time shared among the CTAs' causes, idle SM-time split into
// the wave tail and launch gaps, every breakdown adding up to its span.

#include "app/explain/time_breakdown.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "sim/gpu/gpu_simulation.hpp"
#include "tests/support/tiny_gpu.hpp"

namespace tilesim::explain {
namespace {

using testing::kernel;
using testing::one_us_of_compute;
using testing::tiny_gpu;

gpu::SimulationResult simulate_attributed(const gpu::KernelPlan& plan) {
  gpu::SimulationOptions options;
  options.attribute_time = true;
  return gpu::simulate(plan, tiny_gpu(), options);
}

TEST(TimeBreakdown, ThreeCtasOnTwoSmsLeaveATail) {
  // 7..10 us. SM 0 runs two CTAs (0.5 us dispatch + 1 us each), SM 1 one
  // and then idles from 8.5 us, when the last CTA was placed: a 1.5 us tail.
  // Averaged over 2 SMs: dispatch 0.75, tensor 1.5, tail 0.75.
  gpu::KernelPlan plan;
  plan.kernels = {kernel("gemm", 3, one_us_of_compute)};
  const gpu::SimulationResult result = simulate_attributed(plan);
  for (const TimeBreakdown& breakdown :
       {run_time_breakdown(result), kernel_time_breakdown(result, 0)}) {
    EXPECT_NEAR(breakdown[TimeCause::dispatch], 0.75, 1e-9);
    EXPECT_NEAR(breakdown[TimeCause::tensor], 1.5, 1e-9);
    EXPECT_NEAR(breakdown[TimeCause::tail], 0.75, 1e-9);
    EXPECT_NEAR(breakdown[TimeCause::launch_gap], 0, 1e-9);
    EXPECT_NEAR(breakdown.total_us(), 3.0, 1e-9);
  }
}

TEST(TimeBreakdown, HostBoundKernelsLeaveLaunchGaps) {
  // Three 1-CTA kernels of 1.5 us start 5 us apart (7, 12, 17 us): the run
  // spans 11.5 us, 7 of them with no kernel running. SM 0 runs all three
  // CTAs (4.5 us busy); SM 1 idles outside the gaps for 4.5 us: the tail.
  gpu::KernelPlan plan;
  for (int i = 0; i < 3; ++i)
    plan.kernels.push_back(kernel(std::to_string(i), 1, one_us_of_compute));
  const gpu::SimulationResult result = simulate_attributed(plan);
  const TimeBreakdown run = run_time_breakdown(result);
  EXPECT_NEAR(run[TimeCause::launch_gap], 7.0, 1e-9);
  EXPECT_NEAR(run[TimeCause::tail], 2.25, 1e-9);
  EXPECT_NEAR(run[TimeCause::dispatch], 0.75, 1e-9);
  EXPECT_NEAR(run[TimeCause::tensor], 1.5, 1e-9);
  EXPECT_NEAR(run.total_us(), result.time_us(), 1e-9);
  // Each kernel on its own span: 1.5 us, half of it SM 1 idle.
  const TimeBreakdown second = kernel_time_breakdown(result, 1);
  EXPECT_NEAR(second.total_us(), 1.5, 1e-9);
  EXPECT_NEAR(second[TimeCause::tail], 0.75, 1e-9);
  EXPECT_NEAR(second[TimeCause::launch_gap], 0, 1e-9);
}

TEST(TimeBreakdown, KernelsSideBySideSeeEachOtherAsOtherKernels) {
  // Two one-CTA kernels on two streams of a CUDA graph run at once, one per
  // SM; the longer one (3 CTA-us) sees the other's SM as busy elsewhere.
  gpu::KernelPlan plan;
  plan.mode = gpu::LaunchMode::cuda_graph;
  plan.kernels = {
      kernel("short", 1, one_us_of_compute, 0),
      kernel(
          "long", 1, [](std::int64_t) { return std::vector<gpu::CtaStep>{testing::compute(3e6)}; },
          1)};
  const gpu::SimulationResult result = simulate_attributed(plan);
  const TimeBreakdown longer = kernel_time_breakdown(result, 1);
  const double span_us = (result.kernels[1].end - result.kernels[1].start).us();
  EXPECT_NEAR(longer.total_us(), span_us, 1e-9);
  EXPECT_GT(longer[TimeCause::other_kernels], 0);
  EXPECT_NEAR(run_time_breakdown(result).total_us(), result.time_us(), 1e-9);
}

TEST(TimeBreakdown, NeedsAnAttributedResult) {
  gpu::KernelPlan plan;
  plan.kernels = {kernel("gemm", 3, one_us_of_compute)};
  const gpu::SimulationResult plain = gpu::simulate(plan, tiny_gpu());
  EXPECT_THROW(run_time_breakdown(plain), std::logic_error);
  EXPECT_THROW(kernel_time_breakdown(plain, 0), std::logic_error);
}

TEST(TimeBreakdown, CausesHaveDistinctKeysAndLabels) {
  for (std::size_t i = 0; i < kTimeCauseCount; ++i) {
    for (std::size_t j = i + 1; j < kTimeCauseCount; ++j) {
      EXPECT_NE(time_cause_key(static_cast<TimeCause>(i)),
                time_cause_key(static_cast<TimeCause>(j)));
      EXPECT_NE(time_cause_label(static_cast<TimeCause>(i)),
                time_cause_label(static_cast<TimeCause>(j)));
    }
  }
}

}  // namespace
}  // namespace tilesim::explain
