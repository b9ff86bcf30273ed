#pragma once
// "What if" hints, each answered by simulating the workload again with one
// change, never by a formula: twice the HBM bandwidth, twice the L2 bandwidth
// (aggregate and per-SM port), twice the tensor-core throughput, and the
// workload's alternatives (a GEMM's other schedules, an attention workload's
// other variants, a graph's other launch mode, a layer's fused or unfused
// kernels and other launch mode).

#include <map>
#include <string>
#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/gpu_simulation.hpp"
#include "sim/gpu/plan_cost.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/study.hpp"
#include "workloads/workload_run.hpp"

namespace tilesim::explain {

struct WhatIf {
  std::string change;  // "2x HBM bandwidth", "as stream_k:two_tile:deterministic"
  double time_us = 0;
  double base_time_us = 0;

  // -0.31 for a run 31% shorter.
  double time_change() const { return base_time_us > 0 ? time_us / base_time_us - 1 : 0; }
};

// For each run of `workload` (`runs`, as simulated on `spec`), by run name.
// Alternatives are tried only where the workload names one concrete choice
// (not `compare` or `auto`); one that cannot run on the hardware, or that the
// engine stops at `options.max_effort_events`, is left out.
std::map<std::string, std::vector<WhatIf>> what_ifs(
    const workloads::Workload& workload, const std::vector<workloads::WorkloadRun>& runs,
    const hw::HardwareSpec& spec, const workloads::GemmScheduleRegistry& schedules,
    const gpu::SimulationOptions& options);

// What simulating every what-if of `workload` costs (docs/limits.md): each
// hardware change and each alternative that lowers on `spec`.
gpu::PlanCost estimate_what_if_cost(const workloads::Workload& workload,
                                    const hw::HardwareSpec& spec,
                                    const workloads::GemmScheduleRegistry& schedules);

}  // namespace tilesim::explain
