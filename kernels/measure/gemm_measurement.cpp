#include "kernels/measure/gemm_measurement.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/gemm/gemm_workspace_buffers.hpp"

namespace tilesim::measure {
namespace {

struct InputSet {
  kernels::DeviceBuffer a;
  kernels::DeviceBuffer b;
  kernels::DeviceBuffer c;
};

std::uint64_t seed_of(const std::string& name) {
  return std::hash<std::string>{}(name) | 1u;
}

}  // namespace

GemmMeasurement measure_gemm(const GemmCase& gemm, const TimingOptions& options,
                             const kernels::CublasHandle& cublas, cudaStream_t stream) {
  const kernels::GemmLaunchConfig& shape = gemm.config;
  const std::size_t in_bytes = kernels::element_bytes(shape.input_type);
  const std::size_t out_bytes = kernels::element_bytes(shape.output_type);
  const auto a_bytes = static_cast<std::size_t>(shape.m * shape.k) * in_bytes;
  const auto b_bytes = static_cast<std::size_t>(shape.k * shape.n) * in_bytes;
  const auto c_bytes = static_cast<std::size_t>(shape.m * shape.n) * out_bytes;
  GemmMeasurement result;
  result.input_sets = input_sets_for(a_bytes + b_bytes + c_bytes, options);

  std::vector<InputSet> sets;
  const std::uint64_t seed = seed_of(gemm.name);
  for (int s = 0; s < result.input_sets; ++s) {
    InputSet set{kernels::DeviceBuffer(a_bytes), kernels::DeviceBuffer(b_bytes),
                 kernels::DeviceBuffer(c_bytes)};
    const auto set_seed = seed + 2 * static_cast<std::uint64_t>(s);
    kernels::fill_random(set.a.get(), shape.input_type, shape.m * shape.k, set_seed, stream);
    kernels::fill_random(set.b.get(), shape.input_type, shape.k * shape.n, set_seed + 1, stream);
    sets.push_back(std::move(set));
  }

  kernels::GemmLaunchConfig config = shape;
  kernels::GemmWorkspaceBuffers workspace;
  if (gemm.implementation == GemmImplementation::own_kernel) {
    result.plan = kernels::plan_gemm(config);
    result.resources = kernels::gemm_kernel_resources(config);
    config.workspace = workspace.fit(result.plan);
  }
  const std::function<void(int)> launch = [&](int set_index) {
    const InputSet& set = sets[static_cast<std::size_t>(set_index)];
    if (gemm.implementation == GemmImplementation::library) {
      if (kernels::cublas_gemm(cublas, shape.m, shape.n, shape.k, shape.input_type,
                               shape.output_type, set.a.get(), set.b.get(),
                               set.c.get()) != CUBLAS_STATUS_SUCCESS) {
        throw kernels::CudaError("cublasGemmEx failed for " + gemm.name);
      }
      return;
    }
    config.a = set.a.get();
    config.b = set.b.get();
    config.c = set.c.get();
    TILESIM_CUDA_CHECK(kernels::launch_gemm(config, stream));
  };

  // The checked run: output poisoned, compared with a cuBLAS fp32 reference.
  {
    kernels::DeviceBuffer reference(static_cast<std::size_t>(shape.m * shape.n) * sizeof(float));
    if (kernels::cublas_gemm(cublas, shape.m, shape.n, shape.k, shape.input_type,
                             kernels::ElementType::fp32, sets[0].a.get(), sets[0].b.get(),
                             reference.get()) != CUBLAS_STATUS_SUCCESS) {
      throw kernels::CudaError("cuBLAS reference failed for " + gemm.name);
    }
    kernels::poison(sets[0].c.get(), c_bytes, stream);
    launch(0);
    TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
    const kernels::ReferenceComparison check = kernels::compare_with_reference(
        sets[0].c.get(), shape.output_type, reference.as<float>(), shape.m * shape.n, stream);
    result.relative_error = check.relative_frobenius_error;
    result.error_bound = kernels::relative_error_bound(shape.output_type);
    result.non_finite = check.non_finite;
    result.check_passed =
        check.non_finite == 0 && check.relative_frobenius_error <= result.error_bound;
  }
  // A wrong result has no timing worth writing (measurement_writer.hpp, check_failure).
  if (!result.check_passed) return result;

  const TimedRuns timed = time_launches(launch, result.input_sets, options, stream);
  result.time_us = timed.time_us;
  result.time_us_min = timed.time_us_min;
  result.time_us_p90 = timed.time_us_p90;
  result.runs = timed.runs;
  result.clock = timed.clock;
  result.tflops = 2.0 * static_cast<double>(shape.m) * static_cast<double>(shape.n) *
                  static_cast<double>(shape.k) / (result.time_us * 1e-6) / 1e12;
  return result;
}

}  // namespace tilesim::measure
