#include "workloads/sweep/sweep_spec.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tilesim::workloads {

namespace {
constexpr std::string_view kHardwarePrefix = "hw.";
}  // namespace

std::string SweepAxis::hardware_key() const {
  return key.starts_with(kHardwarePrefix) ? key.substr(kHardwarePrefix.size()) : std::string();
}

bool SweepAxis::numeric() const {
  return std::all_of(values.begin(), values.end(),
                     [](const SweepValue& value) { return value.number.has_value(); });
}

std::string SweepAxis::label() const {
  return unit.empty() ? key : key + " (" + unit + ")";
}

std::size_t SweepSpec::point_count() const {
  std::size_t count = 1;
  for (const SweepAxis& axis : axes) count *= axis.values.size();
  return count;
}

std::vector<std::size_t> SweepSpec::value_indices(std::size_t point) const {
  std::vector<std::size_t> indices(axes.size());
  for (std::size_t i = axes.size(); i-- > 0;) {
    indices[i] = point % axes[i].values.size();
    point /= axes[i].values.size();
  }
  return indices;
}

std::string SweepSpec::point_description(std::size_t point) const {
  const std::vector<std::size_t> indices = value_indices(point);
  std::vector<std::string> parts;
  for (std::size_t axis = 0; axis < axes.size(); ++axis) {
    parts.push_back(fmt::format("{} = {}", axes[axis].key, axes[axis].values[indices[axis]].text));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

const SweepSource& SweepSpec::point_source(std::size_t point) const {
  return axes.front().values[value_indices(point).front()].source;
}

const char* plot_metric_name(PlotMetric metric) {
  switch (metric) {
    case PlotMetric::time_us:
      return "time_us";
    case PlotMetric::tflops:
      return "tflops";
    case PlotMetric::ttft_us:
      return "ttft_us";
    case PlotMetric::tpot_us:
      return "tpot_us";
    case PlotMetric::tokens_per_s:
      return "tokens_per_s";
    case PlotMetric::memory_bytes:
      return "memory_bytes";
  }
  return "?";
}

namespace {

constexpr PlotMetric kPlotMetrics[] = {PlotMetric::time_us,      PlotMetric::tflops,
                                       PlotMetric::ttft_us,      PlotMetric::tpot_us,
                                       PlotMetric::tokens_per_s, PlotMetric::memory_bytes};

}  // namespace

std::vector<std::string> plot_metric_names() {
  std::vector<std::string> names;
  for (const PlotMetric metric : kPlotMetrics) names.emplace_back(plot_metric_name(metric));
  return names;
}

PlotMetric parse_plot_metric(const std::string& name) {
  for (const PlotMetric metric : kPlotMetrics) {
    if (name == plot_metric_name(metric)) return metric;
  }
  return PlotMetric::time_us;
}

}  // namespace tilesim::workloads
