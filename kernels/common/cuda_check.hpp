#pragma once
// Turning CUDA runtime and cuBLAS status codes into exceptions with the call
// that failed, so host code checks every call without an if per line.

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace tilesim::kernels {

class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline void check_cuda(cudaError_t status, const char* call) {
  if (status != cudaSuccess) {
    throw CudaError(std::string(call) + ": " + cudaGetErrorString(status));
  }
}

}  // namespace tilesim::kernels

// Checks a CUDA runtime call; throws CudaError naming the call on failure.
#define TILESIM_CUDA_CHECK(call) ::tilesim::kernels::check_cuda((call), #call)
