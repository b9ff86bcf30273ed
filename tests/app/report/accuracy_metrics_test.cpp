#include "app/report/accuracy_metrics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace tilesim::report {
namespace {

TEST(AverageRanks, TiesShareTheMeanOfTheirRanks) {
  const std::vector<double> values = {30, 10, 20, 10, 40};
  // 10, 10 take ranks 1 and 2 -> 1.5 each; 20 -> 3; 30 -> 4; 40 -> 5.
  EXPECT_EQ(average_ranks(values), (std::vector<double>{4, 1.5, 3, 1.5, 5}));
}

TEST(SpearmanRho, HandComputedWithTies) {
  const std::vector<double> x = {1, 2, 2, 3};
  const std::vector<double> y = {10, 30, 20, 40};
  // ranks x = 1, 2.5, 2.5, 4; ranks y = 1, 3, 2, 4; both mean 2.5.
  // cov = (-1.5)(-1.5) + 0 + 0 + 1.5*1.5 = 4.5; var x = 4.5; var y = 2.25 + .25 + .25 + 2.25 = 5.
  EXPECT_NEAR(spearman_rho(x, y), 4.5 / std::sqrt(4.5 * 5.0), 1e-12);
}

TEST(SpearmanRho, ReversedOrderIsMinusOneAndConstantIsZero) {
  const std::vector<double> up = {1, 2, 3, 4};
  const std::vector<double> down = {9, 7, 5, 1};
  const std::vector<double> flat = {2, 2, 2, 2};
  EXPECT_DOUBLE_EQ(spearman_rho(up, down), -1.0);
  EXPECT_DOUBLE_EQ(spearman_rho(up, flat), 0.0);
}

TEST(AccuracyMetrics, HandComputedErrors) {
  const std::vector<double> measured = {100, 200, 50, 10};
  const std::vector<double> predicted = {110, 150, 50, 12.5};
  // errors: +10%, -25%, 0%, +25%
  const AccuracyMetrics m = accuracy_metrics(measured, predicted);
  EXPECT_EQ(m.cases, 4);
  EXPECT_NEAR(m.mape_percent, 15.0, 1e-12);        // (10 + 25 + 0 + 25) / 4
  EXPECT_NEAR(m.median_ape_percent, 17.5, 1e-12);  // mean of 10 and 25
  EXPECT_NEAR(m.max_ape_percent, 25.0, 1e-12);
  EXPECT_NEAR(m.bias_percent, 2.5, 1e-12);  // (10 - 25 + 0 + 25) / 4
  EXPECT_DOUBLE_EQ(m.within_10_share, 0.5);
  EXPECT_DOUBLE_EQ(m.within_20_share, 0.5);
  // Order: measured 10 < 50 < 100 < 200, predicted 12.5 < 50 < 110 < 150: kept.
  EXPECT_DOUBLE_EQ(m.spearman_rho, 1.0);
  EXPECT_GT(m.pearson_log_r, 0.98);
  EXPECT_LT(m.pearson_log_r, 1.0);
}

TEST(AccuracyMetrics, PearsonOfLogTimesIsScaleFree) {
  // predicted = 2 x measured everywhere: logs differ by a constant, r = 1, bias +100%.
  const std::vector<double> measured = {1, 10, 100};
  const std::vector<double> predicted = {2, 20, 200};
  const AccuracyMetrics m = accuracy_metrics(measured, predicted);
  EXPECT_NEAR(m.pearson_log_r, 1.0, 1e-12);
  EXPECT_NEAR(m.bias_percent, 100.0, 1e-12);
  EXPECT_DOUBLE_EQ(m.within_20_share, 0.0);
}

}  // namespace
}  // namespace tilesim::report
