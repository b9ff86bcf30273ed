#include "hwmodels/config_file_path.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "hwmodels/closest_match.hpp"

namespace tilesim::config {

Loaded<std::filesystem::path> resolve_config_file(const std::string& name_or_path,
                                                  const std::filesystem::path& folder,
                                                  const std::string& key, const std::string& what,
                                                  const SourceLocation& where) {
  Loaded<std::filesystem::path> result;
  std::error_code error;
  const std::filesystem::path given(name_or_path);
  const bool looks_like_path = name_or_path.find('/') != std::string::npos ||
                               given.extension() == ".yaml" || given.extension() == ".yml";
  if (looks_like_path) {
    if (std::filesystem::is_regular_file(given, error)) {
      result.value = given;
    } else {
      result.diagnostics.add(where, key,
                             fmt::format("cannot open {} file `{}`", what, name_or_path));
    }
    return result;
  }
  const std::filesystem::path candidate = folder / (name_or_path + ".yaml");
  if (std::filesystem::is_regular_file(candidate, error)) {
    result.value = candidate;
    return result;
  }
  std::vector<std::string> available;
  // error_code overloads throughout: a missing or unreadable directory lists nothing.
  for (auto it = std::filesystem::directory_iterator(folder, error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    if (it->path().extension() == ".yaml") {
      available.push_back(it->path().stem().string());
    }
  }
  std::sort(available.begin(), available.end());
  const auto suggestion = closest_match(name_or_path, available);
  result.diagnostics.add(
      where, key,
      fmt::format("unknown {} `{}`; {}available in {}: {}; or give a path to a YAML file", what,
                  name_or_path, suggestion ? fmt::format("did you mean `{}`? ", *suggestion) : "",
                  folder.string(), available.empty() ? "none" : join_names(available)));
  return result;
}

}  // namespace tilesim::config
