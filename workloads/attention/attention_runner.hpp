#pragma once
// Simulates an attention workload of a study: its variant, or with `variant:
// compare` every variant that applies to the shape, one run each named
// "<name>/<variant>".

#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/gpu_simulation.hpp"
#include "sim/gpu/plan_cost.hpp"
#include "workloads/attention/attention_workload.hpp"
#include "workloads/workload_run.hpp"

namespace tilesim::workloads {

config::Loaded<std::vector<WorkloadRun>> run_attention_workload(
    const AttentionWorkload& workload, const hw::HardwareSpec& spec,
    const gpu::SimulationOptions& options = {});

// What simulating the workload costs (every variant `compare` runs), from the
// lowered kernels, and the problems that keep a variant from lowering.
config::Loaded<gpu::PlanCost> estimate_attention_cost(const AttentionWorkload& workload,
                                                      const hw::HardwareSpec& spec);

}  // namespace tilesim::workloads
