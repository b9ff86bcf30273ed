#include "workloads/sweep/sweep_loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <map>
#include <set>
#include <thread>

#include "hwmodels/guarded_read.hpp"
#include "hwmodels/yaml_file.hpp"
#include "hwmodels/yaml_schema.hpp"
#include "workloads/sweep/sweep_axis_reader.hpp"
#include "workloads/sweep/sweep_cost.hpp"
#include "workloads/sweep/sweep_hardware.hpp"
#include "workloads/sweep/sweep_point_study.hpp"

namespace tilesim::workloads {

using config::Param;
using config::Value;

namespace {

// At most this many points' problems are listed; the rest are summed up in one line.
constexpr std::size_t kMaxProblemPoints = 20;
// Points read beside problems the file already has: enough to report what is
// wrong with the values, few enough that a bad file is refused at once (a
// point costs about 0.25 ms to read and lower).
constexpr std::size_t kPointsReadBesideOtherProblems = 256;
// Points read between two reports: few enough that a file whose points are all
// bad stops soon after kMaxProblemPoints, many enough to keep the threads busy.
constexpr std::size_t kPointsPerRound = 128;
const config::SourceLocation kHwOption{"--hw", 0, 0};

// The top-level keys as read; the maps and lists are read further below.
struct SweepFile {
  std::string hardware;
  config::SourceLocation hardware_where;
  PlotMetric plot_y = PlotMetric::time_us;
  std::string plot_title;
};

config::Schema<SweepFile> sweep_schema() {
  config::Schema<SweepFile> s;
  s.add(Param::text("hardware")
            .describe("A name under configs/hw/ (`h100_sxm`) or a path to a hardware YAML file."),
        [](SweepFile& file, const Value& value) {
          file.hardware = value.text;
          file.hardware_where = value.where;
        });
  s.add(Param::entries("workload")
            .describe("One workload with the keys of a study's `workloads[]` entry (GEMM, "
                      "attention, graph or layer); `name` is optional (default `point`)."));
  s.add(Param::sequence("schedules")
            .optional()
            .not_empty()
            .describe("Schedules (GEMM) or variants (attention) to simulate every point "
                      "with, in order; default: the workload's own. Graph and layer workloads "
                      "take none (their `launch: compare` draws eager and CUDA graph). A heat "
                      "map compares the first two."));
  s.add(Param::sequence("vary").not_empty().describe(
      "One or two keys to vary (see below); the points are their cartesian product, the first "
      "key outermost."));
  s.add(Param::choice("plot.y", plot_metric_names())
            .default_to("time_us")
            .describe("What the plot shows: predicted time or throughput; for a `model:` "
                      "workload also `ttft_us`, `tpot_us`, `tokens_per_s` or `memory_bytes` "
                      "(drawn in GB against the GPU's HBM capacity)."),
        [](SweepFile& file, const Value& value) { file.plot_y = parse_plot_metric(value.text); });
  s.add(Param::text("plot.title")
            .optional()
            .describe("Plot title; default: made up from the "
                      "keys and the hardware."),
        [](SweepFile& file, const Value& value) { file.plot_title = value.text; });
  return s;
}

std::vector<PointSchedule> read_schedules(const YAML::Node& list, const std::string& file,
                                          config::Diagnostics& diagnostics) {
  std::vector<PointSchedule> schedules;
  std::map<std::string, int> first_line;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const SweepSource source{config::location_of(list[i].Mark(), file),
                             fmt::format("schedules[{}]", i)};
    if (!list[i].IsScalar()) {
      diagnostics.add(source.where, source.key_path, "expected a schedule name");
      continue;
    }
    const std::string& name = list[i].Scalar();
    if (const auto [seen, inserted] = first_line.emplace(name, source.where.line); !inserted) {
      diagnostics.add(
          source.where, source.key_path,
          fmt::format("duplicate schedule `{}`; first given on line {}", name, seen->second));
      continue;
    }
    schedules.push_back({name, source});
  }
  return schedules;
}

// Graph, layer and model workloads are told apart by their launch, not a schedule.
bool takes_schedules(const YAML::Node& workload) {
  return !workload.IsMap() || (!workload["graph"] && !workload["layer"] && !workload["model"]);
}

std::size_t simulation_count(const std::vector<SweepAxis>& axes,
                             const std::vector<PointSchedule>& schedules) {
  std::size_t simulations = std::max<std::size_t>(schedules.size(), 1);
  for (const SweepAxis& axis : axes) simulations *= axis.values.size();
  return simulations;
}

// Checking a point takes about as long as simulating a small one, so a sweep
// too large for the budget is refused before its points are checked.
bool fits_budget(std::size_t simulations, const SweepLoadOptions& options) {
  return static_cast<double>(simulations) * kEventsPerSweepSimulation <= options.max_events;
}

// Checks that need the whole file: keys set twice, conflicting options, size.
void check_combination(const YAML::Node& workload, const std::vector<SweepAxis>& axes,
                       const std::vector<PointSchedule>& schedules, const std::string& file,
                       const SweepLoadOptions& options, config::Diagnostics& diagnostics) {
  if (!schedules.empty() && workload.IsMap()) {
    for (auto it = workload.begin(); it != workload.end(); ++it) {
      if (!it->first.IsScalar()) continue;
      const std::string& key = it->first.Scalar();
      if (key == "schedule" || key == "variant") {
        diagnostics.add(config::location_of(it->first.Mark(), file), "workload." + key,
                        fmt::format("the top-level `schedules:` list sets the {} of every point; "
                                    "remove one of them",
                                    key));
      } else if (key == "graph" || key == "layer" || key == "model") {
        diagnostics.add(schedules.front().source.where, schedules.front().source.key_path,
                        fmt::format("a `{}` workload has no schedules; vary `{}.launch` (eager, "
                                    "cuda_graph) or set it to `compare`",
                                    key, key));
      }
    }
  }
  for (const SweepAxis& axis : axes) {
    if (axis.target == SweepTarget::hardware && options.hardware_override) {
      diagnostics.add(kHwOption, "", "--hw cannot be used with a sweep that varies `hardware`");
    }
    for (const hw::FieldOverride& field : options.overrides) {
      if (axis.target == SweepTarget::hardware_field && field.key_path == axis.hardware_key()) {
        diagnostics.add(axis.key_source.where, axis.key_source.key_path,
                        fmt::format("`{}` is varied here and also set by --set {}={}", axis.key,
                                    field.key_path, field.value));
      }
    }
  }
  if (!fits_budget(simulation_count(axes, schedules), options) && !axes.empty()) {
    diagnostics.add(
        axes.front().key_source.where, "vary",
        fmt::format("the sweep asks for {} simulations (points x schedules); each costs at least "
                    "{} events of the budget of {:.3g} (docs/limits.md), so at most {:.0f} fit; "
                    "raise it with --max-events",
                    simulation_count(axes, schedules), kEventsPerSweepSimulation,
                    options.max_events, options.max_events / kEventsPerSweepSimulation));
  }
}

// Reads, checks and lowers every point once the file itself reads cleanly.
class PointReader {
 public:
  PointReader(SweepSpec& spec, const std::vector<SweepAxis>& unchecked, const YAML::Node& workload,
              const std::string& file, const SweepLoadOptions& options,
              config::Diagnostics& diagnostics)
      : spec_(spec),
        unchecked_(unchecked),
        study_(workload, file, options.schedule_names, options.config_dir, !spec.axes.empty()),
        hardware_(options.config_dir, options.profile_cache),
        file_(file),
        options_(options),
        diagnostics_(diagnostics) {}

