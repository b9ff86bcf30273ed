#pragma once
// Load-to-use latency by pointer chase: one thread follows a random cycle of
// 128-byte lines, each load's address taken from the previous load. An
// L2-resident chase gives `l2.latency`; a chase over lines not in L2 gives
// `hbm.latency`. A chase of one line per 2 MiB page over 16 MiB .. 4 GiB
// stays in L2 but needs a translation a hop: what a cold translation costs.

#include <vector>

#include "kernels/microbench/microbench_device.hpp"
#include "kernels/microbench/microbench_result.hpp"

namespace tilesim::microbench {

// l2_hit_latency, hbm_miss_latency and l2_hit_latency_<N>mib_of_pages, in ns.
std::vector<MicrobenchResult> measure_memory_latency(const MicrobenchDevice& device);

}  // namespace tilesim::microbench
