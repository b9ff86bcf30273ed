#pragma once
// The kernel that combines split-KV partial results (FlashDecoding's combine,
// vLLM v2's reduce): one CTA per output matrix reads each split's partial O
// and softmax statistics from the workspace (128 threads with four 16-byte
// loads each in flight) -- L2 hits when they are still
// resident -- rescales and adds them, and writes O once.

#include <cstdint>
#include <string>
#include <vector>

#include "hwmodels/data_type.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::workloads {

struct SplitKvCombine {
  std::string name;
  std::int64_t matrices_per_sequence = 1;  // heads, or KV heads when GQA rows are packed
  std::vector<std::int64_t> partials;      // per sequence: workspace slots to combine
  std::int64_t rows = 1;                   // query rows per matrix
  std::int64_t head_dim = 128;
  double partial_bytes_per_row = 0;  // partial O and its softmax statistics
  hw::DataType dtype = hw::DataType::bf16;
  double ramp_and_drain_s = 0;  // its attention profile's, paid after its last CTA
};

gpu::KernelLaunch split_kv_combine_kernel(const SplitKvCombine& combine);

}  // namespace tilesim::workloads
