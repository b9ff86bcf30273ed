#pragma once
// The per-kernel part of the `simulate` table for kernel graphs: each
// kernel's stream, start, time, the launch gap before it (no kernel running),
// its SM idle share and bytes, after a line with the run's totals.

#include <string>

#include "workloads/workload_run.hpp"

namespace tilesim::report {

std::string kernel_breakdown(const workloads::WorkloadRun& run);

}  // namespace tilesim::report
