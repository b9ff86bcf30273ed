#include "hwmodels/hardware_loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

#include "hwmodels/closest_match.hpp"
#include "hwmodels/config_file_path.hpp"
#include "hwmodels/guarded_read.hpp"
#include "hwmodels/hardware_schema.hpp"
#include "hwmodels/kernel_profile_loader.hpp"
#include "hwmodels/profile_cache.hpp"
#include "hwmodels/yaml_file.hpp"
#include "hwmodels/yaml_schema.hpp"

namespace tilesim::hw {

using config::Diagnostics;
using config::SourceLocation;
using config::Values;

namespace {

const SourceLocation kSetLocation{"--set", 0, 0};

std::vector<std::string> kernel_names_of(const YAML::Node& kernels) {
  std::vector<std::string> names;
  if (kernels.IsMap()) {
    for (auto it = kernels.begin(); it != kernels.end(); ++it) {
      names.push_back(it->first.Scalar());
    }
  }
  return names;
}

std::vector<std::string> kernel_names(const YAML::Node& root) {
  return kernel_names_of(root.IsMap() ? root["kernels"] : YAML::Node());
}

// `--set` overrides of profile fields (kernels.<name>.<field>), by offered name,
// with the key path inside the profile.
using ProfileOverrides = std::map<std::string, std::vector<FieldOverride>>;

// Why `key_path` cannot be overridden, or nullopt when it names a value.
// `profile_field` is set for kernels.<name>.<field>.
std::optional<std::string> override_problem(
    const YAML::Node& root, const std::string& key_path,
    std::optional<std::pair<std::string, std::string>>& profile_field) {
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
  // kernels.<name> (which profile) or kernels.<name>.<field>: <name> must be offered.
  const std::vector<std::string> names = kernel_names(root);
  const auto dot = match.rest.find('.');
  const std::string name = match.rest.substr(0, dot);
  if (name.empty()) {
    return fmt::format(
        "`kernels` maps names to kernel profiles; name one, e.g. kernels.library=library_sm90 "
        "or kernels.library.tensor_efficiency=0.7 (names: {})",
        config::join_names(names));
  }
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    return config::unknown_key_message(name, names);
  }
  if (dot == std::string::npos) return std::nullopt;
  const std::string field = match.rest.substr(dot + 1);
  const auto profile_params = kernel_profile_schema().params();
  const config::KeyPathMatch inner = config::match_key_path(profile_params, field);
  if (inner.param == nullptr) {
    return inner.error;
  }
  if (!inner.rest.empty()) {
    return fmt::format("`{}` takes a single value; it has no key `{}`", inner.param->key,
                       inner.rest);
  }
  profile_field = std::make_pair(name, field);
  return std::nullopt;
}

// Applies the overrides of the hardware file (a `kernels.<name>` reference
// included) to `root`; returns those of profile fields, for the profile loader.
ProfileOverrides apply_overrides(YAML::Node& root, const std::vector<FieldOverride>& overrides,
                                 Diagnostics& diagnostics) {
  ProfileOverrides profile_overrides;
  for (const FieldOverride& field : overrides) {
    std::optional<std::pair<std::string, std::string>> profile_field;
    if (const auto problem = override_problem(root, field.key_path, profile_field)) {
      diagnostics.add(kSetLocation, field.key_path, *problem);
    } else if (profile_field) {
      profile_overrides[profile_field->first].push_back({profile_field->second, field.value});
    } else if (root.IsMap()) {
      config::set_scalar_at(root, field.key_path, field.value);
    }
  }
  return profile_overrides;
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
  if (spec.power.limit_w > 0) {
    check_at_most(values, "power.static_w", spec.power.static_w, "power.limit_w",
                  spec.power.limit_w, ": no kernel could run under the limit", diagnostics);
  }
  check_at_most(values, "sm.power_limited_clock", spec.sm.power_limited_clock_hz, "sm.clock",
                spec.sm.clock_hz, ": it is the clock the power limit holds the SMs to",
                diagnostics);
}

// Where an offered profile's file is, or why it cannot be found.
std::optional<std::filesystem::path> profile_file(const config::Value& reference,
                                                  const std::optional<std::filesystem::path>& dir,
                                                  const std::string& key,
                                                  Diagnostics& diagnostics) {
  if (!dir) {
    diagnostics.add(reference.where, key,
                    "this hardware file is not in a `hw/` folder and no configuration "
                    "directory was given: cannot tell where kernel profiles are");
    return std::nullopt;
  }
  const std::vector<std::string> available = kernel_profile_names(*dir);
  const YAML::Node& node = reference.node;
  if (!node.IsScalar() || !config::is_name_like(node.Scalar())) {
    diagnostics.add(
        reference.where, key,
        fmt::format("expected the name of a kernel profile in {} (profiles are defined once "
                    "there, not in hardware files); available: {}",
                    dir->string(), available.empty() ? "none" : config::join_names(available)));
    return std::nullopt;
  }
  const std::string& name = node.Scalar();
  const std::filesystem::path file = *dir / (name + ".yaml");
  std::error_code error;
  if (std::filesystem::is_regular_file(file, error)) return file;
  const auto suggestion = config::closest_match(name, available);
  diagnostics.add(
      reference.where, key,
      fmt::format("unknown kernel profile `{}`; {}available in {}: {}", name,
                  suggestion ? fmt::format("did you mean `{}`? ", *suggestion) : "", dir->string(),
                  available.empty() ? "none" : config::join_names(available)));
  return std::nullopt;
}

struct ProfileSource {
  std::optional<std::filesystem::path> dir;  // configs/kernels
  const ProfileOverrides* overrides = nullptr;
  ProfileCache* cache = nullptr;
};

// Reads the profile each `kernels:` entry names, as it applies to this GPU,
// and checks that it runs on its architecture and that its tile fits the SM.
void read_kernel_profiles(const config::Value& kernels, const Values& hardware_values,
                          const config::ReadContext& context, const ProfileSource& source,
                          HardwareSpec& spec, Diagnostics& diagnostics) {
  // Fit checks need every SM limit they compare with.
  constexpr std::array<const char*, 5> kLimits = {
      "sm.max_threads_per_cta", "sm.max_registers_per_thread", "sm.registers",
      "sm.register_allocation_unit", "sm.shared_memory.per_cta_max"};
  const bool limits_known = std::all_of(kLimits.begin(), kLimits.end(), [&](const char* key) {
    return hardware_values.contains(key);
  });
  const bool architecture_known = hardware_values.contains("architecture");
  const ProfileTarget target{spec.name, spec.architecture, spec.sm.clock_hz,
                             limits_known ? &spec.sm : nullptr};
  for (auto it = kernels.node.begin(); it != kernels.node.end(); ++it) {
    const std::string name = it->first.Scalar();
    const std::string key = "kernels." + name;
    if (!config::is_name_like(name)) {
      diagnostics.add(config::location_of(it->first.Mark(), context.file), "kernels",
                      fmt::format("\"{}\" is not a valid profile name: use letters, digits, "
                                  "_ - . only",
                                  name));
      continue;
    }
    config::Value reference;
    reference.node.reset(it->second);
    reference.where = config::location_of(
        it->second.IsNull() ? it->first.Mark() : it->second.Mark(), context.file);
    const auto file = profile_file(reference, source.dir, key, diagnostics);
    if (!file) continue;
    const auto fields = source.overrides->find(name);
    config::Loaded<KernelProfile> profile = source.cache->load_kernel(
        *file, target,
        fields == source.overrides->end() ? std::vector<FieldOverride>{} : fields->second, key);
    diagnostics.append(profile.diagnostics);
    if (!profile.ok()) continue;
    const std::vector<std::string>& runs_on = profile.value->architectures;
    if (architecture_known &&
        std::find(runs_on.begin(), runs_on.end(), spec.architecture) == runs_on.end()) {
      diagnostics.add(
          reference.where, key,
          fmt::format("kernel profile `{}` runs on {}, not on {} ({})", file->stem().string(),
                      config::join_names(runs_on), spec.architecture, spec.name));
    }
    profile.value->name = name;
    spec.kernel_profiles[name] = std::move(*profile.value);
  }
  if (!kernels.node[std::string("library")]) {
    diagnostics.add(kernels.where, "kernels.library",
                    fmt::format("missing required kernel profile `library` (the vendor-class "
                                "kernel studies use by default); names given: {}",
                                config::join_names(kernel_names_of(kernels.node))));
  }
}

}  // namespace

