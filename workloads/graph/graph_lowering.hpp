#pragma once
// Lowers a kernel graph to one KernelPlan: every node becomes its kernels on
// the node's stream, in node order, the first of them depending on the last
// kernel of each node it runs after. GEMMs go through the schedule registry,
// attention through its variants; elementwise and row-reduction nodes are
// kernels of this folder.

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/graph/kernel_graph.hpp"

namespace tilesim::workloads {

struct LoweredGraph {
  gpu::KernelPlan plan;
  double useful_flops = 0;  // GEMMs' 2mnk and attention's, padding excluded
};

// A GEMM's 2mnk or attention's useful flops; 0 for the graph's own kernels.
double node_useful_flops(const GraphNode& node);

config::Loaded<LoweredGraph> lower_kernel_graph(const KernelGraph& graph, gpu::LaunchMode mode,
                                                const hw::HardwareSpec& spec,
                                                const GemmScheduleRegistry& schedules);

}  // namespace tilesim::workloads
