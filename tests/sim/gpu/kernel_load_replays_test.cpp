#include "sim/gpu/kernel_load_replays.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "tests/support/tiny_gpu.hpp"

namespace tilesim::gpu {
namespace {

std::vector<CtaProgram> programs_of(double flops) {
  std::vector<CtaProgram> programs(3);
  for (CtaProgram& program : programs) program.steps = {testing::compute(flops)};
  return programs;
}

TEST(KernelLoadReplays, AKeptReplayIsTakenForEqualProgramsUnderEqualInputs) {
  const hw::HardwareSpec spec = testing::tiny_gpu();
  const ReplayInputs inputs(2, 0.8, spec);
  const std::vector<ReplayedRound> rounds = {{2, 4e6, 4e-6, 4e-6, 0, 0, 0},
                                             {1, 2e6, 2e-6, 2e-6, 0, 0, 0}};
  KernelLoadReplays replays;
  EXPECT_FALSE(replays.find(inputs, programs_of(2e6)));
  replays.keep(inputs, programs_of(2e6), rounds);
  const auto found = replays.find(inputs, programs_of(2e6));
  ASSERT_TRUE(found);
  EXPECT_EQ(found->size(), 2u);
  EXPECT_EQ((*found)[1].flops, 2e6);
}

TEST(KernelLoadReplays, OtherProgramsOrInputsReplayAgain) {
  const hw::HardwareSpec spec = testing::tiny_gpu();
  const ReplayInputs inputs(2, 0.8, spec);
  KernelLoadReplays replays;
  replays.keep(inputs, programs_of(2e6), {{3, 6e6, 0, 0, 0, 0, 0}});
  std::vector<CtaProgram> fewer = programs_of(2e6);
  fewer.pop_back();
  EXPECT_FALSE(replays.find(inputs, fewer));
  std::vector<CtaProgram> other = programs_of(2e6);
  other.front().steps.front().flops = 3e6;  // the first CTA differs
  EXPECT_FALSE(replays.find(inputs, other));
  EXPECT_FALSE(replays.find(ReplayInputs(3, 0.8, spec), programs_of(2e6)));
  EXPECT_FALSE(replays.find(ReplayInputs(2, 0.9, spec), programs_of(2e6)));
  hw::HardwareSpec slower_l2 = spec;
  slower_l2.l2.latency_s *= 2;
  EXPECT_FALSE(replays.find(ReplayInputs(2, 0.8, slower_l2), programs_of(2e6)));
  // What the replay does not read is not compared.
  hw::HardwareSpec faster_hbm = spec;
  faster_hbm.hbm.bandwidth_bytes_per_s *= 2;
  EXPECT_TRUE(replays.find(ReplayInputs(2, 0.8, faster_hbm), programs_of(2e6)));
}

}  // namespace
}  // namespace tilesim::gpu
