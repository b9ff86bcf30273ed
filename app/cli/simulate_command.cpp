#include "app/cli/simulate_command.hpp"

#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "app/cli/cli_context.hpp"
#include "app/explain/run_explanation.hpp"
#include "app/report/chrome_trace.hpp"
#include "app/report/csv_report.hpp"
#include "app/report/explain_json.hpp"
#include "app/report/explain_text.hpp"
#include "app/report/html_report.hpp"
#include "app/report/json_report.hpp"
#include "app/report/result_table.hpp"
#include "app/report/timeline_svg.hpp"
#include "workloads/study_runner.hpp"
#include "workloads/workload_cost.hpp"

namespace tilesim::cli {
namespace {

struct SimulateOptions {
  StudyInput input;
  std::string json_path;
  std::string csv_path;
  std::string trace_path;
  std::string timeline_path;
  std::string html_path;
  bool explain = false;
  bool approximate = false;
  double max_events = workloads::kDefaultMaxEvents;
};

// `explanations`: empty unless --explain; then one per run, in the report's order.
// Every output is made before any is written, so that a study whose trace
// would be too large writes nothing.
bool write_reports(const SimulateOptions& options, const report::StudyReport& report,
                   const std::vector<explain::RunExplanation>& explanations) {
  std::vector<std::pair<std::string, std::string>> outputs;  // path, text
  if (!options.json_path.empty()) {
    nlohmann::ordered_json json = report::json_report(report);
    for (std::size_t i = 0; i < explanations.size(); ++i) {
      json["results"][i]["explain"] = report::explain_json(explanations[i]);
    }
    outputs.emplace_back(options.json_path, json.dump(2) + "\n");
  }
  if (!options.csv_path.empty()) outputs.emplace_back(options.csv_path, report::csv_report(report));
  if (!options.timeline_path.empty()) {
    outputs.emplace_back(options.timeline_path, report::timeline_svg(report));
  }
  if (!options.trace_path.empty()) {
    const std::optional<nlohmann::ordered_json> trace = report::chrome_trace(report);
    if (!trace) {
      std::cerr << fmt::format(
          "--trace: error: the trace would hold more than {} events (a slice per CTA and "
          "bandwidth samples); trace a smaller shape, or drop --trace\n",
          report::kMaxTraceEvents);
      return false;
    }
    outputs.emplace_back(options.trace_path, trace->dump() + "\n");
  }
  if (!options.html_path.empty())
    outputs.emplace_back(options.html_path, report::study_html(report));
  const bool stdout_taken = options.json_path == "-" || options.csv_path == "-";
  if (!stdout_taken) std::cout << report::result_table(report);
  if (!stdout_taken && !explanations.empty()) {
    std::cout << "\n" << report::explain_text(explanations);
  }
  bool ok = true;
  for (const auto& [path, text] : outputs) ok = write_output(path, text) && ok;
  return ok;
}

int run_simulate(const SimulateOptions& options) {
  const workloads::GemmScheduleRegistry schedules = workloads::builtin_gemm_schedules();
  config::Loaded<LoadedStudy> loaded = load_study_for_run(options.input, schedules);
  if (!loaded.ok()) {
    print_diagnostics(loaded.diagnostics);
    return kExitInputError;
  }
  const config::Diagnostics over_budget = workloads::check_study_cost(
      loaded.value->study, loaded.value->hardware, schedules, options.max_events);
  if (!over_budget.empty()) {
    print_diagnostics(over_budget);
    return kExitInputError;
  }
  gpu::SimulationOptions simulation;
  simulation.record_bandwidth = !options.trace_path.empty();
  simulation.max_effort_events = workloads::effort_limit(options.max_events);
  simulation.set_approximate(options.approximate);
  config::Loaded<std::vector<workloads::WorkloadRun>> runs =
      workloads::run_study(loaded.value->study, loaded.value->hardware, schedules, simulation);
  if (!runs.ok()) {
    print_diagnostics(runs.diagnostics);
    return kExitInputError;
  }
  const report::StudyReport report{options.input.study_path, loaded.value->hardware_reference,
                                   &loaded.value->hardware, std::move(*runs.value)};
  std::vector<explain::RunExplanation> explanations;
  if (options.explain) {
    // Simulated again with time attribution, workload by workload, with the what-ifs.
    config::Loaded<std::vector<explain::RunExplanation>> explained =
        explain::explain_study(loaded.value->study, loaded.value->hardware, schedules,
                               options.max_events, options.approximate);
    if (!explained.ok()) {
      print_diagnostics(explained.diagnostics);
      return kExitInputError;
    }
    explanations = std::move(*explained.value);
  }
  return write_reports(options, report, explanations) ? kExitOk : kExitInputError;
}

}  // namespace

void add_simulate_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<SimulateOptions>();
  CLI::App* command = app.add_subcommand(
      "simulate", "Simulate every workload of a study YAML and report times and bytes");
  add_study_input_options(*command, options->input);
  command->add_option("--json", options->json_path, "Write JSON results to PATH ('-' for stdout)");
  command->add_option("--csv", options->csv_path,
                      "Write one CSV row per workload to PATH ('-' for stdout)");
  command->add_option("--timeline", options->timeline_path,
                      "Write an SVG picture of every SM's CTAs over time to PATH");
  command->add_option("--trace", options->trace_path,
                      "Write a Chrome trace to PATH (open in ui.perfetto.dev)");
  command->add_option("--html", options->html_path,
                      "Write one self-contained HTML report (tables, timeline, kernels) to PATH");
  command->add_flag("--explain", options->explain,
                    "Also explain every workload (as `tilesim explain`): where its time goes, "
                    "roofline position, what bounds it, re-simulated what-ifs");
  add_max_events_option(*command, options->max_events);
  add_approximate_option(*command, options->approximate);
  command->callback([options, &exit_code] { exit_code = run_simulate(*options); });
}

}  // namespace tilesim::cli
