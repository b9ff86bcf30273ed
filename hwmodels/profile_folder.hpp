#pragma once
// Profile folders read with a hardware file (configs/attention,
// configs/frameworks beside configs/kernels): every profile that lists the
// GPU's architecture, by file name, so that lowering never touches the file
// system.

#include <filesystem>
#include <map>
#include <string>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/kernel_profile_loader.hpp"
#include "hwmodels/yaml_schema.hpp"

namespace tilesim::hw {

// How a profile file is read for `target`: per-GPU maps take the entry keyed
// by its name, else (for a calibrated `*.measured` file) its architecture's
// calibrated key (`sm90.measured`), else its architecture.
config::ReadContext profile_read_context(const std::string& file, const ProfileTarget& target);

// Whether the profile `file` lists `architecture` under `architectures`; true
// for a file whose list cannot be read, so that loading it reports why.
bool lists_architecture(const std::filesystem::path& file, const std::string& architecture);

// Reads each profile of `dir` that runs on `target` with `load(file, target)`
// into `profiles`; a broken file is reported with its own file:line.
template <typename Profile, typename Load>
void read_profile_folder(const std::filesystem::path& dir, const ProfileTarget& target,
                         const Load& load, std::map<std::string, Profile>& profiles,
                         config::Diagnostics& diagnostics) {
  // kernel_profile_names lists any folder's .yaml stems, sorted: a stable order
  // for diagnostics.
  for (const std::string& name : kernel_profile_names(dir)) {
    const std::filesystem::path file = dir / (name + ".yaml");
    // Another architecture's profile has no values for this GPU: not read.
    if (!lists_architecture(file, target.architecture)) continue;
    config::Loaded<Profile> profile = load(file, target);
    diagnostics.append(profile.diagnostics);
    if (profile.ok()) profiles[name] = std::move(*profile.value);
  }
}

}  // namespace tilesim::hw
