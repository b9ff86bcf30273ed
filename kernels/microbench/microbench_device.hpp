#pragma once
// The device the microbenchmarks run on, as they size grids and working sets.

#include <cuda_runtime_api.h>

#include <cstddef>

namespace tilesim::microbench {

struct MicrobenchDevice {
  int sm_count = 0;
  std::size_t l2_bytes = 0;
  cudaStream_t stream = nullptr;
};

}  // namespace tilesim::microbench
