#pragma once
// Load-to-use latency by pointer chase: one thread follows a random cycle of
// 128-byte lines, each load's address taken from the previous load. An
// L2-resident chase gives `l2.latency`; a chase over lines not in L2 gives
// `hbm.latency`.

#include <vector>

#include "kernels/microbench/microbench_device.hpp"
#include "kernels/microbench/microbench_result.hpp"

namespace tilesim::microbench {

// l2_hit_latency and hbm_miss_latency, in ns.
std::vector<MicrobenchResult> measure_memory_latency(const MicrobenchDevice& device);

}  // namespace tilesim::microbench
