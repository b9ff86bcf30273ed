#pragma once
// A study: the hardware to run on and the workloads to simulate, as read from a
// study YAML (configs/studies/*.yaml). Plain data; lowering to kernels happens in
// the schedules (workloads/gemm/).

#include <string>
#include <variant>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::workloads {

using Workload = std::variant<GemmWorkload>;

struct Study {
  std::string source_path;
  std::string hardware;  // a name under configs/hw/ or a path
  config::SourceLocation hardware_location;
  std::vector<Workload> workloads;
};

const std::string& workload_name(const Workload& workload);

}  // namespace tilesim::workloads
