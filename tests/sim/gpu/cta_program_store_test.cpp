#include "sim/gpu/cta_program_store.hpp"

#include <gtest/gtest.h>

namespace tilesim::gpu {
namespace {

CtaProgram program_of(std::size_t steps) {
  CtaProgram program;
  program.segments.push_back({1, 2, 0, 4});
  program.steps.resize(steps);
  program.steps.back().flops = 1e6;
  program.tensor_speed = 0.9;
  program.drifts = false;
  return program;
}

TEST(CtaProgramStore, AKeptProgramComesBackEmptiedWithItsStorage) {
  CtaProgramStore store;
  EXPECT_EQ(store.take().steps.capacity(), 0u);
  store.keep(program_of(7));
  const CtaProgram program = store.take();
  EXPECT_GE(program.steps.capacity(), 7u);
  EXPECT_EQ(program, CtaProgram{});  // no step, segment, pace or drift of the old one
  EXPECT_EQ(store.take().steps.capacity(), 0u);
}

TEST(CtaProgramStore, AProgramWithoutStorageIsNotKept) {
  CtaProgramStore store;
  store.keep(program_of(3));
  CtaProgram moved_from = program_of(5);
  const CtaProgram taken = std::move(moved_from);
  store.keep(std::move(moved_from));
  // The program with storage is still the next one taken.
  EXPECT_GE(store.take().steps.capacity(), 3u);
  EXPECT_EQ(store.take().steps.capacity(), 0u);
}

}  // namespace
}  // namespace tilesim::gpu
