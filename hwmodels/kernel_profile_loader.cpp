#include "hwmodels/kernel_profile_loader.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "hwmodels/guarded_read.hpp"
#include "hwmodels/hardware_schema.hpp"
#include "hwmodels/kernel_fit.hpp"
#include "hwmodels/profile_folder.hpp"
#include "hwmodels/yaml_file.hpp"
#include "hwmodels/yaml_schema.hpp"

namespace tilesim::hw {

using config::Diagnostics;
using config::Values;

namespace {

// Architecture names are names other files refer to; report the ones that are not.
void check_architecture_names(const Values& values, const std::string& key_prefix,
                              Diagnostics& diagnostics) {
  const auto found = values.find("architectures");
  if (found == values.end()) return;
  for (const YAML::Node& item : found->second.node) {
    if (item.IsScalar() && config::is_name_like(item.Scalar())) continue;
    diagnostics.add(config::location_of(item.Mark(), found->second.where.file),
                    config::join_keys(key_prefix, "architectures"),
                    "expected architecture names such as sm80 or sm90");
  }
}

void check_fit(const KernelProfile& profile, const ProfileTarget& target, const Values& values,
               const std::string& key_prefix, const std::string& file, Diagnostics& diagnostics) {
  for (const KernelFitProblem& problem : kernel_fit_problems(profile, *target.sm)) {
    const auto at = values.find(problem.key);
    diagnostics.add(at != values.end() ? at->second.where : config::SourceLocation{file, 1, 1},
                    config::join_keys(key_prefix, problem.key),
                    fmt::format("{} on {}", problem.message, target.name));
  }
}

}  // namespace

std::optional<std::filesystem::path> kernel_profile_dir(const std::filesystem::path& hardware_path,
                                                        const std::filesystem::path& config_dir) {
  const std::filesystem::path folder = hardware_path.parent_path();
  if (folder.filename() == "hw") return folder.parent_path() / "kernels";
  if (!config_dir.empty()) return config_dir / "kernels";
  return std::nullopt;
}

std::vector<std::string> kernel_profile_names(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code error;
  // error_code overloads throughout: a missing or unreadable directory lists nothing.
  for (auto it = std::filesystem::directory_iterator(dir, error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    if (it->path().extension() == ".yaml") names.push_back(it->path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

config::Loaded<KernelProfileRead> read_kernel_profile(const std::filesystem::path& file,
                                                      const ProfileTarget& target,
                                                      const std::vector<FieldOverride>& overrides,
                                                      const std::string& key_prefix) {
  const std::string path = file.string();
  return config::guarded_read<KernelProfileRead>(
      path, Diagnostics{}, [&](Diagnostics& diagnostics) -> std::optional<KernelProfileRead> {
        std::optional<YAML::Node> root = config::load_yaml_file(file, diagnostics);
        if (!root) return std::nullopt;
        if (root->IsMap()) {
          for (const FieldOverride& field : overrides) {
            config::set_scalar_at(*root, field.key_path, field.value);
          }
        }
        config::ReadContext context = profile_read_context(path, target);
        context.key_prefix = key_prefix;
        KernelProfileRead read;
        read.profile.source_path = path;
        read.values = kernel_profile_schema().read(*root, context, read.profile, diagnostics);
        check_architecture_names(read.values, key_prefix, diagnostics);
        return read;
      });
}

config::Loaded<KernelProfile> fit_kernel_profile(const KernelProfileRead& read,
                                                 const ProfileTarget& target,
                                                 const std::string& key_prefix) {
  const std::string& path = read.profile.source_path;
  return config::guarded_read<KernelProfile>(
      path, Diagnostics{}, [&](Diagnostics& diagnostics) -> std::optional<KernelProfile> {
        if (target.sm != nullptr) {
          check_fit(read.profile, target, read.values, key_prefix, path, diagnostics);
        }
        return read.profile;
      });
}

config::Loaded<KernelProfile> load_kernel_profile(const std::filesystem::path& file,
                                                  const ProfileTarget& target,
                                                  const std::vector<FieldOverride>& overrides,
                                                  const std::string& key_prefix) {
  config::Loaded<KernelProfileRead> read = read_kernel_profile(file, target, overrides, key_prefix);
  if (!read.ok()) return {std::nullopt, std::move(read.diagnostics)};
  return fit_kernel_profile(*read.value, target, key_prefix);
}

config::Loaded<KernelProfile> check_kernel_profile_file(const std::filesystem::path& file) {
  const std::string path = file.string();
  return config::guarded_read<KernelProfile>(
      path, Diagnostics{}, [&](Diagnostics& diagnostics) -> std::optional<KernelProfile> {
        std::optional<YAML::Node> root = config::load_yaml_file(file, diagnostics);
        if (!root) return std::nullopt;
        config::ReadContext context;
        context.file = path;
        KernelProfile profile;
        profile.source_path = path;
        const Values values = kernel_profile_schema().read(*root, context, profile, diagnostics);
        check_architecture_names(values, "", diagnostics);
        return profile;
      });
}

}  // namespace tilesim::hw
