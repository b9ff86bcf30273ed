#include "kernels/measure/gemm_measurement.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/event_pair.hpp"
#include "kernels/common/gpu_delay.hpp"
#include "kernels/gemm/gemm_workspace_buffers.hpp"

namespace tilesim::measure {
namespace {

constexpr int kBatchRuns = 100;
// Host time to enqueue one timed run (two events and up to two launches),
// generously: the delay kernel in front of a batch must outlast its enqueueing.
constexpr double kEnqueueUsPerRun = 20.0;
constexpr double kMinDelayUs = 50.0;

using kernels::EventPair;

struct InputSet {
  kernels::DeviceBuffer a;
  kernels::DeviceBuffer b;
  kernels::DeviceBuffer c;
};

std::uint64_t seed_of(const std::string& name) {
  return std::hash<std::string>{}(name) | 1u;
}

int input_sets_for(std::size_t set_bytes, const TimingOptions& options) {
  const double sets = std::ceil(2.0 * options.l2_bytes / static_cast<double>(set_bytes));
  return static_cast<int>(std::clamp(sets, 1.0, static_cast<double>(options.max_input_sets)));
}

// Times `runs` launches, each between its own pair of events.
std::vector<double> time_runs(const std::function<void(int)>& launch, int runs, int sets,
                              double estimate_us, cudaStream_t stream) {
  std::vector<double> times;
  times.reserve(static_cast<std::size_t>(runs));
  std::vector<std::unique_ptr<EventPair>> events;
  for (int i = 0; i < std::min(runs, kBatchRuns); ++i)
    events.push_back(std::make_unique<EventPair>());
  for (int done = 0; done < runs;) {
    const int batch = std::min(kBatchRuns, runs - done);
    // Only enqueueing must be covered; runs longer than that keep the queue full.
    const double delay_us =
        std::max(kMinDelayUs, batch * std::max(0.0, kEnqueueUsPerRun - estimate_us));
    kernels::enqueue_gpu_delay(delay_us, stream);
    for (int i = 0; i < batch; ++i) {
      TILESIM_CUDA_CHECK(cudaEventRecord(events[static_cast<std::size_t>(i)]->start(), stream));
      launch((done + i) % sets);
      TILESIM_CUDA_CHECK(cudaEventRecord(events[static_cast<std::size_t>(i)]->stop(), stream));
    }
    TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
    for (int i = 0; i < batch; ++i)
      times.push_back(events[static_cast<std::size_t>(i)]->elapsed_us());
    done += batch;
  }
  return times;
}

double percentile(std::vector<double> sorted, double fraction) {
  std::sort(sorted.begin(), sorted.end());
  const double position = fraction * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const auto above = std::min(below + 1, sorted.size() - 1);
  const double weight = position - static_cast<double>(below);
  return sorted[below] * (1 - weight) + sorted[above] * weight;
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
    result.non_finite = check.non_finite;
    result.check_passed =
        check.non_finite == 0 &&
        check.relative_frobenius_error <= kernels::relative_error_bound(shape.output_type);
  }

  // Estimate, warm up, time.
  const std::vector<double> probe = time_runs(launch, 3, result.input_sets, 0, stream);
  const double estimate_us = std::max(1.0, *std::min_element(probe.begin(), probe.end()));
  const int warmup =
      static_cast<int>(std::clamp(1000.0 * options.warmup_ms / estimate_us, 5.0, 2000.0));
  time_runs(launch, warmup, result.input_sets, estimate_us, stream);
  result.runs = static_cast<int>(std::clamp(1000.0 * options.target_ms / estimate_us,
                                            static_cast<double>(options.min_runs), 5000.0));
  const std::vector<double> times =
      time_runs(launch, result.runs, result.input_sets, estimate_us, stream);
  result.time_us = percentile(times, 0.5);
  result.time_us_min = *std::min_element(times.begin(), times.end());
  result.time_us_p90 = percentile(times, 0.9);
  result.tflops = 2.0 * static_cast<double>(shape.m) * static_cast<double>(shape.n) *
                  static_cast<double>(shape.k) / (result.time_us * 1e-6) / 1e12;
  return result;
}

}  // namespace tilesim::measure
