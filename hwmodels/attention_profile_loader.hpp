#pragma once
// Reads attention kernel profiles (configs/attention/<name>.yaml, beside
// configs/kernels/): each implementation class is described once. Values that
// depend on the GPU are maps keyed by architecture or hardware name, as in GEMM
// kernel profiles (kernel_profile_loader.hpp).

#include <filesystem>
#include <optional>
#include <string>

#include "hwmodels/attention_profile.hpp"
#include "hwmodels/diagnostics.hpp"
#include "hwmodels/kernel_profile_loader.hpp"
#include "hwmodels/yaml_schema.hpp"

namespace tilesim::hw {

config::Schema<AttentionProfile> attention_profile_schema();

// The profiles of the GPU `spec`: configs/attention beside the folder its
// kernel profiles came from (so a hardware file anywhere finds them).
std::filesystem::path attention_profile_dir(const HardwareSpec& spec);

// The profile `file` as it applies to `target`.
config::Loaded<AttentionProfile> load_attention_profile(const std::filesystem::path& file,
                                                        const ProfileTarget& target);

}  // namespace tilesim::hw
