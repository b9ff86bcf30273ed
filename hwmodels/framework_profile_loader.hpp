#pragma once
// Reads framework profiles (configs/frameworks/<name>.yaml, beside
// configs/kernels/): each framework's kernel families are described once.
// Values that depend on the GPU are maps keyed by architecture or hardware
// name, as in kernel profiles (kernel_profile_loader.hpp).

#include <filesystem>
#include <map>
#include <string>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/framework_profile.hpp"
#include "hwmodels/kernel_profile_loader.hpp"
#include "hwmodels/yaml_schema.hpp"

namespace tilesim::hw {

config::Schema<FrameworkProfile> framework_profile_schema();

// The profile `file` as it applies to `target`.
config::Loaded<FrameworkProfile> load_framework_profile(const std::filesystem::path& file,
                                                        const ProfileTarget& target);
// The same from the file's parsed text `root`.
config::Loaded<FrameworkProfile> read_framework_profile(const std::filesystem::path& file,
                                                        const YAML::Node& root,
                                                        const ProfileTarget& target);

// Every profile in configs/frameworks beside the kernel-profile folder
// `kernel_dir` that runs on `target`'s architecture, into `profiles` by name.
void read_framework_profiles(const std::filesystem::path& kernel_dir, const ProfileTarget& target,
                             std::map<std::string, FrameworkProfile>& profiles,
                             config::Diagnostics& diagnostics);

}  // namespace tilesim::hw