  // Resolves the GPU files: the sweep's (or --hw) and a `hardware` axis's values.
  void resolve_hardware(const SweepFile& sweep) {
    const bool varied = std::any_of(spec_.axes.begin(), spec_.axes.end(), [](const auto& axis) {
      return axis.target == SweepTarget::hardware;
    });
    if (!varied) {
      const SweepSource source = options_.hardware_override
                                     ? SweepSource{kHwOption, ""}
                                     : SweepSource{sweep.hardware_where, "hardware"};
      base_hardware_ = resolve(spec_.hardware_reference, source);
    }
    for (const SweepAxis& axis : spec_.axes) {
      if (axis.target != SweepTarget::hardware) continue;
      for (const SweepValue& value : axis.values) {
        axis_hardware_.push_back(resolve(value.text, value.source));
      }
    }
  }

  std::vector<hw::HardwareSpec> take_hardware() && { return std::move(hardware_).take_specs(); }

  // Problems of the first point are reported as they are; a later point's are
  // reported only when new, naming the point when the problem does not point at
  // a `vary:` value itself. Points are read in rounds: their GPUs in point order
  // (a GPU file loads once, its problems going to the first point that names
  // it), their workloads on `options.threads` threads, then their problems and
  // jobs in point order, so the result is the same for any number of threads.
  void read_points(const std::vector<PointSchedule>& schedules, std::size_t max_points) {
    const std::size_t points = std::min(spec_.point_count(), max_points);
    for (std::size_t first = 0; first < points; first += kPointsPerRound) {
      std::vector<PointRead> round(std::min(kPointsPerRound, points - first));
      for (std::size_t i = 0; i < round.size(); ++i) choose_hardware(first + i, round[i]);
      read_workloads(first, schedules, round);
      for (std::size_t i = 0; i < round.size(); ++i) {
        if (!report(first + i, round[i])) return;
      }
    }
  }

