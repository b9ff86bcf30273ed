#pragma once
// Reads the kernel-graph workloads of a study: an entry with `graph:` (kernels
// with `op`, `after`, `inputs`, `stream`, `repeat`) or `layer:` (the decoder
// layer preset), checking every field, every name a kernel refers to, and
// that the tensors a kernel reads have the shape it needs.

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/yaml_schema.hpp"
#include "workloads/graph/graph_workload.hpp"

namespace tilesim::workloads {

// `gemm_schedules`: the names a GEMM kernel's `schedule:` may take.
config::Values read_graph_workload(const YAML::Node& item, const config::ReadContext& context,
                                   const std::vector<std::string>& gemm_schedules,
                                   GraphWorkload& workload, config::Diagnostics& diagnostics);

config::Values read_layer_workload(const YAML::Node& item, const config::ReadContext& context,
                                   const std::vector<std::string>& gemm_schedules,
                                   LayerWorkload& workload, config::Diagnostics& diagnostics);

// The declared keys, for the configuration reference (docs/config.md).
std::vector<config::Param> graph_workload_params();
std::vector<config::Param> graph_kernel_params();
std::vector<config::Param> layer_workload_params();

}  // namespace tilesim::workloads
