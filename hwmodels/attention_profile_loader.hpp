#pragma once
// Reads attention kernel profiles (configs/attention/<name>.yaml, beside
// configs/kernels/): each implementation class is described once. Values that
// depend on the GPU are maps keyed by architecture or hardware name, as in GEMM
// kernel profiles (kernel_profile_loader.hpp).

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "hwmodels/attention_profile.hpp"
#include "hwmodels/diagnostics.hpp"
#include "hwmodels/kernel_profile_loader.hpp"
#include "hwmodels/yaml_schema.hpp"

namespace tilesim::hw {

config::Schema<AttentionProfile> attention_profile_schema();

// The profile `file` as it applies to `target`.
config::Loaded<AttentionProfile> load_attention_profile(const std::filesystem::path& file,
                                                        const ProfileTarget& target);
// The same from the file's parsed text `root`.
config::Loaded<AttentionProfile> read_attention_profile(const std::filesystem::path& file,
                                                        const YAML::Node& root,
                                                        const ProfileTarget& target);

// Every profile in configs/attention beside the kernel-profile folder
// `kernel_dir` (configs/kernels) that runs on `target`'s architecture, into
// `profiles` by name, read once with the hardware file so that lowering never
// touches the file system. A broken profile file is reported like a broken
// kernel profile, with its own file:line.
void read_attention_profiles(const std::filesystem::path& kernel_dir, const ProfileTarget& target,
                             std::map<std::string, AttentionProfile>& profiles,
                             config::Diagnostics& diagnostics);

}  // namespace tilesim::hw
