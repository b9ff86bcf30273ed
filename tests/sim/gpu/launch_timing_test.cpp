// launch_timings: when each kernel of a plan reaches the GPU, eager or graphed.

#include "sim/gpu/launch_timing.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {
namespace {

// Host issue 5 us, launch latency 2 us, graph node 1 us: whole picoseconds.
hw::LaunchSpec launch_spec() {
  hw::LaunchSpec launch;
  launch.host_issue_s = 5e-6;
  launch.latency_s = 2e-6;
  launch.graph_node_s = 1e-6;
  launch.cta_dispatch_s = 0.5e-6;
  return launch;
}

KernelPlan plan_of(LaunchMode mode, int kernels) {
  KernelPlan plan;
  plan.mode = mode;
  for (int i = 0; i < kernels; ++i) {
    KernelLaunch launch;
    launch.cta_count = 1;
    plan.kernels.push_back(launch);
  }
  return plan;
}

std::int64_t us(double value) {
  return static_cast<std::int64_t>(value * 1'000'000);
}

TEST(LaunchTiming, EagerLaunchesFollowTheHostOneIssueApart) {
  const std::vector<LaunchTiming> timings =
      launch_timings(plan_of(LaunchMode::eager, 3), launch_spec());
  ASSERT_EQ(timings.size(), 3u);
  for (std::int64_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    const LaunchTiming& timing = timings[static_cast<std::size_t>(i)];
    // Issue of kernel i runs from i * 5 to (i + 1) * 5 us; ready 2 us later.
    EXPECT_EQ(timing.host_issue_begin.ps(), i * us(5));
    EXPECT_EQ(timing.host_issue_end.ps(), (i + 1) * us(5));
    EXPECT_EQ(timing.arrival.ps(), (i + 1) * us(5) + us(2));
  }
}

TEST(LaunchTiming, CudaGraphIsOneIssueThenOneNodeApart) {
  const std::vector<LaunchTiming> timings =
      launch_timings(plan_of(LaunchMode::cuda_graph, 4), launch_spec());
  ASSERT_EQ(timings.size(), 4u);
  for (std::int64_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    const LaunchTiming& timing = timings[static_cast<std::size_t>(i)];
    // One host launch (0 .. 5 us) for the whole graph; node i ready at
    // 5 + 2 + i * 1 us.
    EXPECT_EQ(timing.host_issue_begin.ps(), 0);
    EXPECT_EQ(timing.host_issue_end.ps(), us(5));
    EXPECT_EQ(timing.arrival.ps(), us(5) + us(2) + i * us(1));
  }
}

TEST(LaunchTiming, AGraphOfManyKernelsArrivesSoonerThanEagerLaunches) {
  // 10 kernels: eager, the last is ready at 10 * 5 + 2 = 52 us; graphed, at
  // 5 + 2 + 9 * 1 = 16 us.
  const hw::LaunchSpec launch = launch_spec();
  EXPECT_EQ(launch_timings(plan_of(LaunchMode::eager, 10), launch).back().arrival.ps(), us(52));
  EXPECT_EQ(launch_timings(plan_of(LaunchMode::cuda_graph, 10), launch).back().arrival.ps(),
            us(16));
}

TEST(LaunchTiming, TheDependencyGapIsTheGraphNodeLessTheCtaDispatch) {
  // A chain of empty kernels then costs one graph node each: gap + dispatch.
  EXPECT_EQ(dependency_gap(launch_spec()).ps(), us(0.5));
  hw::LaunchSpec slow_dispatch = launch_spec();
  slow_dispatch.cta_dispatch_s = 2e-6;
  EXPECT_EQ(dependency_gap(slow_dispatch).ps(), 0);
}

TEST(LaunchTiming, AnEmptyPlanHasNoTimings) {
  EXPECT_TRUE(launch_timings(plan_of(LaunchMode::eager, 0), launch_spec()).empty());
  EXPECT_TRUE(launch_timings(plan_of(LaunchMode::cuda_graph, 0), launch_spec()).empty());
}

}  // namespace
}  // namespace tilesim::gpu
