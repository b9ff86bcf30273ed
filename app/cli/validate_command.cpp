#include "app/cli/validate_command.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <iostream>
#include <memory>

#include "app/cli/cli_context.hpp"
#include "hwmodels/kernel_profile_loader.hpp"
#include "workloads/attention/attention_lowering.hpp"
#include "workloads/gemm/gemm_kernel_config.hpp"
#include "workloads/graph/graph_runner.hpp"
#include "workloads/study_runner.hpp"
#include "workloads/sweep/sweep_loader.hpp"

namespace tilesim::cli {
namespace {

// A study has `workloads:` at the top, a sweep `vary:`, a kernel profile
// `architectures:` or `instruction:`; anything else is taken as hardware.
enum class FileKind { hardware, kernel_profile, study, sweep };

FileKind file_kind(const std::string& path) {
  try {
    const YAML::Node root = YAML::LoadFile(path);
    if (!root.IsMap()) return FileKind::hardware;
    if (root["vary"]) return FileKind::sweep;
    if (root["architectures"] || root["instruction"]) return FileKind::kernel_profile;
    return root["workloads"] ? FileKind::study : FileKind::hardware;
  } catch (const YAML::Exception&) {
    return FileKind::hardware;  // the hardware loader reports the syntax error with its position
  }
}

config::Diagnostics validate_sweep(const std::string& path,
                                   const workloads::GemmScheduleRegistry& schedules) {
  const workloads::SweepLoadOptions options{
      config_dir(), {}, {}, workloads::study_schedule_names(schedules)};
  config::Loaded<workloads::SweepSpec> sweep = workloads::load_sweep(path, options);
  if (sweep.ok()) {
    const std::size_t schedule_count = sweep.value->schedules.size();
    std::cout << fmt::format("{}: ok (sweep: {} points x {} schedule{})\n", path,
                             sweep.value->point_count(), schedule_count,
                             schedule_count == 1 ? "" : "s");
  }
  return sweep.diagnostics;
}

// Every variant `compare` would run, or the one named, must be able to lower.
void validate_attention(const workloads::AttentionWorkload& attention,
                        const hw::HardwareSpec& hardware, config::Diagnostics& problems) {
  if (attention.variant != "compare") {
    problems.append(workloads::lower_attention(attention, hardware).diagnostics);
    return;
  }
  workloads::AttentionWorkload flash = attention;
  flash.variant = "flash";
  problems.append(workloads::lower_attention(flash, hardware).diagnostics);
}

config::Diagnostics validate_study(const std::string& path,
                                   const workloads::GemmScheduleRegistry& schedules) {
  config::Loaded<LoadedStudy> loaded = load_study_and_hardware(path, {}, {}, schedules);
  if (!loaded.ok()) return loaded.diagnostics;
  config::Diagnostics problems;
  for (const workloads::Workload& workload : loaded.value->study.workloads) {
    if (const auto* gemm = std::get_if<workloads::GemmWorkload>(&workload)) {
      problems.append(workloads::resolve_gemm_kernel(*gemm, loaded.value->hardware).diagnostics);
    } else if (const auto* graph = std::get_if<workloads::GraphWorkload>(&workload)) {
      problems.append(workloads::check_graph_workload(*graph, loaded.value->hardware, schedules));
    } else if (const auto* layer = std::get_if<workloads::LayerWorkload>(&workload)) {
      problems.append(workloads::check_layer_workload(*layer, loaded.value->hardware, schedules));
    } else {
      validate_attention(std::get<workloads::AttentionWorkload>(workload), loaded.value->hardware,
                         problems);
    }
  }
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

int run_validate(const std::vector<std::string>& paths) {
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
      case FileKind::study:
        problems.append(validate_study(path, schedules));
        break;
      case FileKind::sweep:
        problems.append(validate_sweep(path, schedules));
        break;
    }
  }
  if (problems.empty()) return kExitOk;
  print_diagnostics(problems);
  return kExitInputError;
}

}  // namespace

void add_validate_command(CLI::App& app, int& exit_code) {
  auto paths = std::make_shared<std::vector<std::string>>();
  CLI::App* command = app.add_subcommand(
      "validate",
      "Check hardware, kernel profile, study and sweep YAML files; report every problem with "
      "file:line:col");
  command
      ->add_option("files", *paths,
                   "Hardware (configs/hw/*.yaml), kernel profile (configs/kernels/*.yaml), study "
                   "or sweep YAML files")
      ->required();
  command->callback([paths, &exit_code] { exit_code = run_validate(*paths); });
}

}  // namespace tilesim::cli