 private:
  // What reading one point found.
  struct PointRead {
    std::vector<PointSetting> settings;
    std::optional<std::size_t> hardware_index;
    config::Diagnostics problems;
    std::vector<SweepJob> jobs;
    std::exception_ptr crash;  // a bug, rethrown on the reading thread
  };

  // Reads the workloads of round[i] (point first + i) on the worker threads.
  void read_workloads(std::size_t first, const std::vector<PointSchedule>& schedules,
                      std::vector<PointRead>& round) {
    std::atomic<std::size_t> next = 0;
    auto work = [&] {
      for (std::size_t i = next++; i < round.size(); i = next++) {
        try {
          read_workload(first + i, schedules, round[i]);
        } catch (...) {
          round[i].crash = std::current_exception();
        }
      }
    };
    {
      const auto threads =
          std::clamp<std::size_t>(static_cast<std::size_t>(options_.threads), 1, round.size());
      std::vector<std::jthread> workers;
      for (std::size_t t = 1; t < threads; ++t) workers.emplace_back(work);
      work();
    }  // the workers join here
    for (const PointRead& read : round) {
      if (read.crash) std::rethrow_exception(read.crash);
    }
  }

  // Adds a point's new problems; false once too many points have problems.
  bool report(std::size_t point, PointRead& read) {
    for (SweepJob& job : read.jobs) spec_.jobs.push_back(std::move(job));
    config::Diagnostics fresh;
    for (const config::Diagnostic& problem : read.problems.items()) {
      const std::string text = problem_text(problem);
      const bool at_value =
          problem.key_path.starts_with("vary[") || problem.key_path.starts_with("schedules[");
      if (point == 0) first_point_problems_.insert(text);
      if (point == 0 || at_value) {
        if (reported_.insert(text).second)
          fresh.add(problem.where, problem.key_path, problem.message);
      } else if (!first_point_problems_.contains(text)) {
        const std::string message =
            fmt::format("{} (at {})", problem.message, spec_.point_description(point));
        if (reported_.insert(text + message).second) {
          fresh.add(problem.where, problem.key_path, message);
        }
      }
    }
    if (fresh.empty()) return true;
    if (++problem_points_ > kMaxProblemPoints) {
      // Only points past the first have a point of their own, so there are axes.
      diagnostics_.add(spec_.axes.front().key_source.where, "vary",
                       fmt::format("more than {} points have problems; fix the ones above "
                                   "first",
                                   kMaxProblemPoints));
      return false;
    }
    diagnostics_.append(fresh);
    return true;
  }