config::Loaded<HardwareSpec> load_hardware_spec(const std::filesystem::path& path,
                                                const std::vector<FieldOverride>& overrides,
                                                const std::filesystem::path& config_dir) {
  ProfileCache profiles;
  return load_hardware_spec(path, overrides, config_dir, profiles);
}

config::Loaded<HardwareSpec> load_hardware_spec(const std::filesystem::path& path,
                                                const std::vector<FieldOverride>& overrides,
                                                const std::filesystem::path& config_dir,
                                                ProfileCache& profiles) {
  const std::string file = path.string();
  return config::guarded_read<HardwareSpec>(
      file, Diagnostics{}, [&](Diagnostics& diagnostics) -> std::optional<HardwareSpec> {
        std::optional<YAML::Node> root = config::load_yaml_file(path, diagnostics);
        if (!root) return std::nullopt;
        const ProfileOverrides profile_overrides = apply_overrides(*root, overrides, diagnostics);
        HardwareSpec spec;
        spec.source_path = file;
        config::ReadContext context;
        context.file = file;
        const Values values = hardware_schema().read(*root, context, spec, diagnostics);
        check_sm(spec, values, diagnostics);
        if (const auto kernels = values.find("kernels"); kernels != values.end()) {
          const ProfileSource source{kernel_profile_dir(path, config_dir), &profile_overrides,
                                     &profiles};
          read_kernel_profiles(kernels->second, values, context, source, spec, diagnostics);
          if (source.dir) {
            const ProfileTarget target{spec.name, spec.architecture, spec.sm.clock_hz, nullptr};
            profiles.read_attention(*source.dir, target, spec.attention_profiles, diagnostics);
            profiles.read_frameworks(*source.dir, target, spec.framework_profiles, diagnostics);
          }
        }
        return spec;
      });
}

