#pragma once
// Simulates the kernel-graph workloads of a study. With `compare`, one run
// per launch mode (and, for the layer preset, per fused/unfused), named
// "<name>/<choice>...".

#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/gpu_simulation.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/graph/graph_workload.hpp"
#include "workloads/workload_run.hpp"

namespace tilesim::workloads {

config::Loaded<std::vector<WorkloadRun>> run_graph_workload(
    const GraphWorkload& workload, const hw::HardwareSpec& spec,
    const GemmScheduleRegistry& schedules, const gpu::SimulationOptions& options = {});

config::Loaded<std::vector<WorkloadRun>> run_layer_workload(
    const LayerWorkload& workload, const hw::HardwareSpec& spec,
    const GemmScheduleRegistry& schedules, const gpu::SimulationOptions& options = {});

// Lowers without simulating, for `tilesim validate`: the problems a run would
// report (kernel profiles, attention variants that do not apply, ...).
config::Diagnostics check_graph_workload(const GraphWorkload& workload,
                                         const hw::HardwareSpec& spec,
                                         const GemmScheduleRegistry& schedules);
config::Diagnostics check_layer_workload(const LayerWorkload& workload,
                                         const hw::HardwareSpec& spec,
                                         const GemmScheduleRegistry& schedules);

}  // namespace tilesim::workloads
