#pragma once
// Renders parameter declarations (yaml_schema.hpp) as the Markdown reference
// committed as docs/config.md, so the docs are generated from the same
// declarations that validation uses.

#include <span>
#include <string>
#include <vector>

#include "hwmodels/yaml_schema.hpp"

namespace tilesim::config {

// One table of the reference: the parameters of one map.
struct ReferenceSection {
  std::string title;       // "Hardware file"
  std::string intro;       // a paragraph above the table
  std::string key_prefix;  // shown before every key: "kernels.<name>."
  std::vector<Param> params;
};

// A hand-written introduction (units, error format, `--set`), the table of units,
// then one table per section.
std::string render_reference_markdown(std::span<const ReferenceSection> sections);

}  // namespace tilesim::config