config::Loaded<std::vector<FieldOverride>> parse_field_overrides(
    const std::vector<std::string>& assignments) {
  config::Loaded<std::vector<FieldOverride>> loaded;
  std::vector<FieldOverride> overrides;
  for (const std::string& assignment : assignments) {
    const std::size_t equals = assignment.find('=');
    if (equals == std::string::npos || equals == 0) {
      loaded.diagnostics.add({"--set", 0, 0}, assignment,
                             "expected key.path=value, e.g. --set hbm.bandwidth=\"4.8 TB/s\"");
      continue;
    }
    overrides.push_back({assignment.substr(0, equals), assignment.substr(equals + 1)});
  }
  if (loaded.diagnostics.empty()) loaded.value = std::move(overrides);
  return loaded;
}

config::Loaded<std::filesystem::path> resolve_hardware_path(
    const std::string& name_or_path, const std::filesystem::path& config_dir) {
  return resolve_hardware_path(name_or_path, config_dir, SourceLocation{});
}

config::Loaded<std::filesystem::path> resolve_hardware_path(const std::string& name_or_path,
                                                            const std::filesystem::path& config_dir,
                                                            const SourceLocation& where) {
  return config::resolve_config_file(name_or_path, config_dir / "hw", "hardware", "hardware",
                                     where);
}

}  // namespace tilesim::hw
