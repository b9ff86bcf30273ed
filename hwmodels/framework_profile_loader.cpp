#include "hwmodels/framework_profile_loader.hpp"

#include <fmt/format.h>

#include "hwmodels/guarded_read.hpp"
#include "hwmodels/profile_folder.hpp"
#include "hwmodels/yaml_file.hpp"

namespace tilesim::hw {

using config::Diagnostics;
using config::Param;
using config::QuantityKind;
using config::Value;

config::Schema<FrameworkProfile> framework_profile_schema() {
  using P = FrameworkProfile;
  config::Schema<FrameworkProfile> s;
  s.add(Param::text("description").describe("Which framework and version this describes."),
        config::into(&P::description));
  s.add(Param::sequence("architectures")
            .not_empty()
            .describe("GPU architectures the values apply to, e.g. [sm80, sm90]."),
        [](P& profile, const Value& value) {
          profile.architectures.clear();
          for (const YAML::Node& item : value.node) {
            if (item.IsScalar()) profile.architectures.push_back(item.Scalar());
          }
        });
  for (std::size_t i = 0; i < kFrameworkKernelFamilies; ++i) {
    const std::string family(framework_kernel_family_names()[i]);
    s.add(Param::quantity("cta_setup." + family, QuantityKind::time)
              .range("0 us", "100 us")
              .by_gpu()
              .describe(fmt::format("Fixed time of each CTA of a `{}` kernel before its first "
                                    "load (index arithmetic, a reduction's second phase).",
                                    family)),
          [i](P& profile, const Value& value) { profile.cta_setup_s[i] = value.number; });
  }
  return s;
}

namespace {

FrameworkProfile profile_from(const std::filesystem::path& file, const YAML::Node& root,
                              const ProfileTarget& target, Diagnostics& diagnostics) {
  const std::string path = file.string();
  FrameworkProfile profile;
  profile.name = file.stem().string();
  profile.source_path = path;
  framework_profile_schema().read(root, profile_read_context(path, target), profile, diagnostics);
  return profile;
}

}  // namespace

config::Loaded<FrameworkProfile> load_framework_profile(const std::filesystem::path& file,
                                                        const ProfileTarget& target) {
  return config::guarded_read<FrameworkProfile>(
      file.string(), Diagnostics{},
      [&](Diagnostics& diagnostics) -> std::optional<FrameworkProfile> {
        std::optional<YAML::Node> root = config::load_yaml_file(file, diagnostics);
        if (!root) return std::nullopt;
        return profile_from(file, *root, target, diagnostics);
      });
}

config::Loaded<FrameworkProfile> read_framework_profile(const std::filesystem::path& file,
                                                        const YAML::Node& root,
                                                        const ProfileTarget& target) {
  return config::guarded_read<FrameworkProfile>(
      file.string(), Diagnostics{},
      [&](Diagnostics& diagnostics) -> std::optional<FrameworkProfile> {
        return profile_from(file, root, target, diagnostics);
      });
}

void read_framework_profiles(const std::filesystem::path& kernel_dir, const ProfileTarget& target,
                             std::map<std::string, FrameworkProfile>& profiles,
                             config::Diagnostics& diagnostics) {
  read_profile_folder(kernel_dir.parent_path() / "frameworks", target, load_framework_profile,
                      read_framework_profile, profiles, diagnostics);
}

}  // namespace tilesim::hw
