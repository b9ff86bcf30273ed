#include "hwmodels/power_law.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace tilesim::hw {
namespace {

constexpr double kMaxClockHz = 1980e6;

PowerSpec linear_power() {
  PowerSpec power;
  power.limit_w = 700;
  power.static_w = 100;
  power.sm_active_w = 2;
  power.tensor_pj_per_flop = 0.5;
  power.hbm_pj_per_byte = 50;
  power.voltage_exponent = 1;
  return power;
}

TEST(PowerLaw, BoardPowerAddsTheTermsAtTheMaximumClock) {
  const KernelLoad load{100, 400e12, 2e12, kMaxClockHz};
  // 100 W + (100 x 2 W + 400e12 x 0.5 pJ) + 2e12 x 50 pJ = 100 + 400 + 100.
  EXPECT_DOUBLE_EQ(board_power_w(linear_power(), kMaxClockHz, load, kMaxClockHz), 600);
}

TEST(PowerLaw, ALoadUnderTheLimitRunsAtTheMaximumClock) {
  const KernelLoad load{100, 400e12, 2e12, kMaxClockHz};
  EXPECT_DOUBLE_EQ(power_limited_clock_hz(linear_power(), kMaxClockHz, load), kMaxClockHz);
}

// With voltage_exponent 1 and no HBM term, the dynamic part scales as r^2
// (r = f / max): 1200 W of it at r = 1 fits the 600 W left under 700 W at
// r = sqrt(1/2).
TEST(PowerLaw, TheClockFallsUntilTheLoadFits) {
  PowerSpec power = linear_power();
  power.hbm_pj_per_byte = 0;
  const KernelLoad load{132, 1872e12, 0, kMaxClockHz};  // 132 x 2 W + 936 W of flops
  const double dynamic_w = board_power_w(power, kMaxClockHz, load, kMaxClockHz) - power.static_w;
  ASSERT_NEAR(dynamic_w, 1200, 1e-6);
  EXPECT_NEAR(power_limited_clock_hz(power, kMaxClockHz, load), kMaxClockHz * std::sqrt(0.5), 2e5);
}

TEST(PowerLaw, NoLimitKeepsTheMaximumClock) {
  const KernelLoad load{132, 1e16, 1e13, kMaxClockHz};
  EXPECT_DOUBLE_EQ(power_limited_clock_hz(PowerSpec{}, kMaxClockHz, load), kMaxClockHz);
}

}  // namespace
}  // namespace tilesim::hw
