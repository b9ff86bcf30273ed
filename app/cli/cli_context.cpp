#include "app/cli/cli_context.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <iostream>

#include "app/report/output_file.hpp"
#include "workloads/study_loader.hpp"
#include "workloads/study_runner.hpp"
#include "workloads/workload_cost.hpp"

namespace tilesim::cli {

std::filesystem::path config_dir() {
  if (const char* from_env = std::getenv("TILESIM_CONFIG_DIR")) return from_env;
  // An installed tilesim (bin/tilesim) finds share/tilesim/configs beside it.
  std::error_code error;
  const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const auto installed = executable.parent_path().parent_path() / TILESIM_INSTALLED_CONFIG_DIR;
    if (std::filesystem::is_directory(installed / "hw", error)) return installed;
  }
  return TILESIM_CONFIG_DIR;
}

void print_diagnostics(const config::Diagnostics& diagnostics) {
  // As a compiler stops after a screenful: a file with hundreds of problems is
  // usually one mistake repeated, and fixing the first ones shows the rest.
  constexpr std::size_t kMaxShown = 25;
  config::Diagnostics shown;
  for (std::size_t i = 0; i < diagnostics.size() && i < kMaxShown; ++i) {
    const config::Diagnostic& item = diagnostics.items()[i];
    shown.add(item.where, item.key_path, item.message);
  }
  std::cerr << shown.format();
  if (diagnostics.size() > kMaxShown) {
    std::cerr << fmt::format("... {} more not shown\n", diagnostics.size() - kMaxShown);
  }
  std::cerr << fmt::format("{} error{}\n", diagnostics.size(), diagnostics.size() == 1 ? "" : "s");
}

void print_skipped_rows(const std::vector<workloads::SkippedRow>& skipped) {
  for (const workloads::SkippedRow& row : skipped) {
    std::cerr << fmt::format("{}:{}:{}: warning: row: {} skipped: {}\n", row.where.file,
                             row.where.line, row.where.column, row.name, row.reason);
  }
}

config::Loaded<LoadedStudy> load_study_and_hardware(
    const std::filesystem::path& study_path, const std::optional<std::string>& hw_override,
    const std::vector<hw::FieldOverride>& overrides,
    const workloads::GemmScheduleRegistry& schedules) {
  config::Loaded<LoadedStudy> loaded;
  config::Loaded<workloads::Study> study =
      workloads::load_study(study_path, workloads::study_schedule_names(schedules), config_dir());
  if (!study.ok()) {
    loaded.diagnostics = std::move(study.diagnostics);
    return loaded;
  }
  const std::string reference = hw_override.value_or(study.value->hardware);
  // A relative path written in a study is relative to the study file.
  std::string lookup = reference;
  const std::filesystem::path beside_study = study_path.parent_path() / reference;
  if (!hw_override && std::filesystem::is_regular_file(beside_study)) lookup = beside_study;
  const config::SourceLocation where =
      hw_override ? config::SourceLocation{"--hw", 0, 0} : study.value->hardware_location;
  config::Loaded<std::filesystem::path> hw_path =
      hw::resolve_hardware_path(lookup, config_dir(), where);
  if (!hw_path.ok()) {
    loaded.diagnostics = std::move(hw_path.diagnostics);
    return loaded;
  }
  config::Loaded<hw::HardwareSpec> spec =
      hw::load_hardware_spec(*hw_path.value, overrides, config_dir());
  if (!spec.ok()) {
    loaded.diagnostics = std::move(spec.diagnostics);
    return loaded;
  }
  loaded.value = LoadedStudy{std::move(*study.value), reference, std::move(*spec.value)};
  return loaded;
}

void add_study_input_options(CLI::App& command, StudyInput& input) {
  command
      .add_option("study", input.study_path, "Study YAML (e.g. configs/studies/quickstart.yaml)")
      ->required();
  command.add_option("--hw", input.hardware,
                     "Hardware to use instead of the study's: a name under configs/hw/ or a path");
  command.add_option(
      "--set", input.assignments,
      "Override a hardware field, e.g. --set hbm.bandwidth=\"4.8 TB/s\" (repeatable)");
}

config::Loaded<LoadedStudy> load_study_for_run(const StudyInput& input,
                                               const workloads::GemmScheduleRegistry& schedules) {
  config::Loaded<std::vector<hw::FieldOverride>> overrides =
      hw::parse_field_overrides(input.assignments);
  if (!overrides.ok()) return {std::nullopt, std::move(overrides.diagnostics)};
  return load_study_and_hardware(input.study_path, input.hardware, *overrides.value, schedules);
}

void add_max_events_option(CLI::App& command, double& max_events) {
  command
      .add_option("--max-events", max_events,
                  fmt::format("The cost budget: refuse inputs whose simulation is estimated (or, "
                              "once running, found) to take more than N events (default {:.3g}: "
                              "seconds and under 2 GiB; docs/limits.md)",
                              workloads::kDefaultMaxEvents))
      ->check(CLI::PositiveNumber);
}

void add_approximate_option(CLI::App& command, bool& approximate) {
  command.add_flag("--approximate", approximate,
                   "Approximate mode: fast-forward waves that repeat and take the power-limited "
                   "clock from an estimated load; faster but not exact: mean error ~1%, some "
                   "shapes 20% (docs/model.md, bench/README.md)");
}

bool write_output(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text;
    return static_cast<bool>(std::cout);
  }
  if (const std::optional<std::string> problem = report::write_file_atomically(path, text)) {
    std::cerr << fmt::format("{}: error: {}\n", path, *problem);
    return false;
  }
  return true;
}

}  // namespace tilesim::cli
