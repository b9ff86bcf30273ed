#pragma once
// A study: the hardware to run on and the workloads to simulate, as read from a
// study YAML (configs/studies/*.yaml). Plain data; lowering to kernels happens in
// the schedules (workloads/gemm/) and attention variants (workloads/attention/).

#include <string>
#include <variant>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "workloads/attention/attention_workload.hpp"
#include "workloads/gemm/gemm_workload.hpp"
#include "workloads/graph/graph_workload.hpp"
#include "workloads/model/model_workload.hpp"

namespace tilesim::workloads {

using Workload =
    std::variant<GemmWorkload, AttentionWorkload, GraphWorkload, LayerWorkload, ModelWorkload>;

struct Study {
  std::string source_path;
  std::string hardware;  // a name under configs/hw/ or a path
  config::SourceLocation hardware_location;
  std::vector<Workload> workloads;
};

const std::string& workload_name(const Workload& workload);
// "gemm", "attention", "graph", "layer" or "model": the key of the map that sets its size.
const char* workload_kind(const Workload& workload);
// Where its entry starts in the study file.
const config::SourceLocation& workload_location(const Workload& workload);
// What tells a workload's runs apart in plots: a GEMM's schedule, an attention
// workload's variant, a graph's, layer's or model's launch mode.
const std::string& workload_series(const Workload& workload);

}  // namespace tilesim::workloads
