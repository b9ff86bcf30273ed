#include "sim/cli/validate_command.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <iostream>
#include <memory>

#include "sim/cli/cli_context.hpp"
#include "workloads/gemm/gemm_kernel_config.hpp"

namespace tilesim::cli {
namespace {

// A study has `workloads:` at the top; anything else is taken as hardware.
bool looks_like_study(const std::string& path) {
  try {
    const YAML::Node root = YAML::LoadFile(path);
    return root.IsMap() && root["workloads"];
  } catch (const YAML::Exception&) {
    return false;  // the hardware loader reports the syntax error with its position
  }
}

config::Diagnostics validate_study(const std::string& path,
                                   const workloads::GemmScheduleRegistry& schedules) {
  config::Loaded<LoadedStudy> loaded = load_study_and_hardware(path, {}, {}, schedules);
  if (!loaded.ok()) return loaded.diagnostics;
  config::Diagnostics problems;
  for (const workloads::Workload& workload : loaded.value->study.workloads) {
    std::visit(
        [&](const workloads::GemmWorkload& gemm) {
          problems.append(workloads::resolve_gemm_kernel(gemm, loaded.value->hardware).diagnostics);
        },
        workload);
  }
  if (problems.empty()) {
    std::cout << fmt::format("{}: ok (study: {} workloads on {})\n", path,
                             loaded.value->study.workloads.size(), loaded.value->hardware.name);
  }
  return problems;
}

config::Diagnostics validate_hardware(const std::string& path) {
  config::Loaded<hw::HardwareSpec> spec = hw::load_hardware_spec(path);
  if (spec.ok()) {
    std::cout << fmt::format("{}: ok (hardware: {}, {} SMs)\n", path, spec.value->name,
                             spec.value->sm.count);
  }
  return spec.diagnostics;
}

int run_validate(const std::vector<std::string>& paths) {
  const workloads::GemmScheduleRegistry schedules = workloads::builtin_gemm_schedules();
  config::Diagnostics problems;
  for (const std::string& path : paths) {
    problems.append(looks_like_study(path) ? validate_study(path, schedules)
                                           : validate_hardware(path));
  }
  if (problems.empty()) return kExitOk;
  print_diagnostics(problems);
  return kExitInputError;
}

}  // namespace

void add_validate_command(CLI::App& app, int& exit_code) {
  auto paths = std::make_shared<std::vector<std::string>>();
  CLI::App* command = app.add_subcommand(
      "validate", "Check hardware and study YAML files; report every problem with file:line:col");
  command->add_option("files", *paths, "Hardware (configs/hw/*.yaml) or study YAML files")
      ->required();
  command->callback([paths, &exit_code] { exit_code = run_validate(*paths); });
}

}  // namespace tilesim::cli
