#pragma once
// Owning handle to one cudaMalloc allocation (freed with the handle).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

#include "kernels/common/cuda_check.hpp"

namespace tilesim::kernels {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    void* pointer = nullptr;
    if (bytes > 0) TILESIM_CUDA_CHECK(cudaMalloc(&pointer, bytes));
    pointer_.reset(pointer);
  }

  void* get() const { return pointer_.get(); }
  template <typename T>
  T* as() const {
    return static_cast<T*>(pointer_.get());
  }
  std::size_t bytes() const { return bytes_; }

 private:
  struct CudaFree {
    void operator()(void* pointer) const noexcept { cudaFree(pointer); }
  };
  std::unique_ptr<void, CudaFree> pointer_;
  std::size_t bytes_ = 0;
};

}  // namespace tilesim::kernels
