#pragma once
// Owns the device memory of a GemmWorkspace and grows it to fit each plan:
// flags are zeroed when (re)allocated, partials are scratch. One instance may
// serve any sequence of launches on one stream.

#include <cuda_runtime_api.h>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/gemm/gemm_launch.hpp"

namespace tilesim::kernels {

class GemmWorkspaceBuffers {
 public:
  // A workspace large enough for `plan` (reallocating, and zeroing new flags).
  GemmWorkspace fit(const GemmLaunchPlan& plan) {
    if (plan.flag_bytes > flags_.bytes()) {
      flags_ = DeviceBuffer(plan.flag_bytes);
      TILESIM_CUDA_CHECK(cudaMemset(flags_.get(), 0, flags_.bytes()));
    }
    if (plan.partial_bytes > partials_.bytes()) partials_ = DeviceBuffer(plan.partial_bytes);
    return {flags_.as<int>(), flags_.bytes(), partials_.as<float>(), partials_.bytes()};
  }

 private:
  DeviceBuffer flags_;
  DeviceBuffer partials_;
};

}  // namespace tilesim::kernels
