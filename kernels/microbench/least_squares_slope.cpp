#include "kernels/microbench/least_squares_slope.hpp"

namespace tilesim::microbench {

double least_squares_slope(const std::vector<std::pair<double, double>>& points) {
  const double n = static_cast<double>(points.size());
  double mean_x = 0;
  double mean_y = 0;
  for (const auto& [x, y] : points) {
    mean_x += x / n;
    mean_y += y / n;
  }
  double covariance = 0;
  double variance = 0;
  for (const auto& [x, y] : points) {
    covariance += (x - mean_x) * (y - mean_y);
    variance += (x - mean_x) * (x - mean_x);
  }
  return covariance / variance;
}

}  // namespace tilesim::microbench
