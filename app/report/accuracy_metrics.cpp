#include "app/report/accuracy_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tilesim::report {
namespace {

constexpr double kWithin10Percent = 10;
constexpr double kWithin20Percent = 20;

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Pearson r; 0 when either side has no spread (r is undefined there).
double pearson_r(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() < 2) return 0;
  const auto flat = [](const std::vector<double>& v) {
    return std::all_of(v.begin(), v.end(), [&](double value) { return value == v.front(); });
  };
  if (flat(x) || flat(y)) return 0;
  const double n = static_cast<double>(x.size());
  const double mean_x = std::accumulate(x.begin(), x.end(), 0.0) / n;
  const double mean_y = std::accumulate(y.begin(), y.end(), 0.0) / n;
  double covariance = 0;
  double variance_x = 0;
  double variance_y = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    covariance += (x[i] - mean_x) * (y[i] - mean_y);
    variance_x += (x[i] - mean_x) * (x[i] - mean_x);
    variance_y += (y[i] - mean_y) * (y[i] - mean_y);
  }
  return covariance / std::sqrt(variance_x * variance_y);
}

}  // namespace

std::vector<double> average_ranks(std::span<const double> values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<double> ranks(values.size());
  for (std::size_t start = 0; start < order.size();) {
    std::size_t end = start + 1;
    while (end < order.size() && values[order[end]] == values[order[start]]) ++end;
    // Positions start..end-1 hold ranks start+1..end; each gets their mean.
    const double shared = 0.5 * static_cast<double>(start + 1 + end);
    for (std::size_t i = start; i < end; ++i) ranks[order[i]] = shared;
    start = end;
  }
  return ranks;
}

double spearman_rho(std::span<const double> x, std::span<const double> y) {
  return pearson_r(average_ranks(x), average_ranks(y));
}

AccuracyMetrics accuracy_metrics(std::span<const double> measured,
                                 std::span<const double> predicted) {
  AccuracyMetrics metrics;
  metrics.cases = static_cast<int>(measured.size());
  if (measured.empty()) return metrics;
  std::vector<double> absolute;
  std::vector<double> log_measured;
  std::vector<double> log_predicted;
  double signed_sum = 0;
  int within_10 = 0;
  int within_20 = 0;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const double error = 100.0 * (predicted[i] - measured[i]) / measured[i];
    signed_sum += error;
    absolute.push_back(std::abs(error));
    within_10 += absolute.back() <= kWithin10Percent ? 1 : 0;
    within_20 += absolute.back() <= kWithin20Percent ? 1 : 0;
    log_measured.push_back(std::log(measured[i]));
    log_predicted.push_back(std::log(predicted[i]));
  }
  const double n = static_cast<double>(measured.size());
  metrics.mape_percent = std::accumulate(absolute.begin(), absolute.end(), 0.0) / n;
  metrics.median_ape_percent = median_of(absolute);
  metrics.max_ape_percent = *std::max_element(absolute.begin(), absolute.end());
  metrics.bias_percent = signed_sum / n;
  metrics.within_10_share = within_10 / n;
  metrics.within_20_share = within_20 / n;
  metrics.pearson_log_r = pearson_r(log_measured, log_predicted);
  metrics.spearman_rho = spearman_rho(measured, predicted);
  return metrics;
}

}  // namespace tilesim::report
