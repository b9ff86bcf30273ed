#include "app/report/sweep_plots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include "app/report/heat_map.hpp"
#include "app/report/line_chart.hpp"

namespace tilesim::report {

namespace {

using workloads::PlotMetric;
using workloads::SweepAxis;
using workloads::SweepResult;
using workloads::SweepSpec;
using workloads::SweepTarget;

// The runs by series (a schedule) and grid point.
class RunGrid {
 public:
  RunGrid(const SweepSpec& spec, const SweepResult& result) : result_(result) {
    for (std::size_t i = 0; i < result.runs.size(); ++i) {
      const std::string& series = result.run_series.at(i);
      if (std::find(series_.begin(), series_.end(), series) == series_.end()) {
        series_.push_back(series);
      }
      runs_.emplace(std::make_pair(series, result.run_points.at(i)), i);
    }
    points_ = spec.point_count();
  }

  const std::vector<std::string>& series() const { return series_; }
  std::size_t points() const { return points_; }

  std::optional<double> value(const std::string& series, std::size_t point,
                              PlotMetric metric) const {
    const auto found = runs_.find({series, point});
    if (found == runs_.end()) return std::nullopt;
    const workloads::RunSummary& run = result_.runs[found->second];
    if (metric == PlotMetric::time_us) return run.time_us;
    if (metric == PlotMetric::tflops) return run.tflops;
    const std::optional<double> figure = number(run, workloads::plot_metric_name(metric));
    // Bytes are drawn in GB.
    return figure && metric == PlotMetric::memory_bytes ? std::optional(*figure / 1e9) : figure;
  }

  // A numeric parameter or figure of the run: a number when simulated, text
  // when read back from a CSV.
  static std::optional<double> number(const workloads::RunSummary& run, const std::string& key) {
    for (const workloads::WorkloadParameter& parameter : run.parameters) {
      if (parameter.key != key) continue;
      if (const auto* value = std::get_if<double>(&parameter.value)) return *value;
      if (const auto* value = std::get_if<std::int64_t>(&parameter.value)) return double(*value);
      try {
        return std::stod(std::get<std::string>(parameter.value));
      } catch (const std::exception&) {
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  // The GPU's HBM capacity, from the first run that names it.
  std::optional<double> hbm_capacity_bytes() const {
    for (const workloads::RunSummary& run : result_.runs) {
      if (const auto capacity = number(run, "hbm_capacity_bytes")) return capacity;
    }
    return std::nullopt;
  }

 private:
  const SweepResult& result_;
  std::vector<std::string> series_;
  std::map<std::pair<std::string, std::size_t>, std::size_t> runs_;
  std::size_t points_ = 0;
};

std::string metric_label(PlotMetric metric) {
  switch (metric) {
    case PlotMetric::time_us:
      return "time (us)";
    case PlotMetric::tflops:
      return "throughput (TFLOP/s)";
    case PlotMetric::ttft_us:
      return "time to first token (us)";
    case PlotMetric::tpot_us:
      return "time per output token (us)";
    case PlotMetric::tokens_per_s:
      return "output tokens/s";
    case PlotMetric::memory_bytes:
      return "weights + KV cache (GB)";
  }
  return "";
}

std::string metric_title(PlotMetric metric) {
  switch (metric) {
    case PlotMetric::tflops:
      return "Predicted throughput";
    case PlotMetric::tokens_per_s:
      return "Predicted tokens/s";
    case PlotMetric::memory_bytes:
      return "HBM in use";
    case PlotMetric::time_us:
    case PlotMetric::ttft_us:
    case PlotMetric::tpot_us:
      return "Predicted time";
  }
  return "";
}

// " on h100_sxm", unless the hardware is what varies.
std::string on_hardware(const SweepSpec& spec) {
  const bool varied = std::any_of(spec.axes.begin(), spec.axes.end(), [](const SweepAxis& axis) {
    return axis.target == SweepTarget::hardware;
  });
  return varied ? "" : fmt::format(" on {}", spec.hardware_reference);
}

std::vector<std::string> value_names(const SweepAxis& axis) {
  std::vector<std::string> names;
  for (const workloads::SweepValue& value : axis.values) names.push_back(value.text);
  return names;
}

std::string line_chart_svg(const SweepSpec& spec, const RunGrid& grid) {
  const SweepAxis& axis = spec.axes.front();
  LineChart chart;
  chart.title = spec.plot_title.empty() ? fmt::format("{} vs {}{}", metric_title(spec.plot_y),
                                                      axis.key, on_hardware(spec))
                                        : spec.plot_title;
  chart.x_label = axis.label();
  chart.y_label = metric_label(spec.plot_y);
  chart.x_names = value_names(axis);
  if (axis.numeric()) {
    chart.x_numbers.emplace();
    for (const workloads::SweepValue& value : axis.values)
      chart.x_numbers->push_back(*value.number);
  }
  for (const std::string& series : grid.series()) {
    LineSeries line{series, {}};
    for (std::size_t point = 0; point < grid.points(); ++point) {
      line.y.push_back(grid.value(series, point, spec.plot_y));
    }
    chart.series.push_back(std::move(line));
  }
  // The out-of-memory frontier: points above the line do not fit.
  const std::optional<double> capacity = grid.hbm_capacity_bytes();
  if (spec.plot_y == PlotMetric::memory_bytes && capacity) {
    chart.limit = LimitLine{*capacity / 1e9,
                            fmt::format("HBM {:.0f} GB: out of memory above", *capacity / 1e9)};
  }
  return render_line_chart(chart);
}

std::string heat_map_svg(const SweepSpec& spec, const RunGrid& grid) {
  const SweepAxis& x = spec.axes[0];
  const SweepAxis& y = spec.axes[1];
  HeatMap map;
  map.x_label = x.label();
  map.y_label = y.label();
  map.columns = value_names(x);
  map.rows = value_names(y);
  const bool compare = grid.series().size() >= 2;
  map.scale = compare ? HeatScale::ratio : HeatScale::sequential;
  if (compare) {
    const std::string& base = grid.series()[0];
    const std::string& other = grid.series()[1];
    map.title = fmt::format("Speedup of {} over {}{}", other, base, on_hardware(spec));
    map.value_label = fmt::format("time({}) / time({})", base, other);
  } else {
    map.title = fmt::format("{}{}", metric_title(spec.plot_y), on_hardware(spec));
    map.value_label = metric_label(spec.plot_y);
  }
  if (!spec.plot_title.empty()) map.title = spec.plot_title;
  // Grid points run with x outermost; the map is rows (y) of columns (x).
  map.values.resize(map.rows.size() * map.columns.size());
  for (std::size_t point = 0; point < grid.points(); ++point) {
    const std::vector<std::size_t> at = spec.value_indices(point);
    std::optional<double> value;
    if (compare) {
      const auto base = grid.value(grid.series()[0], point, PlotMetric::time_us);
      const auto other = grid.value(grid.series()[1], point, PlotMetric::time_us);
      if (base && other && *other > 0) value = *base / *other;
    } else {
      value = grid.value(grid.series().front(), point, spec.plot_y);
    }
    map.values[at[1] * map.columns.size() + at[0]] = value;
  }
  return render_heat_map(map);
}

}  // namespace

std::string sweep_plot_svg(const SweepSpec& spec, const SweepResult& result) {
  const RunGrid grid(spec, result);
  if (spec.axes.size() >= 2 && !grid.series().empty()) return heat_map_svg(spec, grid);
  return line_chart_svg(spec, grid);
}

}  // namespace tilesim::report
