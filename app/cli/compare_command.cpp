#include "app/cli/compare_command.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/cli/cli_context.hpp"
#include "app/report/comparison_report.hpp"
#include "app/report/html_report.hpp"
#include "app/report/model_comparison_report.hpp"
#include "hwmodels/calibrated_hardware.hpp"
#include "workloads/measurement/measured_csv.hpp"
#include "workloads/measurement/measurement_comparison.hpp"
#include "workloads/measurement/measurement_sidecar.hpp"
#include "workloads/workload_cost.hpp"

namespace tilesim::cli {
namespace {

struct CompareOptions {
  std::string measured_path;
  std::optional<std::string> hardware;
  std::vector<std::string> assignments;
  std::string library_schedule = "choose";
  std::string host_dispatch = "probe";
  std::string json_path;
  std::string svg_path;
  double max_events = workloads::kDefaultMaxEvents;
  bool approximate = false;
  std::string html_path;
};

// The sidecar names the GPU measured; its calibrated description, where one
// ships, predicts it better than the datasheet's (docs/validation.md), so it
// stands in unless --hw names a file.
std::optional<std::string> default_hardware(const std::string& measured_path) {
  const std::optional<std::string> measured_on = workloads::sidecar_study_hardware(measured_path);
  if (!measured_on) return std::nullopt;
  return hw::calibrated_hardware_name(*measured_on, config_dir()).value_or(*measured_on);
}

// "hardware: <name>   measured: <csv>", saying so when a calibrated file stood in.
std::string heading(const CompareOptions& options, const hw::HardwareSpec& hardware) {
  std::string text = "hardware: " + hardware.name;
  const std::optional<std::string> measured_on =
      workloads::sidecar_study_hardware(options.measured_path);
  if (!options.hardware && measured_on &&
      hw::calibrated_hardware_name(*measured_on, config_dir())) {
    text += " (calibrated stand-in for the sidecar's " + *measured_on + "; --hw " + *measured_on +
            " to use that file)";
  }
  return text + "   measured: " + options.measured_path + "\n\n";
}

config::Loaded<hw::HardwareSpec> load_hardware(const CompareOptions& options) {
  config::Loaded<hw::HardwareSpec> loaded;
  const std::optional<std::string> reference =
      options.hardware ? options.hardware : default_hardware(options.measured_path);
  if (!reference) {
    loaded.diagnostics.add({"--hw", 0, 0}, "hw",
                           "no hardware given and no `study_hardware` in the CSV's JSON sidecar; "
                           "name one with --hw (e.g. --hw h100_sxm)");
    return loaded;
  }
  config::Loaded<std::vector<hw::FieldOverride>> overrides =
      hw::parse_field_overrides(options.assignments);
  if (!overrides.ok()) return {std::nullopt, std::move(overrides.diagnostics)};
  config::Loaded<std::filesystem::path> path =
      hw::resolve_hardware_path(*reference, config_dir(), {"--hw", 0, 0});
  if (!path.ok()) return {std::nullopt, std::move(path.diagnostics)};
  return hw::load_hardware_spec(*path.value, *overrides.value, config_dir());
}

// Rows over the cost budget. Beside compared rows each is a warning and the
// rest is reported (exit status 4); when no row is left, each is an error and
// false is returned (exit status 1, no output). Sorts `skipped` by line.
bool report_skipped(std::vector<workloads::SkippedRow>& skipped, bool any_compared) {
  std::stable_sort(skipped.begin(), skipped.end(),
                   [](const auto& a, const auto& b) { return a.where.line < b.where.line; });
  if (!any_compared) {
    config::Diagnostics problems;
    for (const workloads::SkippedRow& row : skipped) problems.add(row.where, "row", row.reason);
    print_diagnostics(problems);
    return false;
  }
  print_skipped_rows(skipped);
  return true;
}

int exit_status(bool outputs_written, const std::vector<workloads::SkippedRow>& skipped) {
  if (!outputs_written) return kExitInputError;
  return skipped.empty() ? kExitOk : kExitRowsSkipped;
}

workloads::HostDispatch host_dispatch(const CompareOptions& options) {
  return options.host_dispatch == "hardware" ? workloads::HostDispatch::hardware
                                             : workloads::HostDispatch::probe;
}

// A model CSV (kernels/model/torch_llama_forward.py): whole forwards.
int run_compare_models(const CompareOptions& options,
                       const workloads::GemmScheduleRegistry& schedules) {
  config::Loaded<std::vector<workloads::MeasuredModel>> rows =
      workloads::read_measured_model_csv(options.measured_path, schedules.names());
  config::Loaded<hw::HardwareSpec> hardware =
      rows.ok() ? load_hardware(options) : config::Loaded<hw::HardwareSpec>{};
  if (rows.ok() && !options.svg_path.empty()) {
    hardware.diagnostics.add({"--svg", 0, 0}, "svg", "not drawn for model rows yet");
  }
  if (rows.ok() && !options.html_path.empty()) {
    hardware.diagnostics.add({"--html", 0, 0}, "html", "not written for model rows yet");
  }
  if (!rows.ok() || !hardware.ok() || !hardware.diagnostics.empty()) {
    rows.diagnostics.append(hardware.diagnostics);
    print_diagnostics(rows.diagnostics);
    return kExitInputError;
  }
  config::Loaded<workloads::MeasuredComparison<workloads::ComparedModel>> compared =
      workloads::simulate_measured_models(*rows.value, *hardware.value, schedules,
                                          host_dispatch(options), options.max_events,
                                          options.approximate);
  if (!compared.ok()) {
    print_diagnostics(compared.diagnostics);
    return kExitInputError;
  }
  std::vector<workloads::SkippedRow>& skipped = compared.value->skipped;
  if (!report_skipped(skipped, !compared.value->compared.empty())) return kExitInputError;
  if (options.json_path != "-") {
    std::cout << heading(options, *hardware.value)
              << report::model_comparison_table(compared.value->compared)
              << report::skipped_rows_text(skipped);
  }
  if (options.json_path.empty()) return exit_status(true, skipped);
  nlohmann::ordered_json json = report::model_comparison_json(
      compared.value->compared, options.measured_path, hardware.value->name);
  if (!skipped.empty()) json["skipped"] = report::skipped_rows_json(skipped);
  return exit_status(write_output(options.json_path, json.dump(2) + "\n"), skipped);
}

int run_compare(const CompareOptions& options) {
  const workloads::GemmScheduleRegistry schedules = workloads::builtin_gemm_schedules();
  if (workloads::is_model_csv(options.measured_path)) return run_compare_models(options, schedules);
  config::Loaded<workloads::MeasuredRows> rows =
      workloads::read_measured_csv(options.measured_path, schedules.names());
  if (!rows.ok()) {
    print_diagnostics(rows.diagnostics);
    return kExitInputError;
  }
  config::Loaded<hw::HardwareSpec> hardware = load_hardware(options);
  if (!hardware.ok()) {
    print_diagnostics(hardware.diagnostics);
    return kExitInputError;
  }
  const auto library_schedule = options.library_schedule == "as_measured"
                                    ? workloads::LibrarySchedule::as_measured
                                    : workloads::LibrarySchedule::choose;
  config::Loaded<workloads::MeasuredComparison<workloads::ComparedGemm>> gemms =
      workloads::simulate_measured(rows.value->gemms, *hardware.value, schedules, library_schedule,
                                   options.max_events, options.approximate);
  config::Loaded<workloads::MeasuredComparison<workloads::ComparedAttention>> attention =
      workloads::simulate_measured_attention(rows.value->attention, *hardware.value, schedules,
                                             host_dispatch(options), options.max_events,
                                             options.approximate);
  if (!gemms.ok() || !attention.ok()) {
    gemms.diagnostics.append(attention.diagnostics);
    print_diagnostics(gemms.diagnostics);
    return kExitInputError;
  }
  report::ComparedRows compared{std::move(gemms.value->compared),
                                std::move(attention.value->compared), gemms.value->skipped};
  compared.skipped.insert(compared.skipped.end(), attention.value->skipped.begin(),
                          attention.value->skipped.end());
  if (!report_skipped(compared.skipped, !compared.gemms.empty() || !compared.attention.empty())) {
    return kExitInputError;
  }
  const report::ComparisonSummary summary = report::summarize_comparison(compared);
  bool ok = true;
  if (options.json_path != "-") {
    std::cout << heading(options, *hardware.value) << report::comparison_table(compared, summary);
  }
  if (!options.json_path.empty()) {
    const nlohmann::json json =
        report::comparison_json(compared, summary, options.measured_path, hardware.value->name);
    ok = write_output(options.json_path, json.dump(2) + "\n") && ok;
  }
  if (!options.svg_path.empty()) {
    const std::string title = "predicted vs measured, " +
                              std::filesystem::path(options.measured_path).filename().string();
    ok = write_output(options.svg_path, report::comparison_scatter_svg(compared, title)) && ok;
  }
  if (!options.html_path.empty()) {
    ok = write_output(options.html_path,
                      report::comparison_html(compared, summary, options.measured_path,
                                              hardware.value->name)) &&
         ok;
  }
  return exit_status(ok, compared.skipped);
}

}  // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command = app.add_subcommand(
      "compare", "Re-simulate every row of a measurement CSV and report the prediction errors");
  command
      ->add_option(
          "--measured", options->measured_path,
          "Measurement CSV (bench/measurements/*.csv): GEMM and/or attention rows, written "
          "by tilesim-measure or kernels/attention/sdpa_measure.py, or model rows, written by "
          "kernels/model/torch_llama_forward.py")
      ->required();
  command->add_option("--hw", options->hardware,
                      "Hardware to simulate on: a name under configs/hw/ or a path (default: the "
                      "calibrated `<name>.measured` of the CSV's JSON sidecar's "
                      "`study_hardware` where one ships, else that hardware itself)");
  command->add_option(
      "--set", options->assignments,
      "Override a hardware field, e.g. --set hbm.bandwidth=\"4.8 TB/s\" (repeatable)");
  command
      ->add_option(
          "--library-schedule", options->library_schedule,
          "How `kernel: library` GEMM rows are simulated: `choose` (as `schedule: auto`: a "
          "vendor library picks its own algorithm) or `as_measured` (the row's schedule)")
      ->check(CLI::IsMember({"choose", "as_measured"}))
      ->capture_default_str();
  command
      ->add_option("--host-dispatch", options->host_dispatch,
                   "Eager model rows and unfused attention rows: `probe` (the host as the row's "
                   "`dispatch_probe_us` or `host_enqueue_us` measured it, where it has one) "
                   "or `hardware` (the hardware file's launch.framework_dispatch, the attention "
                   "profile's gemm_call_host)")
      ->check(CLI::IsMember({"probe", "hardware"}))
      ->capture_default_str();
  command->add_option("--json", options->json_path,
                      "Write rows, metrics and schedule choices as JSON to PATH ('-' for stdout)");
  command->add_option("--svg", options->svg_path,
                      "Write a log-log scatter of predicted vs measured time to PATH");
  command->add_option(
      "--html", options->html_path,
      "Write one self-contained HTML report (metrics, scatter, sortable rows) to PATH");
  add_max_events_option(*command, options->max_events);
  add_approximate_option(*command, options->approximate);
  command->callback([options, &exit_code] { exit_code = run_compare(*options); });
}

}  // namespace tilesim::cli
