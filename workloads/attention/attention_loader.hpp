#pragma once
// Reads an attention workload from a study (an entry with `attention:` in
// place of `gemm:`), checking every field and the rules between fields.

#include <yaml-cpp/yaml.h>

#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/yaml_schema.hpp"
#include "workloads/attention/attention_workload.hpp"

namespace tilesim::workloads {

// Fills `workload` from `item`; every problem goes to `diagnostics`. Returns
// the values read (e.g. `name`, for the study's duplicate-name check).
config::Values read_attention_workload(const YAML::Node& item, const config::ReadContext& context,
                                       AttentionWorkload& workload,
                                       config::Diagnostics& diagnostics);

// The declared keys, for the configuration reference (docs/config.md).
std::vector<config::Param> attention_workload_params();

}  // namespace tilesim::workloads
