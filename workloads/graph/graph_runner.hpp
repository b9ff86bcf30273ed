#pragma once
// Simulates the kernel-graph workloads of a study. With `compare`, one run
// per launch mode (and, for the layer preset, per fused/unfused), named
// "<name>/<choice>...".

#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/gpu_simulation.hpp"
#include "sim/gpu/plan_cost.hpp"
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

// What simulating the workload costs (every launch mode and fusion `compare`
// runs), from its lowered plan, and the problems that keep it from lowering
// (kernel profiles, attention variants that do not apply, ...).
config::Loaded<gpu::PlanCost> estimate_graph_cost(const GraphWorkload& workload,
                                                  const hw::HardwareSpec& spec,
                                                  const GemmScheduleRegistry& schedules);
config::Loaded<gpu::PlanCost> estimate_layer_cost(const LayerWorkload& workload,
                                                  const hw::HardwareSpec& spec,
                                                  const GemmScheduleRegistry& schedules);

}  // namespace tilesim::workloads
