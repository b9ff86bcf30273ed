#pragma once
// `schedule: auto` on a graph's GEMMs (what a `layer:` or `model:` prefill
// runs by default): a vendor library picks its tile and schedule per shape,
// and the model's `auto` simulates each GEMM's candidates alone, on a cold
// L2, and keeps the fastest (workloads/gemm/gemm_runner.hpp). GEMMs of the
// same shape, kernel and fused work are chosen once.

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/gpu_simulation.hpp"
#include "sim/gpu/plan_cost.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/graph/kernel_graph.hpp"

namespace tilesim::workloads {

// The graph with every `auto` GEMM replaced by its choice.
config::Loaded<KernelGraph> with_chosen_gemms(const KernelGraph& graph,
                                              const hw::HardwareSpec& spec,
                                              const GemmScheduleRegistry& schedules,
                                              const gpu::SimulationOptions& options);

// The graph with every `auto` GEMM as data-parallel: what the estimate of a
// graph's own simulation lowers before anything is chosen.
KernelGraph with_auto_gemms_as_data_parallel(const KernelGraph& graph);

// What choosing costs: the runs `auto` is expected to simulate for each
// distinct `auto` GEMM (gemm_runner.hpp), each counted as the GEMM's
// data-parallel plan.
config::Loaded<gpu::PlanCost> gemm_choice_cost(const KernelGraph& graph,
                                               const hw::HardwareSpec& spec,
                                               const GemmScheduleRegistry& schedules);

}  // namespace tilesim::workloads
