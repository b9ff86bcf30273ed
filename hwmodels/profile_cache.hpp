#pragma once
// The profiles a hardware file is read with (configs/kernels, configs/attention,
// configs/frameworks), kept between loads of the same GPU. `--set` reaches a
// GEMM kernel profile only through `kernels.<name>.<field>`, and the attention
// and framework profiles not at all, so the variants of one GPU (a sweep over
// `--set` or `hw.<key>` values, the set_override fuzz target) read them alike,
// and reading them was most of such a load (docs/fuzzing.md). A profile's
// per-GPU values are picked by the GPU's name, architecture and clock: the
// reads of the last such GPU are kept. Assumes the files do not change while
// it lives; not thread-safe.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hwmodels/attention_profile.hpp"
#include "hwmodels/diagnostics.hpp"
#include "hwmodels/framework_profile.hpp"
#include "hwmodels/kernel_profile_loader.hpp"

namespace tilesim::hw {

// What a profile's per-GPU values are picked by (ProfileTarget without the SM).
struct ProfileGpu {
  std::string name;
  std::string architecture;
  double clock_hz = 0;
  bool operator==(const ProfileGpu&) const = default;
};

// One profile folder as read for one GPU.
template <typename Profile>
struct ProfileFolderRead {
  std::filesystem::path kernel_dir;  // configs/kernels, beside the folder read
  ProfileGpu gpu;
  std::map<std::string, Profile> profiles;
  config::Diagnostics diagnostics;
};

class ProfileCache {
 public:
  // As load_kernel_profile (kernel_profile_loader.hpp). A file read without
  // overrides and without problems is kept for the same GPU; its tile is
  // checked against `target.sm` on every load, since --set can change the SM.
  config::Loaded<KernelProfile> load_kernel(const std::filesystem::path& file,
                                            const ProfileTarget& target,
                                            const std::vector<FieldOverride>& overrides,
                                            const std::string& key_prefix);
  // As read_attention_profiles (attention_profile_loader.hpp), from the last
  // read when it was for the same folder and GPU.
  void read_attention(const std::filesystem::path& kernel_dir, const ProfileTarget& target,
                      std::map<std::string, AttentionProfile>& profiles,
                      config::Diagnostics& diagnostics);
  // As read_framework_profiles (framework_profile_loader.hpp), likewise.
  void read_frameworks(const std::filesystem::path& kernel_dir, const ProfileTarget& target,
                       std::map<std::string, FrameworkProfile>& profiles,
                       config::Diagnostics& diagnostics);

 private:
  ProfileGpu kernels_gpu_;
  std::map<std::filesystem::path, KernelProfileRead> kernels_;  // read for kernels_gpu_
  std::optional<ProfileFolderRead<AttentionProfile>> attention_;
  std::optional<ProfileFolderRead<FrameworkProfile>> frameworks_;
};

}  // namespace tilesim::hw
