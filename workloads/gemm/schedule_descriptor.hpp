#pragma once
// The name of the schedule a GEMM was simulated with, including the choices
// that matter: "data_parallel", "split_k:serial:splits=8",
// "stream_k:two_tile:deterministic". Reports print it; sweeps and `auto` use it.

#include <string>

#include "hwmodels/hardware_spec.hpp"
#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::workloads {

std::string describe_schedule(const GemmWorkload& workload, const hw::KernelProfile& kernel,
                              const hw::HardwareSpec& spec);

}  // namespace tilesim::workloads
