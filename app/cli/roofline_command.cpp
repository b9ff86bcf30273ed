#include "app/cli/roofline_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include "app/cli/cli_context.hpp"
#include "app/explain/roofline.hpp"
#include "app/report/roofline_svg.hpp"
#include "workloads/measurement/measured_csv.hpp"
#include "workloads/measurement/measurement_comparison.hpp"
#include "workloads/study_runner.hpp"
#include "workloads/workload_cost.hpp"

namespace tilesim::cli {
namespace {

struct RooflineOptions {
  StudyInput input;
  std::string svg_path;
  std::string measured_path;
  double max_events = workloads::kDefaultMaxEvents;
};

// A run at its HBM intensity (filled circle) joined to itself at its L2
// intensity (hollow square).
void add_predicted(report::RooflineChart& chart, const workloads::WorkloadRun& run,
                   const std::string& series) {
  const explain::RooflinePosition at = explain::roofline_position(run);
  chart.marks.push_back({series, at.hbm_flops_per_byte(), at.flops_per_s(),
                         report::RooflineMarkShape::circle, std::nullopt});
  chart.marks.push_back({series, at.l2_flops_per_byte(), at.flops_per_s(),
                         report::RooflineMarkShape::hollow_square, chart.marks.size() - 1});
}

// The measured time at the predicted run's HBM intensity (a measurement has
// no byte counts), joined to the prediction.
void add_measured(report::RooflineChart& chart, const workloads::WorkloadRun& run,
                  const workloads::MeasuredGemm& row) {
  const std::string series = "measured: " + row.workload.kernel;
  const explain::RooflinePosition at = explain::roofline_position(run);
  chart.marks.push_back({series, at.hbm_flops_per_byte(), at.flops_per_s(),
                         report::RooflineMarkShape::circle, std::nullopt});
  chart.marks.push_back({series, at.hbm_flops_per_byte(), run.useful_flops / (row.time_us * 1e-6),
                         report::RooflineMarkShape::square, chart.marks.size() - 1});
}

void add_roofs(report::RooflineChart& chart, const hw::HardwareSpec& spec,
               const std::set<hw::DataType>& types) {
  const explain::RooflineCeilings any = explain::roofline_ceilings(spec, hw::DataType::bf16);
  chart.bandwidth_ceilings = {
      {fmt::format("shared memory {:.3g} TB/s", any.shared_memory_bytes_per_s * 1e-12),
       any.shared_memory_bytes_per_s},
      {fmt::format("L2 {:.3g} TB/s", any.l2_bytes_per_s * 1e-12), any.l2_bytes_per_s},
      {fmt::format("HBM {:.3g} TB/s (sustained)", any.hbm_bytes_per_s * 1e-12),
       any.hbm_bytes_per_s},
  };
  for (const hw::DataType type : types) {
    const explain::RooflineCeilings roof = explain::roofline_ceilings(spec, type);
    if (!roof.on_tensor_cores()) continue;
    chart.compute_roofs.push_back(
        {fmt::format("{} tensor cores {:.0f} TFLOP/s", hw::to_string(type),
                     roof.tensor_flops_per_s * 1e-12),
         roof.tensor_flops_per_s});
  }
  chart.compute_roofs.push_back(
      {fmt::format("fp32 CUDA cores {:.0f} TFLOP/s", any.fp32_flops_per_s * 1e-12),
       any.fp32_flops_per_s});
}

int run_roofline(const RooflineOptions& options) {
  const workloads::GemmScheduleRegistry schedules = workloads::builtin_gemm_schedules();
  config::Loaded<LoadedStudy> loaded = load_study_for_run(options.input, schedules);
  if (!loaded.ok()) {
    print_diagnostics(loaded.diagnostics);
    return kExitInputError;
  }
  const hw::HardwareSpec& spec = loaded.value->hardware;
  // The study as `simulate` checks it; measured rows as `compare` does, each
  // on its own (docs/limits.md).
  const config::Diagnostics over_budget =
      workloads::check_study_cost(loaded.value->study, spec, schedules, options.max_events);
  if (!over_budget.empty()) {
    print_diagnostics(over_budget);
    return kExitInputError;
  }
  gpu::SimulationOptions simulation;
  simulation.max_effort_events = workloads::effort_limit(options.max_events);
  config::Loaded<std::vector<workloads::WorkloadRun>> runs =
      workloads::run_study(loaded.value->study, spec, schedules, simulation);
  if (!runs.ok()) {
    print_diagnostics(runs.diagnostics);
    return kExitInputError;
  }
  std::vector<workloads::MeasuredGemm> rows;
  workloads::RunsWithinBudget measured;
  if (!options.measured_path.empty()) {
    config::Loaded<workloads::MeasuredRows> read =
        workloads::read_measured_csv(options.measured_path, schedules.names());
    if (!read.ok()) {
      print_diagnostics(read.diagnostics);
      return kExitInputError;
    }
    rows = std::move(read.value->gemms);  // attention rows have no roofline point yet
    config::Loaded<workloads::RunsWithinBudget> measured_runs = workloads::run_each_within_budget(
        workloads::measured_study(rows, workloads::LibrarySchedule::choose), spec, schedules,
        options.max_events);
    if (!measured_runs.ok()) {
      print_diagnostics(measured_runs.diagnostics);
      return kExitInputError;
    }
    measured = std::move(*measured_runs.value);
    print_skipped_rows(measured.skipped);
  }
  report::RooflineChart chart;
  chart.title = fmt::format("Roofline: {}, {}", spec.description,
                            std::filesystem::path(options.input.study_path).filename().string());
  std::set<hw::DataType> types;
  std::vector<std::string> left_out;
  for (const workloads::WorkloadRun& run : *runs.value) {
    const explain::RooflinePosition at = explain::roofline_position(run);
    if (at.flops <= 0 || at.hbm_bytes <= 0 || at.l2_bytes <= 0) {
      left_out.push_back(run.name);
      continue;
    }
    add_predicted(chart, run, run.name);
    types.insert(explain::run_data_type(run));
  }
  std::size_t measured_points = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!measured.runs[i]) continue;
    add_measured(chart, *measured.runs[i], rows[i]);
    types.insert(rows[i].workload.problem.input_type);
    ++measured_points;
  }
  add_roofs(chart, spec, types);
  chart.shape_notes = {
      {report::RooflineMarkShape::circle, "predicted, at its HBM intensity"},
      {report::RooflineMarkShape::hollow_square, "predicted, at its L2 intensity"}};
  if (measured_points > 0) {
    chart.shape_notes.push_back(
        {report::RooflineMarkShape::square, "measured (at the predicted HBM intensity)"});
  }
  if (!write_output(options.svg_path, report::render_roofline(chart))) return kExitInputError;
  std::cout << fmt::format(
      "{}: {} workloads{} on the {} roofline\n", options.svg_path,
      runs.value->size() - left_out.size(),
      rows.empty() ? "" : fmt::format(" and {} measured rows", measured_points), spec.name);
  if (!left_out.empty()) {
    std::cout << fmt::format("left out (no FLOPs or no bytes: no place on log axes): {}\n",
                             fmt::join(left_out, ", "));
  }
  if (!measured.skipped.empty()) {
    std::cout << fmt::format("left out: {} measured row{} over the cost budget (named on stderr)\n",
                             measured.skipped.size(), measured.skipped.size() == 1 ? "" : "s");
    return kExitRowsSkipped;
  }
  return kExitOk;
}

}  // namespace

void add_roofline_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<RooflineOptions>();
  CLI::App* command = app.add_subcommand(
      "roofline",
      "Draw the hardware's roofline (SVG) with every workload of a study, and measured runs");
  add_study_input_options(*command, options->input);
  command->add_option("--svg", options->svg_path, "Write the roofline SVG to PATH")->required();
  command->add_option("--measured", options->measured_path,
                      "Measurement CSV (tilesim compare's input): measured points beside the "
                      "predicted ones, on the study's hardware");
  add_max_events_option(*command, options->max_events);
  command->callback([options, &exit_code] { exit_code = run_roofline(*options); });
}

}  // namespace tilesim::cli
