#include "kernels/microbench/microbench_result.hpp"

#include <algorithm>

namespace tilesim::microbench {

double median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  return n % 2 == 1 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

MicrobenchResult summarize(std::string name, std::string unit, std::string method,
                           std::vector<double> samples) {
  const auto [lowest, highest] = std::minmax_element(samples.begin(), samples.end());
  return {std::move(name),  median(samples), *lowest,
          *highest,         std::move(unit), static_cast<int>(samples.size()),
          std::move(method)};
}

}  // namespace tilesim::microbench
