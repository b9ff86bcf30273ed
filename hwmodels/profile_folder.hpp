#pragma once
// Profile folders read with a hardware file (configs/attention,
// configs/frameworks beside configs/kernels): every profile that lists the
// GPU's architecture, by file name, so that lowering never touches the file
// system.

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/kernel_profile_loader.hpp"
#include "hwmodels/yaml_file.hpp"
#include "hwmodels/yaml_schema.hpp"

namespace tilesim::hw {

// How a profile file is read for `target`: per-GPU maps take the entry keyed
// by its name, else (for a calibrated `*.measured` file) its architecture's
// calibrated key (`sm90.measured`), else its architecture.
config::ReadContext profile_read_context(const std::string& file, const ProfileTarget& target);

// Whether a profile's parsed text `root` lists `architecture` under
// `architectures`; true when the list cannot be read, so that reading the
// profile reports why.
bool lists_architecture(const YAML::Node& root, const std::string& architecture);

// Reads each profile of `dir` that runs on `target` into `profiles`: the file
// is parsed once, and read from its nodes with `read(file, root, target)`; a
// file that does not parse is loaded with `load(file, target)`, which reports
// why with the file's own file:line.
template <typename Profile, typename Load, typename Read>
void read_profile_folder(const std::filesystem::path& dir, const ProfileTarget& target,
                         const Load& load, const Read& read,
                         std::map<std::string, Profile>& profiles,
                         config::Diagnostics& diagnostics) {
  // kernel_profile_names lists any folder's .yaml stems, sorted: a stable order
  // for diagnostics.
  for (const std::string& name : kernel_profile_names(dir)) {
    const std::filesystem::path file = dir / (name + ".yaml");
    config::Diagnostics parse;
    const std::optional<YAML::Node> root = config::load_yaml_file(file, parse);
    // Another architecture's profile has no values for this GPU: not read.
    if (root && !lists_architecture(*root, target.architecture)) continue;
    config::Loaded<Profile> profile = root ? read(file, *root, target) : load(file, target);
    diagnostics.append(profile.diagnostics);
    if (profile.ok()) profiles[name] = std::move(*profile.value);
  }
}

}  // namespace tilesim::hw
