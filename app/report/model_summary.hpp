#pragma once
// The `simulate` table's lines for a model run: how its layers were
// simulated, the time to first token or per output token with tokens/s, and
// what it holds in HBM against the GPU's capacity.

#include <string>

#include "workloads/workload_run.hpp"

namespace tilesim::report {

std::string model_summary(const workloads::WorkloadRun& run);

}  // namespace tilesim::report
