#include "hwmodels/profile_folder.hpp"

#include <algorithm>
#include <string_view>

#include "hwmodels/yaml_file.hpp"

namespace tilesim::hw {
namespace {

// A file `tilesim-measure calibrate` wrote (its name ends in `.measured`)
// takes values fitted on a calibrated file of its architecture
// (`sm90.measured`) before the architecture's own: a fit absorbs what the
// hardware file leaves out, and calibrated files leave out the same things.
std::string calibrated_key(const ProfileTarget& target) {
  constexpr std::string_view kSuffix = ".measured";
  if (target.architecture.empty() || !target.name.ends_with(kSuffix)) return {};
  return target.architecture + std::string(kSuffix);
}

}  // namespace

config::ReadContext profile_read_context(const std::string& file, const ProfileTarget& target) {
  config::ReadContext context;
  context.file = file;
  context.clock_hz = target.clock_hz;
  for (const std::string& key : {target.name, calibrated_key(target), target.architecture}) {
    if (!key.empty()) context.gpu_keys.push_back(key);
  }
  return context;
}

bool lists_architecture(const YAML::Node& root, const std::string& architecture) {
  if (!root.IsMap()) return true;
  const YAML::Node listed = root["architectures"];
  if (!listed || !listed.IsSequence()) return true;
  return std::any_of(listed.begin(), listed.end(), [&](const YAML::Node& entry) {
    return entry.IsScalar() && entry.Scalar() == architecture;
  });
}

}  // namespace tilesim::hw