  std::filesystem::path resolve(const std::string& reference, const SweepSource& source) {
    config::Loaded<std::filesystem::path> path =
        resolve_sweep_hardware(reference, file_, options_.config_dir, source.where);
    for (const config::Diagnostic& problem : path.diagnostics.items()) {
      diagnostics_.add(problem.where, source.key_path, problem.message);
    }
    return path.value.value_or("");
  }

  static std::string problem_text(const config::Diagnostic& problem) {
    return fmt::format("{}:{}:{}:{}:{}", problem.where.file, problem.where.line,
                       problem.where.column, problem.key_path, problem.message);
  }

  // The point's workload settings and GPU (loaded here when new).
  void choose_hardware(std::size_t point, PointRead& read) {
    const std::vector<std::size_t> indices = spec_.value_indices(point);
    HardwareChoice hardware{base_hardware_, {}};
    for (const hw::FieldOverride& field : options_.overrides) {
      hardware.overrides.push_back({field, std::nullopt});
    }
    for (std::size_t axis_index = 0; axis_index < spec_.axes.size(); ++axis_index) {
      const SweepAxis& axis = spec_.axes[axis_index];
      const SweepValue& value = axis.values[indices[axis_index]];
      switch (axis.target) {
        case SweepTarget::workload:
          read.settings.push_back({axis.key, value.text, value.source, axis.key_source});
          break;
        case SweepTarget::hardware_field:
          hardware.overrides.push_back({{axis.hardware_key(), value.text}, value.source});
          break;
        case SweepTarget::hardware:
          hardware.path = axis_hardware_.at(indices[axis_index]);
          break;
      }
    }
    for (const SweepAxis& axis : unchecked_) {
      read.settings.push_back(
          {axis.key, axis.values.front().text, axis.values.front().source, axis.key_source});
    }
    // A GPU that could not be found was reported; the workload is still checked.
    if (!hardware.path.empty()) read.hardware_index = hardware_.load(hardware, read.problems);
  }

  // Safe on several threads at once: reads the GPUs chosen before, writes only `read`.
  void read_workload(std::size_t point, const std::vector<PointSchedule>& schedules,
                     PointRead& read) const {
    // With a stand-in value the kernel is not resolved: its problems would be the stand-in's.
    const hw::HardwareSpec* spec = read.hardware_index.has_value() && unchecked_.empty()
                                       ? &hardware_.spec(read.hardware_index.value())
                                       : nullptr;
    std::vector<std::optional<PointSchedule>> point_schedules(schedules.begin(), schedules.end());
    if (point_schedules.empty()) point_schedules.emplace_back();
    for (const std::optional<PointSchedule>& schedule : point_schedules) {
      config::Loaded<Workload> workload =
          study_.load(read.settings, schedule, spec,
                      spec_.axes.size() > 1 ? spec_.point_description(point) : "");
      for (const config::Diagnostic& problem : workload.diagnostics.items()) {
        if (!about_stand_in(problem))
          read.problems.add(problem.where, problem.key_path, problem.message);
      }
      if (workload.ok() && spec != nullptr) {
        read.jobs.push_back(
            {0, point, std::move(*workload.value), read.hardware_index.value_or(0)});
      }
    }
  }

  // A problem with a stand-in value, or with the key it stands in for
  // ("missing required key" when the workload does not give it either).
  bool about_stand_in(const config::Diagnostic& problem) const {
    if (problem.key_path == kStandInKeyPath) return true;
    return std::any_of(unchecked_.begin(), unchecked_.end(), [&](const SweepAxis& axis) {
      const std::string key = "workload." + axis.key;
      return problem.key_path == key || problem.key_path.starts_with(key + ".");
    });
  }

