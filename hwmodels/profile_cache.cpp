#include "hwmodels/profile_cache.hpp"

#include "hwmodels/attention_profile_loader.hpp"
#include "hwmodels/framework_profile_loader.hpp"

namespace tilesim::hw {
namespace {

ProfileGpu profile_gpu(const ProfileTarget& target) {
  return {target.name, target.architecture, target.clock_hz};
}

// `read(kernel_dir, target, profiles, diagnostics)` unless `last` is that read;
// the profiles and problems are then handed out as the read gave them.
template <typename Profile, typename Read>
void read_once(std::optional<ProfileFolderRead<Profile>>& last,
               const std::filesystem::path& kernel_dir, const ProfileTarget& target,
               const Read& read, std::map<std::string, Profile>& profiles,
               config::Diagnostics& diagnostics) {
  const ProfileGpu gpu = profile_gpu(target);
  if (!last || last->kernel_dir != kernel_dir || !(last->gpu == gpu)) {
    last.emplace();
    last->kernel_dir = kernel_dir;
    last->gpu = gpu;
    read(kernel_dir, target, last->profiles, last->diagnostics);
  }
  for (const auto& [name, profile] : last->profiles) profiles[name] = profile;
  diagnostics.append(last->diagnostics);
}

}  // namespace

config::Loaded<KernelProfile> ProfileCache::load_kernel(const std::filesystem::path& file,
                                                        const ProfileTarget& target,
                                                        const std::vector<FieldOverride>& overrides,
                                                        const std::string& key_prefix) {
  if (!overrides.empty()) return load_kernel_profile(file, target, overrides, key_prefix);
  const ProfileGpu gpu = profile_gpu(target);
  if (!(kernels_gpu_ == gpu)) {
    kernels_.clear();
    kernels_gpu_ = gpu;
  }
  auto kept = kernels_.find(file);
  if (kept == kernels_.end()) {
    config::Loaded<KernelProfileRead> read = read_kernel_profile(file, target, {}, key_prefix);
    // A read with problems is not kept: its messages name `key_prefix`.
    if (!read.ok()) return {std::nullopt, std::move(read.diagnostics)};
    kept = kernels_.emplace(file, std::move(*read.value)).first;
  }
  return fit_kernel_profile(kept->second, target, key_prefix);
}

void ProfileCache::read_attention(const std::filesystem::path& kernel_dir,
                                  const ProfileTarget& target,
                                  std::map<std::string, AttentionProfile>& profiles,
                                  config::Diagnostics& diagnostics) {
  read_once(attention_, kernel_dir, target, read_attention_profiles, profiles, diagnostics);
}

void ProfileCache::read_frameworks(const std::filesystem::path& kernel_dir,
                                   const ProfileTarget& target,
                                   std::map<std::string, FrameworkProfile>& profiles,
                                   config::Diagnostics& diagnostics) {
  read_once(frameworks_, kernel_dir, target, read_framework_profiles, profiles, diagnostics);
}

}  // namespace tilesim::hw
