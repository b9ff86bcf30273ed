#include "app/cli/validate_command.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <iostream>
#include <memory>

#include "app/cli/cli_context.hpp"
#include "hwmodels/attention_profile_loader.hpp"
#include "hwmodels/framework_profile_loader.hpp"
#include "hwmodels/kernel_profile_loader.hpp"
#include "workloads/study_runner.hpp"
#include "workloads/sweep/sweep_cost.hpp"
#include "workloads/sweep/sweep_loader.hpp"
#include "workloads/workload_cost.hpp"

namespace tilesim::cli {
namespace {

// A study has `workloads:` at the top, a sweep `vary:`, a framework profile
// `cta_setup:`, an attention profile `class:`, a kernel profile
// `architectures:` or `instruction:`; anything else is taken as hardware.
enum class FileKind {
  hardware,
  kernel_profile,
  attention_profile,
  framework_profile,
  study,
  sweep
};

FileKind file_kind(const std::string& path) {
  try {
    const YAML::Node root = YAML::LoadFile(path);
    if (!root.IsMap()) return FileKind::hardware;
    if (root["vary"]) return FileKind::sweep;
    if (root["cta_setup"]) return FileKind::framework_profile;
    if (root["class"]) return FileKind::attention_profile;
    if (root["architectures"] || root["instruction"]) return FileKind::kernel_profile;
    return root["workloads"] ? FileKind::study : FileKind::hardware;
  } catch (const YAML::Exception&) {
    return FileKind::hardware;  // the hardware loader reports the syntax error with its position
  }
}

config::Diagnostics validate_sweep(const std::string& path,
                                   const workloads::GemmScheduleRegistry& schedules,
                                   double max_events) {
  workloads::SweepLoadOptions options{
      config_dir(), {}, {}, workloads::study_schedule_names(schedules)};
  options.max_events = max_events;
  config::Loaded<workloads::SweepSpec> sweep = workloads::load_sweep(path, options);
  if (!sweep.ok()) return sweep.diagnostics;
  // Lowering every point finds what only the hardware rules out, and the cost.
  config::Diagnostics problems = workloads::check_sweep_cost(*sweep.value, schedules, max_events);
  if (problems.empty()) {
    const std::size_t schedule_count = sweep.value->schedules.size();
    std::cout << fmt::format("{}: ok (sweep: {} points x {} schedule{})\n", path,
                             sweep.value->point_count(), schedule_count,
                             schedule_count == 1 ? "" : "s");
  }
  return problems;
}

config::Diagnostics validate_study(const std::string& path,
                                   const workloads::GemmScheduleRegistry& schedules,
                                   double max_events) {
  config::Loaded<LoadedStudy> loaded = load_study_and_hardware(path, {}, {}, schedules);
  if (!loaded.ok()) return loaded.diagnostics;
  // Lowering every run the study would make finds what only the hardware
  // rules out (a tile that does not fit, a variant that does not apply).
  config::Diagnostics problems = workloads::check_study_cost(
      loaded.value->study, loaded.value->hardware, schedules, max_events);
  if (problems.empty()) {
    std::cout << fmt::format("{}: ok (study: {} workloads on {})\n", path,
                             loaded.value->study.workloads.size(), loaded.value->hardware.name);
  }
  return problems;
}

config::Diagnostics validate_hardware(const std::string& path) {
  config::Loaded<hw::HardwareSpec> spec = hw::load_hardware_spec(path, {}, config_dir());
  if (spec.ok()) {
    std::cout << fmt::format("{}: ok (hardware: {}, {} SMs)\n", path, spec.value->name,
                             spec.value->sm.count);
  }
  return spec.diagnostics;
}

// On its own: every per-GPU value is checked; hardware files that offer the
// profile check the rest (architecture, fit) when they are validated.
config::Diagnostics validate_kernel_profile(const std::string& path) {
  config::Loaded<hw::KernelProfile> profile = hw::check_kernel_profile_file(path);
  if (profile.ok()) {
    std::cout << fmt::format("{}: ok (kernel profile for {})\n", path,
                             fmt::join(profile.value->architectures, ", "));
  }
  return profile.diagnostics;
}

// An attention or framework profile read for no particular GPU: every per-GPU
// entry is checked.
template <typename Profile, typename Load>
config::Diagnostics validate_profile(const std::string& path, const char* what, const Load& load) {
  config::Loaded<Profile> profile = load(path, hw::ProfileTarget{});
  if (profile.ok()) {
    std::cout << fmt::format("{}: ok ({} for {})\n", path, what,
                             fmt::join(profile.value->architectures, ", "));
  }
  return profile.diagnostics;
}

int run_validate(const std::vector<std::string>& paths, double max_events) {
  const workloads::GemmScheduleRegistry schedules = workloads::builtin_gemm_schedules();
  config::Diagnostics problems;
  for (const std::string& path : paths) {
    switch (file_kind(path)) {
      case FileKind::hardware:
        problems.append(validate_hardware(path));
        break;
      case FileKind::kernel_profile:
        problems.append(validate_kernel_profile(path));
        break;
      case FileKind::attention_profile:
        problems.append(validate_profile<hw::AttentionProfile>(path, "attention profile",
                                                               hw::load_attention_profile));
        break;
      case FileKind::framework_profile:
        problems.append(validate_profile<hw::FrameworkProfile>(path, "framework profile",
                                                               hw::load_framework_profile));
        break;
      case FileKind::study:
        problems.append(validate_study(path, schedules, max_events));
        break;
      case FileKind::sweep:
        problems.append(validate_sweep(path, schedules, max_events));
        break;
    }
  }
  if (problems.empty()) return kExitOk;
  print_diagnostics(problems);
  return kExitInputError;
}

}  // namespace

void add_validate_command(CLI::App& app, int& exit_code) {
  struct ValidateOptions {
    std::vector<std::string> paths;
    double max_events = workloads::kDefaultMaxEvents;
  };
  auto options = std::make_shared<ValidateOptions>();
  CLI::App* command = app.add_subcommand(
      "validate",
      "Check hardware, kernel, attention and framework profile, study and sweep YAML files; "
      "report every problem with file:line:col");
  command
      ->add_option("files", options->paths,
                   "Hardware (configs/hw/*.yaml), profile (configs/kernels, attention, "
                   "frameworks/*.yaml), study or sweep YAML files")
      ->required();
  add_max_events_option(*command, options->max_events);
  command->callback(
      [options, &exit_code] { exit_code = run_validate(options->paths, options->max_events); });
}

}  // namespace tilesim::cli
