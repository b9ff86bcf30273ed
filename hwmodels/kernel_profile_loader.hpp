#pragma once
// Reads kernel profile files (configs/kernels/<file>.yaml): each GEMM kernel
// implementation is described once, and hardware files name the profiles they
// offer (hardware_loader.cpp). A value that depends on the GPU (a fitted
// efficiency, a measured latency) is written as a map keyed by architecture or
// hardware name; reading the profile for one GPU picks its entry.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_loader.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "hwmodels/yaml_schema.hpp"

namespace tilesim::hw {

// The GPU a profile is read for. Per-GPU maps take the entry keyed by `name`,
// else the one keyed by `architecture`.
struct ProfileTarget {
  std::string name;            // hardware name, e.g. "h100_sxm.measured"
  std::string architecture;    // e.g. "sm90"
  double clock_hz = 0;         // for per-clock units
  const SmSpec* sm = nullptr;  // when given, the tile must fit this SM
};

// Where the profiles named by the hardware file `hardware_path` live: the
// `kernels/` folder beside its `hw/` folder (configs/hw -> configs/kernels),
// else `<config_dir>/kernels`; nullopt when neither applies.
std::optional<std::filesystem::path> kernel_profile_dir(const std::filesystem::path& hardware_path,
                                                        const std::filesystem::path& config_dir);

// Profile names in `dir` (file names without .yaml), sorted.
std::vector<std::string> kernel_profile_names(const std::filesystem::path& dir);

// The profile `file` as it applies to `target`, with `overrides` (key paths
// inside the profile, e.g. "tensor_efficiency") applied first. Problems are
// reported with the profile file's positions under `key_prefix`
// ("kernels.library.tile.m").
config::Loaded<KernelProfile> load_kernel_profile(const std::filesystem::path& file,
                                                  const ProfileTarget& target,
                                                  const std::vector<FieldOverride>& overrides,
                                                  const std::string& key_prefix);

// The two steps of load_kernel_profile, so that a read can be kept for
// another load of the same GPU (profile_cache.hpp): the file read for the
// target's name, architecture and clock, then its tile checked against the SM.
struct KernelProfileRead {
  KernelProfile profile;
  config::Values values;  // where each value was given, for the fit check's messages
};
config::Loaded<KernelProfileRead> read_kernel_profile(const std::filesystem::path& file,
                                                      const ProfileTarget& target,
                                                      const std::vector<FieldOverride>& overrides,
                                                      const std::string& key_prefix);
// `read`'s profile, its tile checked against `target.sm` when that is given.
config::Loaded<KernelProfile> fit_kernel_profile(const KernelProfileRead& read,
                                                 const ProfileTarget& target,
                                                 const std::string& key_prefix);

// A profile file checked on its own, every per-GPU entry included (`tilesim
// validate`). The value holds the GPU-independent fields only.
config::Loaded<KernelProfile> check_kernel_profile_file(const std::filesystem::path& file);

}  // namespace tilesim::hw
