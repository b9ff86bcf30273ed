#pragma once
// The GPU-side gap between dependent nodes of a CUDA graph, read from the
// kernels' own %globaltimer stamps rather than from graph totals: how long
// after one node's last CTA ends the next node's first CTA starts, for nodes
// that run 0-16 us, on grids of 1 to 4 x SMs CTAs, with small and large
// kernel parameters. If the front end prepares a node while the one before it
// runs, the gap shrinks as the nodes get longer.

#include <vector>

#include "kernels/microbench/microbench_device.hpp"
#include "kernels/microbench/microbench_result.hpp"

namespace tilesim::microbench {

// globaltimer_step (ns); graph_gap_* and graph_period_* (us) per node length,
// grid and parameter size.
std::vector<MicrobenchResult> measure_graph_node_gap(const MicrobenchDevice& device);

}  // namespace tilesim::microbench
