#pragma once
// Finds a configuration file a study names: an existing path (one with a '/'
// or a .yaml/.yml extension), or a name of a file in a folder of configs/
// ("h100_sxm" -> configs/hw/h100_sxm.yaml, "llama3_8b" -> configs/models/...).
// An unknown name is answered with the closest name and every available one.

#include <filesystem>
#include <string>

#include "hwmodels/diagnostics.hpp"

namespace tilesim::config {

// `key` is the key path the problem is reported under, `what` names the kind
// of file in messages ("hardware", "model preset").
Loaded<std::filesystem::path> resolve_config_file(const std::string& name_or_path,
                                                  const std::filesystem::path& folder,
                                                  const std::string& key, const std::string& what,
                                                  const SourceLocation& where);

}  // namespace tilesim::config
