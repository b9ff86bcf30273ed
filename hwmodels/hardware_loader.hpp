#pragma once
// Reads a hardware YAML file (configs/hw/*.yaml) into a validated HardwareSpec.

#include <filesystem>
#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"

namespace tilesim::hw {

class ProfileCache;

// A `--set key.path=value` override, applied on top of the YAML before validation
// so that the override is checked exactly like a value written in the file.
struct FieldOverride {
  std::string key_path;  // e.g. "hbm.bandwidth"
  std::string value;     // e.g. "4.8 TB/s"
};

// Parses `key.path=value` strings (the command line's --set), each split at
// its first `=`; one without a key is reported against "--set".
config::Loaded<std::vector<FieldOverride>> parse_field_overrides(
    const std::vector<std::string>& assignments);

// Parses and validates `path` and the kernel profiles it names
// (kernel_profile_loader.hpp): from the `kernels/` folder beside its `hw/`
// folder, else from `<config_dir>/kernels`. All problems are reported together.
// An override `kernels.<name>=<profile>` picks another profile file,
// `kernels.<name>.<field>=<value>` changes a field of the profile offered as <name>.
config::Loaded<HardwareSpec> load_hardware_spec(const std::filesystem::path& path,
                                                const std::vector<FieldOverride>& overrides = {},
                                                const std::filesystem::path& config_dir = {});
// The same, with the profiles `profiles` read for the same GPU before taken
// from it (profile_cache.hpp): for loading many variants of one GPU.
config::Loaded<HardwareSpec> load_hardware_spec(const std::filesystem::path& path,
                                                const std::vector<FieldOverride>& overrides,
                                                const std::filesystem::path& config_dir,
                                                ProfileCache& profiles);

// Resolves a study's `hardware:` value: an existing file path, or a name under
// `<config_dir>/hw/` ("h100_sxm" -> configs/hw/h100_sxm.yaml). Unknown names list
// the available ones.
config::Loaded<std::filesystem::path> resolve_hardware_path(
    const std::string& name_or_path, const std::filesystem::path& config_dir);
// The same, with problems reported at `where` (the study's `hardware:` value). A
// relative path is taken as given, i.e. relative to the working directory.
config::Loaded<std::filesystem::path> resolve_hardware_path(const std::string& name_or_path,
                                                            const std::filesystem::path& config_dir,
                                                            const config::SourceLocation& where);

}  // namespace tilesim::hw
