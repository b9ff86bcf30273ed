#pragma once
// Reading a YAML file for the config loaders: an unreadable file, one over
// 4 MiB, one that is not UTF-8 text (NUL bytes, malformed UTF-8), a syntax error, nesting too
// deep, or aliases that unfold to more nodes than any config has (a "billion
// laughs") becomes a Diagnostic with its position instead of an exception, a
// hang or an exhausted memory.

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "hwmodels/diagnostics.hpp"

namespace tilesim::config {

// The document in `path`, or nullopt after adding the problem to `diagnostics`.
// An empty file is reported too: every config file must hold a map.
std::optional<YAML::Node> load_yaml_file(const std::filesystem::path& path,
                                         Diagnostics& diagnostics);

// Whether `text` can be a config file: at most 4 MiB of UTF-8 text without NUL
// bytes; if not, the problem is reported (the first offending byte at its line
// and column).
bool is_config_text(std::string_view text, const std::string& origin, Diagnostics& diagnostics);

// The same for a document held in memory; `origin` names it in diagnostics.
std::optional<YAML::Node> load_yaml_text(const std::string& text, const std::string& origin,
                                         Diagnostics& diagnostics);

// Writes `value` at the dotted `key_path` of `map` as a new scalar node (maps on
// the way are created). A new node has no file position, so a problem with it is
// reported against "--set", not against the file's old value. A non-map on the
// way is left alone: the file's own error is reported.
void set_scalar_at(YAML::Node map, std::string_view key_path, const std::string& value);

}  // namespace tilesim::config
