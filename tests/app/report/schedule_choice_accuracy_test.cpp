#include "app/report/schedule_choice_accuracy.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tilesim::report {
namespace {

TEST(ScheduleChoiceAccuracy, RightPickMissAndTie) {
  const std::vector<ScheduleCase> cases = {
      // problem a: predicted fastest (dp) is the measured fastest.
      {"a", "a_dp", 100, 0.01, 90},
      {"a", "a_sk", 120, 0.01, 95},
      // problem b: predicts sk, which measured 30% slower than dp: a miss.
      {"b", "b_dp", 100, 0.01, 80},
      {"b", "b_sk", 130, 0.01, 70},
      // problem c: predicts sk, 3% slower than dp; sk's run spread is 5%: a tie.
      {"c", "c_dp", 100, 0.01, 80},
      {"c", "c_sk", 103, 0.05, 70},
      // problem d: one case only, no choice to judge.
      {"d", "d_dp", 50, 0.0, 40},
  };
  const ScheduleChoiceAccuracy accuracy = schedule_choice_accuracy(cases);
  ASSERT_EQ(accuracy.groups.size(), 3u);
  EXPECT_TRUE(accuracy.groups[0].correct);
  EXPECT_FALSE(accuracy.groups[0].tie);
  EXPECT_FALSE(accuracy.groups[1].correct);
  EXPECT_EQ(accuracy.groups[1].predicted_fastest, "b_sk");
  EXPECT_EQ(accuracy.groups[1].measured_fastest, "b_dp");
  EXPECT_NEAR(accuracy.groups[1].regret_percent, 30.0, 1e-9);
  EXPECT_TRUE(accuracy.groups[2].correct);
  EXPECT_TRUE(accuracy.groups[2].tie);
  EXPECT_EQ(accuracy.correct(), 2);
  EXPECT_NEAR(accuracy.top1_share(), 2.0 / 3.0, 1e-12);
}

TEST(ScheduleChoiceAccuracy, TieNeedsTheNoiseFloorAtLeast) {
  // 1.5% apart with no spread recorded: within the 2% floor, a tie.
  const std::vector<ScheduleCase> close = {{"p", "x", 100, 0, 50}, {"p", "y", 101.5, 0, 40}};
  EXPECT_TRUE(schedule_choice_accuracy(close).groups[0].tie);
  // 2.5% apart: outside the floor, a miss.
  const std::vector<ScheduleCase> apart = {{"p", "x", 100, 0, 50}, {"p", "y", 102.5, 0, 40}};
  EXPECT_FALSE(schedule_choice_accuracy(apart).groups[0].correct);
}

}  // namespace
}  // namespace tilesim::report
