#include "app/cli/explain_command.hpp"

#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "app/cli/cli_context.hpp"
#include "app/explain/run_explanation.hpp"
#include "app/report/explain_json.hpp"
#include "app/report/explain_text.hpp"
#include "workloads/workload_cost.hpp"

namespace tilesim::cli {
namespace {

struct ExplainOptions {
  StudyInput input;
  std::string json_path;
  double max_events = workloads::kDefaultMaxEvents;
  bool approximate = false;
};

int run_explain(const ExplainOptions& options) {
  const workloads::GemmScheduleRegistry schedules = workloads::builtin_gemm_schedules();
  config::Loaded<LoadedStudy> loaded = load_study_for_run(options.input, schedules);
  if (!loaded.ok()) {
    print_diagnostics(loaded.diagnostics);
    return kExitInputError;
  }
  const hw::HardwareSpec& hardware = loaded.value->hardware;
  config::Loaded<std::vector<explain::RunExplanation>> explanations = explain::explain_study(
      loaded.value->study, hardware, schedules, options.max_events, options.approximate);
  if (!explanations.ok()) {
    print_diagnostics(explanations.diagnostics);
    return kExitInputError;
  }
  if (options.json_path != "-") {
    std::cout << fmt::format("hardware: {} ({})   study: {}\n\n", hardware.name,
                             hardware.description, options.input.study_path)
              << report::explain_text(*explanations.value);
  }
  if (options.json_path.empty()) return kExitOk;
  nlohmann::ordered_json items = nlohmann::ordered_json::array();
  for (const explain::RunExplanation& explanation : *explanations.value) {
    items.push_back(report::explain_json(explanation));
  }
  const nlohmann::ordered_json json{
      {"study", options.input.study_path},
      {"hardware", {{"name", hardware.name}, {"reference", loaded.value->hardware_reference}}},
      {"explanations", items}};
  return write_output(options.json_path, json.dump(2) + "\n") ? kExitOk : kExitInputError;
}

}  // namespace

void add_explain_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ExplainOptions>();
  CLI::App* command = app.add_subcommand(
      "explain",
      "Explain every workload of a study: where its time goes, its roofline position, what "
      "bounds it, and re-simulated what-ifs");
  add_study_input_options(*command, options->input);
  command->add_option("--json", options->json_path,
                      "Write the explanations as JSON to PATH ('-' for stdout)");
  add_max_events_option(*command, options->max_events);
  add_approximate_option(*command, options->approximate);
  command->callback([options, &exit_code] { exit_code = run_explain(*options); });
}

}  // namespace tilesim::cli
