#pragma once
// Runs every calibration microbenchmark on the current device, in an order
// where later ones can use earlier results (the L2 sweep's fall-off is judged
// against the HBM read bandwidth), printing each figure as it comes.

#include <vector>

#include "kernels/microbench/microbench_device.hpp"
#include "kernels/microbench/microbench_result.hpp"

namespace tilesim::microbench {

std::vector<MicrobenchResult> run_calibration_microbenchmarks(const MicrobenchDevice& device);

}  // namespace tilesim::microbench
