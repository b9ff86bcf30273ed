#include "workloads/sweep/sweep_hardware.hpp"

#include <fmt/format.h>

namespace tilesim::workloads {

namespace {

std::string choice_key(const HardwareChoice& choice) {
  std::string key = choice.path.string();
  for (const HardwareOverride& override_value : choice.overrides) {
    key += fmt::format("\n{}={}", override_value.field.key_path, override_value.field.value);
  }
  return key;
}

const HardwareOverride* varied_override(const HardwareChoice& choice,
                                        const config::Diagnostic& problem) {
  if (problem.where.file != "--set") return nullptr;
  for (const HardwareOverride& override_value : choice.overrides) {
    if (override_value.source && override_value.field.key_path == problem.key_path) {
      return &override_value;
    }
  }
  return nullptr;
}

}  // namespace

std::optional<std::size_t> SweepHardware::load(const HardwareChoice& choice,
                                               config::Diagnostics& diagnostics) {
  const std::string key = choice_key(choice);
  if (const auto found = loaded_.find(key); found != loaded_.end()) return found->second;
  std::vector<hw::FieldOverride> fields;
  for (const HardwareOverride& override_value : choice.overrides) {
    fields.push_back(override_value.field);
  }
  hw::ProfileCache& profiles = shared_profiles_ != nullptr ? *shared_profiles_ : own_profiles_;
  config::Loaded<hw::HardwareSpec> spec =
      hw::load_hardware_spec(choice.path, fields, config_dir_, profiles);
  for (const config::Diagnostic& problem : spec.diagnostics.items()) {
    if (const HardwareOverride* varied = varied_override(choice, problem)) {
      diagnostics.add(varied->source->where, varied->source->key_path,
                      fmt::format("hw.{}: {}", problem.key_path, problem.message));
    } else {
      diagnostics.add(problem.where, problem.key_path, problem.message);
    }
  }
  std::optional<std::size_t> index;
  if (spec.ok()) {
    index = specs_.size();
    specs_.push_back(std::move(*spec.value));
  }
  loaded_.emplace(key, index);
  return index;
}

config::Loaded<std::filesystem::path> resolve_sweep_hardware(
    const std::string& reference, const std::filesystem::path& sweep_path,
    const std::filesystem::path& config_dir, const config::SourceLocation& where) {
  const std::filesystem::path beside_sweep = sweep_path.parent_path() / reference;
  std::error_code error;
  const bool from_command_line = where.file == "--hw";
  if (!from_command_line && std::filesystem::is_regular_file(beside_sweep, error)) {
    config::Loaded<std::filesystem::path> found;
    found.value = beside_sweep;
    return found;
  }
  return hw::resolve_hardware_path(reference, config_dir, where);
}

}  // namespace tilesim::workloads