  SweepSpec& spec_;
  const std::vector<SweepAxis>& unchecked_;
  SweepPointStudy study_;
  SweepHardware hardware_;
  std::set<std::string> first_point_problems_;
  std::set<std::string> reported_;
  std::size_t problem_points_ = 0;
  std::filesystem::path base_hardware_;
  std::vector<std::filesystem::path> axis_hardware_;
  const std::string& file_;
  const SweepLoadOptions& options_;
  config::Diagnostics& diagnostics_;
};

config::Loaded<SweepSpec> read_sweep(const std::optional<YAML::Node>& root, const std::string& file,
                                     const SweepLoadOptions& options,
                                     config::Diagnostics diagnostics) {
  return config::guarded_read<SweepSpec>(
      file, std::move(diagnostics), [&](config::Diagnostics& problems) -> std::optional<SweepSpec> {
        if (!root) return std::nullopt;
        SweepFile sweep;
        config::ReadContext context;
        context.file = file;
        const config::Values values = sweep_schema().read(*root, context, sweep, problems);
        SweepSpec spec;
        spec.source_path = file;
        spec.hardware_reference = options.hardware_override.value_or(sweep.hardware);
        spec.plot_y = sweep.plot_y;
        spec.plot_title = sweep.plot_title;
        SweepAxes axes;
        if (const auto vary = values.find("vary"); vary != values.end()) {
          axes = read_sweep_axes(vary->second.node, file, problems);
          spec.axes = std::move(axes.axes);
        }
        std::vector<PointSchedule> schedules;
        if (const auto list = values.find("schedules"); list != values.end()) {
          schedules = read_schedules(list->second.node, file, problems);
        }
        const auto workload = values.find("workload");
        if (workload != values.end()) {
          check_combination(workload->second.node, spec.axes, schedules, file, options, problems);
          // Reported above; the points are still read, without schedules.
          if (!takes_schedules(workload->second.node)) schedules.clear();
        }
        // Points are checked even when the file has other problems, so that every
        // problem is reported at once; entries with a bad key are left out.
        if (workload != values.end() &&
            fits_budget(simulation_count(spec.axes, schedules), options)) {
          PointReader points(spec, axes.unchecked, workload->second.node, file, options, problems);
          points.resolve_hardware(sweep);
          points.read_points(
              schedules, problems.empty() ? spec.point_count() : kPointsReadBesideOtherProblems);
          spec.hardware = std::move(points).take_hardware();
        }
        for (std::size_t job = 0; job < spec.jobs.size(); ++job) spec.jobs[job].number = job;
        for (const PointSchedule& schedule : schedules) spec.schedules.push_back(schedule.name);
        if (spec.schedules.empty() && !spec.jobs.empty()) {
          spec.schedules.push_back(workload_series(spec.jobs.front().workload));
        }
        return spec;
      });
}

}  // namespace

config::Loaded<SweepSpec> load_sweep(const std::filesystem::path& path,
                                     const SweepLoadOptions& options) {
  config::Diagnostics diagnostics;
  const std::optional<YAML::Node> root = config::load_yaml_file(path, diagnostics);
  return read_sweep(root, path.string(), options, std::move(diagnostics));
}

config::Loaded<SweepSpec> load_sweep_text(const std::string& text, const std::string& origin,
                                          const SweepLoadOptions& options) {
  config::Diagnostics diagnostics;
  const std::optional<YAML::Node> root = config::load_yaml_text(text, origin, diagnostics);
  return read_sweep(root, origin, options, std::move(diagnostics));
}

std::vector<config::ReferenceSection> sweep_reference_sections() {
  return {
      {"Sweep file (configs/sweeps/*.yaml)",
       "One workload simulated over a grid of values: `tilesim sweep` (docs/sweeps.md).", "",
       sweep_schema().params()},
      {"Varied keys (`vary:` of a sweep)",
       "Each entry names a key and its values, as a list or a range.", "vary[].",
       vary_entry_schema().params()},
  };
}

}  // namespace tilesim::workloads
