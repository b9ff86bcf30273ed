#include "hwmodels/hardware_loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "hwmodels/closest_match.hpp"
#include "hwmodels/guarded_read.hpp"
#include "hwmodels/hardware_schema.hpp"
#include "hwmodels/kernel_fit.hpp"
#include "hwmodels/yaml_file.hpp"
#include "hwmodels/yaml_schema.hpp"

namespace tilesim::hw {

using config::Diagnostics;
using config::SourceLocation;
using config::Values;

namespace {

const SourceLocation kSetLocation{"--set", 0, 0};

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto dot = path.find('.', start);
    parts.push_back(path.substr(start, dot - start));
    if (dot == std::string::npos) {
      return parts;
    }
    start = dot + 1;
  }
}

std::vector<std::string> kernel_names(const YAML::Node& root) {
  std::vector<std::string> names;
  const YAML::Node kernels = root.IsMap() ? root["kernels"] : YAML::Node();
  if (kernels.IsMap()) {
    for (auto it = kernels.begin(); it != kernels.end(); ++it) {
      names.push_back(it->first.Scalar());
    }
  }
  return names;
}

// Why `key_path` cannot be overridden, or nullopt when it names a value.
std::optional<std::string> override_problem(const YAML::Node& root, const std::string& key_path) {
  const auto hardware_params = hardware_schema().params();
  const config::KeyPathMatch match = config::match_key_path(hardware_params, key_path);
  if (match.param == nullptr) {
    return match.error;
  }
  if (match.param->type != config::ValueType::entries) {
    if (!match.rest.empty()) {
      return fmt::format("`{}` takes a single value; it has no key `{}`", match.param->key,
                         match.rest);
    }
    return std::nullopt;
  }
  // kernels.<profile>.<field>: the profile must exist in the file.
  const std::vector<std::string> names = kernel_names(root);
  const auto dot = match.rest.find('.');
  const std::string name = match.rest.substr(0, dot);
  if (name.empty()) {
    return fmt::format(
        "`kernels` holds kernel profiles; name a field of one, e.g. "
        "kernels.library.tensor_efficiency (profiles: {})",
        config::join_names(names));
  }
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    return config::unknown_key_message(name, names);
  }
  const auto profile_params = kernel_profile_schema().params();
  const std::string field = dot == std::string::npos ? "" : match.rest.substr(dot + 1);
  if (field.empty()) {
    return fmt::format(
        "`kernels.{}` is a kernel profile; name one of its fields, e.g. "
        "kernels.{}.tensor_efficiency",
        name, name);
  }
  const config::KeyPathMatch inner = config::match_key_path(profile_params, field);
  if (inner.param == nullptr) {
    return inner.error;
  }
  if (!inner.rest.empty()) {
    return fmt::format("`{}` takes a single value; it has no key `{}`", inner.param->key,
                       inner.rest);
  }
  return std::nullopt;
}

// Writes `value` as a new scalar node: a new node has no file position, so a
// problem with it is reported against "--set", not against the file's old value.
void set_scalar(YAML::Node map, std::span<const std::string> parts, const std::string& value) {
  if (parts.size() == 1) {
    map.remove(parts[0]);
    map[parts[0]] = value;
    return;
  }
  YAML::Node child = map[parts[0]];
  if (!child.IsDefined() || child.IsNull()) {
    map[parts[0]] = YAML::Node(YAML::NodeType::Map);
    child.reset(map[parts[0]]);
  }
  if (child.IsMap()) {  // otherwise the file's own error is reported
    set_scalar(child, parts.subspan(1), value);
  }
}

void apply_overrides(YAML::Node& root, const std::vector<FieldOverride>& overrides,
                     Diagnostics& diagnostics) {
  for (const FieldOverride& field : overrides) {
    if (const auto problem = override_problem(root, field.key_path)) {
      diagnostics.add(kSetLocation, field.key_path, *problem);
    } else if (root.IsMap()) {
      set_scalar(root, split_path(field.key_path), field.value);
    }
  }
}

// A check that spans two fields; reported only when both were valid on their own.
void check_at_most(const Values& values, const std::string& key, double value,
                   const std::string& limit_key, double limit, std::string_view what,
                   Diagnostics& diagnostics) {
  if (values.contains(key) && values.contains(limit_key) && value > limit) {
    diagnostics.add(values.at(key).where, key,
                    fmt::format("\"{}\" is more than {} (\"{}\"){}", values.at(key).text, limit_key,
                                values.at(limit_key).text, what));
  }
}

void check_sm(const HardwareSpec& spec, const Values& values, Diagnostics& diagnostics) {
  const SharedMemorySpec& smem = spec.sm.shared_memory;
  check_at_most(values, "sm.shared_memory.per_cta_max",
                smem.per_cta_max_bytes + smem.reserved_per_cta_bytes, "sm.shared_memory.capacity",
                smem.capacity_bytes, " once reserved_per_cta is added", diagnostics);
  check_at_most(values, "sm.max_threads_per_cta", spec.sm.max_threads_per_cta, "sm.max_threads",
                spec.sm.max_threads, "", diagnostics);
  check_at_most(values, "sm.l2_port_bandwidth", spec.sm.l2_port_bytes_per_s, "l2.bandwidth",
                spec.l2.bandwidth_bytes_per_s, "", diagnostics);
  check_at_most(values, "sm.power_limited_clock", spec.sm.power_limited_clock_hz, "sm.clock",
                spec.sm.clock_hz, ": it is the clock the power limit holds the SMs to",
                diagnostics);
}

