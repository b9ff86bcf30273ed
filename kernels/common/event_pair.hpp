#pragma once
// Two CUDA events around GPU work, owned together; elapsed time in microseconds.

#include <cuda_runtime_api.h>

#include "kernels/common/cuda_check.hpp"

namespace tilesim::kernels {

class EventPair {
 public:
  EventPair() {
    TILESIM_CUDA_CHECK(cudaEventCreate(&start_));
    TILESIM_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventPair() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
  cudaEvent_t start() const { return start_; }
  cudaEvent_t stop() const { return stop_; }
  double elapsed_us() const {
    float ms = 0;
    TILESIM_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return 1000.0 * static_cast<double>(ms);
  }

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

}  // namespace tilesim::kernels
