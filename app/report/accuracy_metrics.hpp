#pragma once
// How close predictions are to measurements, over a set of cases: absolute
// percentage errors (mean, median, max), the signed mean (bias), the share
// within 10% and 20%, and how well the order is kept (Pearson r of log times,
// Spearman rho). Errors are (predicted - measured) / measured, in percent.

#include <span>
#include <vector>

namespace tilesim::report {

struct AccuracyMetrics {
  int cases = 0;
  double mape_percent = 0;  // mean absolute percentage error
  double median_ape_percent = 0;
  double max_ape_percent = 0;
  double bias_percent = 0;     // mean signed error: > 0 predicts too slow
  double within_10_share = 0;  // of cases, in [0, 1]
  double within_20_share = 0;
  double pearson_log_r = 0;  // of log(measured) and log(predicted)
  double spearman_rho = 0;
};

// Same-length spans of positive times (at least two cases for the correlations).
AccuracyMetrics accuracy_metrics(std::span<const double> measured,
                                 std::span<const double> predicted);

// Ranks 1..n by value; tied values share the mean of their ranks.
std::vector<double> average_ranks(std::span<const double> values);

// Pearson r of the ranks (ties averaged); 0 when either side is constant.
double spearman_rho(std::span<const double> x, std::span<const double> y);

}  // namespace tilesim::report