// Reads each `kernels:` entry and checks that its tile fits the SM.
void read_kernel_profiles(const config::Value& kernels, const Values& hardware_values,
                          const config::ReadContext& context, HardwareSpec& spec,
                          Diagnostics& diagnostics) {
  const auto schema = kernel_profile_schema();
  // Fit checks need every SM limit they compare with.
  constexpr std::array<const char*, 5> kLimits = {
      "sm.max_threads_per_cta", "sm.max_registers_per_thread", "sm.registers",
      "sm.register_allocation_unit", "sm.shared_memory.per_cta_max"};
  const bool limits_known = std::all_of(kLimits.begin(), kLimits.end(), [&](const char* key) {
    return hardware_values.contains(key);
  });
  for (auto it = kernels.node.begin(); it != kernels.node.end(); ++it) {
    const std::string name = it->first.Scalar();
    if (!config::is_name_like(name)) {
      diagnostics.add(config::location_of(it->first.Mark(), context.file), "kernels",
                      fmt::format("\"{}\" is not a valid profile name: use letters, digits, "
                                  "_ - . only",
                                  name));
      continue;
    }
    config::ReadContext profile_context = context;
    profile_context.key_prefix = "kernels." + name;
    KernelProfile profile;
    profile.name = name;
    Diagnostics profile_diagnostics;
    const Values values = schema.read(it->second, profile_context, profile, profile_diagnostics);
    if (profile_diagnostics.empty() && limits_known) {
      for (const KernelFitProblem& problem : kernel_fit_problems(profile, spec.sm)) {
        const auto at = values.find(problem.key);
        profile_diagnostics.add(at != values.end() ? at->second.where : kernels.where,
                                config::join_keys(profile_context.key_prefix, problem.key),
                                problem.message);
      }
    }
    diagnostics.append(profile_diagnostics);
    spec.kernel_profiles[name] = std::move(profile);
  }
  if (!spec.kernel_profiles.contains("library")) {
    std::vector<std::string> names;
    for (const auto& [name, profile] : spec.kernel_profiles) {
      names.push_back(name);
    }
    diagnostics.add(kernels.where, "kernels.library",
                    fmt::format("missing required kernel profile `library` (the vendor-class "
                                "kernel studies use by default); profiles given: {}",
                                config::join_names(names)));
  }
}

}  // namespace

config::Loaded<HardwareSpec> load_hardware_spec(const std::filesystem::path& path,
                                                const std::vector<FieldOverride>& overrides) {
  const std::string file = path.string();
  return config::guarded_read<HardwareSpec>(
      file, Diagnostics{}, [&](Diagnostics& diagnostics) -> std::optional<HardwareSpec> {
        std::optional<YAML::Node> root = config::load_yaml_file(path, diagnostics);
        if (!root) return std::nullopt;
        apply_overrides(*root, overrides, diagnostics);
        HardwareSpec spec;
        spec.source_path = file;
        config::ReadContext context;
        context.file = file;
        const Values values = hardware_schema().read(*root, context, spec, diagnostics);
        check_sm(spec, values, diagnostics);
        if (const auto kernels = values.find("kernels"); kernels != values.end()) {
          read_kernel_profiles(kernels->second, values, context, spec, diagnostics);
        }
        return spec;
      });
}

config::Loaded<std::filesystem::path> resolve_hardware_path(
    const std::string& name_or_path, const std::filesystem::path& config_dir) {
  return resolve_hardware_path(name_or_path, config_dir, SourceLocation{});
}

config::Loaded<std::filesystem::path> resolve_hardware_path(const std::string& name_or_path,
                                                            const std::filesystem::path& config_dir,
                                                            const SourceLocation& where) {
  config::Loaded<std::filesystem::path> result;
  std::error_code error;
  const std::filesystem::path given(name_or_path);
  const bool looks_like_path = name_or_path.find('/') != std::string::npos ||
                               given.extension() == ".yaml" || given.extension() == ".yml";
  if (looks_like_path) {
    if (std::filesystem::is_regular_file(given, error)) {
      result.value = given;
    } else {
      result.diagnostics.add(where, "hardware",
                             fmt::format("cannot open hardware file `{}`", name_or_path));
    }
    return result;
  }
  const std::filesystem::path hw_dir = config_dir / "hw";
  const std::filesystem::path candidate = hw_dir / (name_or_path + ".yaml");
  if (std::filesystem::is_regular_file(candidate, error)) {
    result.value = candidate;
    return result;
  }
  std::vector<std::string> available;
  // error_code overloads throughout: a missing or unreadable directory lists nothing.
  for (auto it = std::filesystem::directory_iterator(hw_dir, error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    if (it->path().extension() == ".yaml") {
      available.push_back(it->path().stem().string());
    }
  }
  std::sort(available.begin(), available.end());
  const auto suggestion = config::closest_match(name_or_path, available);
  result.diagnostics.add(
      where, "hardware",
      fmt::format("unknown hardware `{}`; {}available in {}: {}; or give a path to a YAML file",
                  name_or_path, suggestion ? fmt::format("did you mean `{}`? ", *suggestion) : "",
                  hw_dir.string(), available.empty() ? "none" : config::join_names(available)));
  return result;
}

}  // namespace tilesim::hw
