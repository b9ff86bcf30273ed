#pragma once
// A sweep: one study workload simulated over a grid of parameter values, with
// one or more schedules, as read from a sweep YAML (configs/sweeps/*.yaml).
// Validated before anything runs: every point is already a checked workload
// (GEMM, attention, graph or layer) on a loaded HardwareSpec, so running a
// sweep cannot fail on input.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "workloads/study.hpp"

namespace tilesim::workloads {

// What a `vary:` key changes.
enum class SweepTarget {
  workload,        // a key path of the workload: gemm.m, tile.k, splits, ...
  hardware_field,  // hw.<key path> of the hardware file: hw.l2.capacity
  hardware,        // `hardware`: the GPU itself, a name or path per value
};

// Where in the sweep file something was written, for problems found later.
struct SweepSource {
  config::SourceLocation where;
  std::string key_path;  // "vary[1].values[2]", "vary[1].range", "schedules[0]"
};

// One value of a varied key.
struct SweepValue {
  std::string text;              // as set in the workload or hardware: "256", "50 MiB"
  std::optional<double> number;  // in the axis unit, for plots; none for names
  SweepSource source;            // the list item, or the `range:` it was expanded from
};

// One `vary:` entry: a key and the values it takes, in order.
struct SweepAxis {
  std::string key;  // as written: "gemm.m", "hw.l2.capacity", "hardware"
  SweepTarget target = SweepTarget::workload;
  std::string unit;  // of SweepValue::number: "MiB"; empty for plain numbers and names
  std::vector<SweepValue> values;
  std::string entry_path;  // "vary[1]"
  SweepSource key_source;  // the `key:` value

  // The key inside the hardware file, for hw.<path> keys ("l2.capacity").
  std::string hardware_key() const;
  // Every value has a number, so the axis can be drawn to scale.
  bool numeric() const;
  // "hw.l2.capacity (MiB)", for plot axes.
  std::string label() const;
};

// What a sweep plots: any run's time or throughput, or a model's serving
// figure (a column of the CSV of that name).
enum class PlotMetric { time_us, tflops, ttft_us, tpot_us, tokens_per_s, memory_bytes };
// Its `plot.y` name, which is also its CSV column.
const char* plot_metric_name(PlotMetric metric);
std::vector<std::string> plot_metric_names();
// A name of plot_metric_names(); time_us for any other.
PlotMetric parse_plot_metric(const std::string& name);

// One simulation of the sweep: a point of the grid with one schedule.
struct SweepJob {
  std::size_t number = 0;    // its place among the whole sweep's jobs, kept in a shard's share
  std::size_t point = 0;     // index into the grid, first axis outermost
  Workload workload;         // with the point's values and schedule applied
  std::size_t hardware = 0;  // index into SweepSpec::hardware
};

struct SweepSpec {
  std::string source_path;
  std::string hardware_reference;      // as written (or --hw): a name or a path
  std::vector<SweepAxis> axes;         // 1 or 2; the grid is their cartesian product
  std::vector<std::string> schedules;  // each point is simulated with each, in order
  PlotMetric plot_y = PlotMetric::time_us;
  std::string plot_title;                  // empty: a title is made up
  std::vector<hw::HardwareSpec> hardware;  // one per distinct set of hardware values
  std::vector<SweepJob> jobs;              // point-major, schedules inner

  std::size_t point_count() const;
  // The value index on each axis of grid point `point`.
  std::vector<std::size_t> value_indices(std::size_t point) const;
  // "gemm.m = 256, hw.l2.capacity = 25 MiB"
  std::string point_description(std::size_t point) const;
  // Where a problem of the whole point is reported: its value on the first axis.
  const SweepSource& point_source(std::size_t point) const;
};

}  // namespace tilesim::workloads
