#pragma once
// When each kernel of a plan reaches the GPU. Eager launches are issued one
// after another by the host, each costing host_issue_s, so kernels shorter than
// that leave the GPU idle; a CUDA graph is one host launch whose nodes then
// follow each other at graph_node_s apart.

#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "sim/engine/sim_time.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

struct LaunchTiming {
  sim::SimTime host_issue_begin;
  sim::SimTime host_issue_end;
  sim::SimTime ready;  // the kernel may start (stream order permitting)
};

std::vector<LaunchTiming> launch_timings(const KernelPlan& plan, const hw::LaunchSpec& launch);

}  // namespace tilesim::gpu
