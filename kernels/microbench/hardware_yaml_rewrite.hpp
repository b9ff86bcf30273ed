#pragma once
// Rewrites values of a hardware YAML file in place, as text: every other line,
// comment and the layout stay as they were, so a calibrated file reads like
// the base it came from.

#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "kernels/microbench/measured_hardware_fields.hpp"

namespace tilesim::microbench {

// `base_text` with each field's value replaced and its trailing comment set to
// `# <comment>`, aligned with the comment it replaces. A key path that is not
// a scalar of the file is a problem (`origin` names the file in it).
config::Loaded<std::string> rewrite_hardware_yaml(const std::string& base_text,
                                                  const std::string& origin,
                                                  const std::vector<MeasuredField>& fields);

}  // namespace tilesim::microbench
