#pragma once
// When each kernel of a plan reaches the GPU, and what the GPU's front end
// costs once a kernel's dependencies are done.
//
// Eager launches are issued one after another by the host, each costing
// host_issue_s (after the launch's own host_dispatch_s, a framework's per-op work); the host runs
// ahead of the GPU, so its cost is hidden only while the queued kernels last longer than
// host_issue_s. A CUDA graph is one host launch; the GPU's front end then takes its nodes
// graph_node_s apart. Either way a kernel whose dependencies (stream predecessor, events, graph
// edges) end while it waits needs the front end's dependency gap before its
// first CTA is dispatched.

#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "sim/engine/sim_time.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

struct LaunchTiming {
  sim::SimTime host_issue_begin;
  sim::SimTime host_issue_end;
  sim::SimTime arrival;  // the launch reached the GPU; dependencies permitting, it may start
};

std::vector<LaunchTiming> launch_timings(const KernelPlan& plan, const hw::LaunchSpec& launch);

// From a kernel's last dependency ending to its first CTA being dispatched.
// graph_node_s is measured per node of a chain of empty kernels, which
// includes dispatching the CTA, so the front end's own share is the rest.
// Kernels queued on a stream by eager launches pass the same front end.
sim::SimTime dependency_gap(const hw::LaunchSpec& launch);

}  // namespace tilesim::gpu
