// The cost estimate of a plan: grid sizes times sampled programs, without
// building more than a few programs per kernel.

#include "sim/gpu/plan_cost.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>

#include "tests/support/shipped_hardware.hpp"

namespace tilesim::gpu {
namespace {

// CTA i has 1 + i % 3 steps of two reads each; counts the programs built.
class CountingPrograms final : public CtaProgramSource {
 public:
  CtaProgram program(std::int64_t cta_index) const override {
    ++built;
    CtaProgram program;
    for (std::int64_t i = 0; i <= cta_index % 3; ++i) {
      CtaStep step;
      step.reads.push_back({});
      step.reads.push_back({});
      program.steps.push_back(step);
    }
    return program;
  }
  mutable std::atomic<int> built{0};
};

KernelLaunch launch_of(std::int64_t ctas, std::shared_ptr<const CtaProgramSource> programs) {
  KernelLaunch launch;
  launch.name = "k";
  launch.cta_count = ctas;
  launch.footprint = {128, 32, 0};
  launch.programs = std::move(programs);
  return launch;
}

TEST(PlanCost, CountsEveryCtaAndScalesSampledStepsToTheGrid) {
  auto programs = std::make_shared<CountingPrograms>();
  KernelPlan plan;
  plan.kernels.push_back(launch_of(3, programs));  // all three sampled: 1 + 2 + 3 steps
  const PlanCost cost = estimate_plan_cost(plan, testing::shipped_hardware("h100_sxm"));
  EXPECT_DOUBLE_EQ(cost.simulations, 1);
  EXPECT_DOUBLE_EQ(cost.kernels, 1);
  EXPECT_DOUBLE_EQ(cost.ctas, 3);
  EXPECT_DOUBLE_EQ(cost.steps, 6);
  EXPECT_DOUBLE_EQ(cost.block_reads, 12);
  EXPECT_GT(cost.events(), cost.ctas + cost.steps);
}

TEST(PlanCost, SamplesAFewProgramsOfAHugeGrid) {
  auto programs = std::make_shared<CountingPrograms>();
  KernelPlan plan;
  plan.kernels.push_back(launch_of(std::int64_t{1} << 40, programs));
  const PlanCost cost = estimate_plan_cost(plan, testing::shipped_hardware("h100_sxm"));
  EXPECT_LE(programs->built.load(), 8);
  EXPECT_DOUBLE_EQ(cost.ctas, 0x1p40);
  // About two steps per CTA on average, whichever CTAs were sampled.
  EXPECT_GT(cost.steps, 1.5 * 0x1p40);
  EXPECT_LT(cost.steps, 2.5 * 0x1p40);
  EXPECT_GT(cost.events(), 1e12);
}

TEST(PlanCost, AddsAndScalesAsSeveralRuns) {
  auto programs = std::make_shared<CountingPrograms>();
  KernelPlan plan;
  plan.kernels.push_back(launch_of(3, programs));
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  PlanCost twice = estimate_plan_cost(plan, spec);
  twice += estimate_plan_cost(plan, spec);
  EXPECT_DOUBLE_EQ(twice.events(), estimate_plan_cost(plan, spec).scaled(2).events());
  EXPECT_DOUBLE_EQ(twice.simulations, 2);
}

}  // namespace
}  // namespace tilesim::gpu
