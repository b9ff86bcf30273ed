#pragma once
// Timing one GEMM case on the GPU: random inputs (never zeros) in enough sets
// to rotate through when one set would stay in L2, one checked run against a
// cuBLAS fp32 reference, then the shared timing method (timed_runs.hpp).

#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/gemm/gemm_launch.hpp"
#include "kernels/gemm/reference_check.hpp"
#include "kernels/measure/gemm_case.hpp"
#include "kernels/measure/timed_runs.hpp"

namespace tilesim::measure {

struct GemmMeasurement {
  double time_us = 0;  // median
  double time_us_min = 0;
  double time_us_p90 = 0;
  double tflops = 0;  // 2 m n k / median
  int runs = 0;
  ClockSample clock;  // SM clock and power during the timed runs (NVML)
  int input_sets = 0;
  double relative_error = 0;  // of the checked run against cuBLAS fp32
  double error_bound = 0;     // the largest relative_error that passes
  std::int64_t non_finite = 0;
  bool check_passed = false;
  kernels::GemmLaunchPlan plan;            // own kernels only
  kernels::GemmKernelResources resources;  // own kernels only
};

// A case whose checked run fails is not timed: its timing fields stay 0.
GemmMeasurement measure_gemm(const GemmCase& gemm, const TimingOptions& options,
                             const kernels::CublasHandle& cublas, cudaStream_t stream);

}  // namespace tilesim::measure
