#pragma once
// Simulates a `model:` workload: per phase (prefill, decode), `fused` and
// `launch` choice, the kernel graph of the embedding, kSimulatedLayers
// layers and the head, extended to the model's depth (layer_repetition.hpp),
// with the serving figures: time to first token, time per output token,
// tokens/s, weight and KV-cache bytes, the most sequences that fit in HBM.
// Runs are named "<name>/<phase>[/<fused>][/<launch>]".

#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/gpu_simulation.hpp"
#include "sim/gpu/plan_cost.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/graph/kernel_graph.hpp"
#include "workloads/model/model_workload.hpp"
#include "workloads/workload_run.hpp"

namespace tilesim::workloads {

config::Loaded<std::vector<WorkloadRun>> run_model_workload(
    const ModelWorkload& workload, const hw::HardwareSpec& spec,
    const GemmScheduleRegistry& schedules, const gpu::SimulationOptions& options = {});

// Every run's simulated graph, lowered and costed (the repeated layers cost
// nothing to simulate).
config::Loaded<gpu::PlanCost> estimate_model_cost(const ModelWorkload& workload,
                                                  const hw::HardwareSpec& spec,
                                                  const GemmScheduleRegistry& schedules);

// The graph of one phase with `layers` layers (tests compare kSimulatedLayers
// extended against all of them).
KernelGraph model_graph(const ModelWorkload& workload, LayerPhase phase, LayerOps ops, int layers);

}  // namespace tilesim::workloads
