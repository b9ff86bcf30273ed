#include "sim/gpu/spare_cta_programs.hpp"

#include <gtest/gtest.h>

#include <thread>

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

// Each test runs on a thread of its own: the store is the thread's.
template <typename Check>
void on_a_fresh_thread(Check check) {
  std::thread thread(check);
  thread.join();
}

TEST(SpareCtaPrograms, AKeptProgramComesBackEmptiedWithItsStorage) {
  on_a_fresh_thread([] {
    EXPECT_EQ(take_spare_program().steps.capacity(), 0u);
    keep_spare_program(program_of(7));
    const CtaProgram program = take_spare_program();
    EXPECT_GE(program.steps.capacity(), 7u);
    EXPECT_EQ(program, CtaProgram{});  // no step, segment, pace or drift of the old one
    EXPECT_EQ(take_spare_program().steps.capacity(), 0u);
  });
}

TEST(SpareCtaPrograms, AProgramWithoutStorageIsNotKept) {
  on_a_fresh_thread([] {
    keep_spare_program(program_of(3));
    CtaProgram moved_from = program_of(5);
    const CtaProgram taken = std::move(moved_from);
    keep_spare_program(std::move(moved_from));
    // The program with storage is still the next one taken.
    EXPECT_GE(take_spare_program().steps.capacity(), 3u);
  });
}

TEST(SpareCtaPrograms, ThreadsKeepTheirOwn) {
  keep_spare_program(program_of(4));
  on_a_fresh_thread([] { EXPECT_EQ(take_spare_program().steps.capacity(), 0u); });
  EXPECT_GE(take_spare_program().steps.capacity(), 4u);
}

}  // namespace
}  // namespace tilesim::gpu
