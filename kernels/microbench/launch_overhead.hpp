#pragma once
// What launching costs: the host's time to issue one asynchronous launch, an
// empty kernel's launch + synchronize round trip, the time each node of a CUDA
// graph adds, and the time each wave of CTAs adds (CTA dispatch).

#include <vector>

#include "kernels/microbench/microbench_device.hpp"
#include "kernels/microbench/microbench_result.hpp"

namespace tilesim::microbench {

// host_issue_per_launch, empty_launch_sync, graph_node, cta_dispatch_per_wave (us).
std::vector<MicrobenchResult> measure_launch_overhead(const MicrobenchDevice& device);

}  // namespace tilesim::microbench
