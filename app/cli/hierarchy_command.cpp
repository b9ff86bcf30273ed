#include "app/cli/hierarchy_command.hpp"

#include <iostream>
#include <memory>

#include "app/cli/cli_context.hpp"
#include "app/explain/memory_hierarchy.hpp"
#include "app/report/hierarchy_svg.hpp"
#include "app/report/hierarchy_table.hpp"

namespace tilesim::cli {
namespace {

struct HierarchyOptions {
  std::string hardware = "h100_sxm";
  std::vector<std::string> assignments;
  std::string svg_path;
};

int run_hierarchy(const HierarchyOptions& options) {
  config::Loaded<std::vector<hw::FieldOverride>> overrides =
      hw::parse_field_overrides(options.assignments);
  if (!overrides.ok()) {
    print_diagnostics(overrides.diagnostics);
    return kExitInputError;
  }
  config::Loaded<std::filesystem::path> path =
      hw::resolve_hardware_path(options.hardware, config_dir(), {"--hw", 0, 0});
  if (!path.ok()) {
    print_diagnostics(path.diagnostics);
    return kExitInputError;
  }
  config::Loaded<hw::HardwareSpec> spec = hw::load_hardware_spec(*path.value, *overrides.value);
  if (!spec.ok()) {
    print_diagnostics(spec.diagnostics);
    return kExitInputError;
  }
  const std::vector<explain::MemoryLevel> levels = explain::memory_hierarchy(*spec.value);
  std::cout << report::hierarchy_table(*spec.value, levels);
  if (options.svg_path.empty()) return kExitOk;
  return write_output(options.svg_path, report::hierarchy_svg(*spec.value, levels))
             ? kExitOk
             : kExitInputError;
}

}  // namespace

void add_hierarchy_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<HierarchyOptions>();
  CLI::App* command = app.add_subcommand(
      "hierarchy",
      "Show the memory hierarchy of a hardware file: capacity, bandwidth and latency per level");
  command
      ->add_option("--hw", options->hardware,
                   "Hardware: a name under configs/hw/ or a path to a hardware YAML")
      ->capture_default_str();
  command->add_option("--set", options->assignments,
                      "Override a hardware field, e.g. --set l2.capacity=\"100 MiB\" (repeatable)");
  command->add_option("--svg", options->svg_path, "Write the hierarchy as an SVG picture to PATH");
  command->callback([options, &exit_code] { exit_code = run_hierarchy(*options); });
}

}  // namespace tilesim::cli
