#include "app/report/plot_axis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "hwmodels/quantity.hpp"

namespace tilesim::report {

namespace {

constexpr double kTargetTicks = 5;
constexpr int kMaxLogTicks = 10;
constexpr double kSlack = 1e-9;

// 1, 2 or 5 times a power of ten, near `raw`.
double nice_step(double raw) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double residual = raw / magnitude;
  const double nice = residual < 1.5 ? 1 : residual < 3 ? 2 : residual < 7 ? 5 : 10;
  return nice * magnitude;
}

// Rounds away the error of low + i * step, so 0.1 steps give 0.3, not 0.30000000000000004.
double tidy(double value) {
  return std::stod(fmt::format("{:.12g}", value));
}

}  // namespace

PlotAxis::PlotAxis(double low, double high, bool logarithmic, std::vector<double> ticks)
    : low_(low), high_(high), logarithmic_(logarithmic), ticks_(std::move(ticks)) {}

PlotAxis PlotAxis::linear(double low, double high, bool include_zero) {
  if (include_zero) {
    low = std::min(low, 0.0);
    high = std::max(high, 0.0);
  }
  if (high <= low) high = low + std::max(std::abs(low), 1.0);
  const double step = nice_step((high - low) / kTargetTicks);
  const double first = std::floor(low / step + kSlack) * step;
  const double last = std::ceil(high / step - kSlack) * step;
  std::vector<double> ticks;
  for (int i = 0; first + i * step <= last + step * kSlack; ++i)
    ticks.push_back(tidy(first + i * step));
  return PlotAxis(first, last, false, std::move(ticks));
}

PlotAxis PlotAxis::linear_within(double low, double high) {
  std::vector<double> ticks;
  for (const double tick : linear(low, high, false).ticks()) {
    if (tick >= low - kSlack * std::abs(low) && tick <= high + kSlack * std::abs(high)) {
      ticks.push_back(tick);
    }
  }
  if (ticks.size() < 2) ticks = low < high ? std::vector<double>{low, high} : std::vector{low};
  if (high <= low) high = low + std::max(std::abs(low), 1.0);
  return PlotAxis(low, high, false, std::move(ticks));
}

PlotAxis PlotAxis::logarithmic(double low, double high) {
  if (high <= low) {
    low /= 2;
    high *= 2;
  }
  std::vector<double> all;
  std::vector<double> decades;
  for (int exponent = static_cast<int>(std::floor(std::log10(low)));
       exponent <= static_cast<int>(std::ceil(std::log10(high))); ++exponent) {
    for (const double mantissa : {1.0, 2.0, 5.0}) {
      const double value = tidy(mantissa * std::pow(10.0, exponent));
      if (value < low * (1 - kSlack) || value > high * (1 + kSlack)) continue;
      all.push_back(value);
      if (mantissa == 1.0) decades.push_back(value);
    }
  }
  std::vector<double> ticks = static_cast<int>(all.size()) > kMaxLogTicks ? decades : all;
  if (ticks.size() < 2) ticks = {low, high};
  return PlotAxis(low, high, true, std::move(ticks));
}

void PlotAxis::set_pixels(double pixel_at_low, double pixel_at_high) {
  pixel_at_low_ = pixel_at_low;
  pixel_at_high_ = pixel_at_high;
}

double PlotAxis::pixel(double value) const {
  const double fraction = logarithmic_ ? std::log(value / low_) / std::log(high_ / low_)
                                       : (value - low_) / (high_ - low_);
  return pixel_at_low_ + fraction * (pixel_at_high_ - pixel_at_low_);
}

std::string tick_label(double value) {
  return config::format_number(value);
}

}  // namespace tilesim::report
