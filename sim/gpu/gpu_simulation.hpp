#pragma once
// Runs a KernelPlan on a GPU built from a HardwareSpec: the launch path (host
// issue, launch latency, stream order), the block scheduler dispatching CTAs in
// launch order to SMs with room, and the CTA programs on the shared resources.

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "sim/gpu/simulation_result.hpp"

namespace tilesim::gpu {

struct SimulationOptions {
  bool record_bandwidth = false;  // HBM/L2 bandwidth samples, for traces
  bool attribute_time = false;    // what CTAs' time went to (KernelRecord::time_use_per_sm)
};

SimulationResult simulate(const KernelPlan& plan, const hw::HardwareSpec& spec,
                          const SimulationOptions& options = {});

}  // namespace tilesim::gpu
