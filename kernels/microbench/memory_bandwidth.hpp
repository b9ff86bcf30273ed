#pragma once
// Bandwidth of the memory hierarchy as kernels see it: HBM read, write and
// copy on a working set far beyond L2; L2 over a sweep of working sets (where
// it falls to HBM); and what one SM can pull from L2 (its L2 port).

#include <vector>

#include "kernels/microbench/microbench_device.hpp"
#include "kernels/microbench/microbench_result.hpp"

namespace tilesim::microbench {

// hbm_read_bandwidth, hbm_write_bandwidth, hbm_copy_bandwidth (read + write counted), GB/s.
std::vector<MicrobenchResult> measure_hbm_bandwidth(const MicrobenchDevice& device);

// l2_read_bandwidth_<size> for each working set, then l2_bandwidth (the median
// over sets from 1/8 to 1/2 of L2) and l2_falloff_working_set (the first set read at less than
// halfway between that and `hbm_read_gb_per_s`).
std::vector<MicrobenchResult> measure_l2_bandwidth_sweep(const MicrobenchDevice& device,
                                                         double hbm_read_gb_per_s);

// l2_port_bandwidth: one CTA of 1024 threads on one SM reading an L2-resident set.
MicrobenchResult measure_l2_port_bandwidth(const MicrobenchDevice& device);

}  // namespace tilesim::microbench
