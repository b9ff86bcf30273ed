#include "kernels/measure/host_enqueue.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/event_pair.hpp"
#include "kernels/common/gpu_delay.hpp"

namespace tilesim::measure {
namespace {

constexpr int kRuns = 9;
// A host-bound run's enqueue is its measured time; the delay covers twice that.
constexpr double kDelayPerRunEstimate = 2.0;
constexpr double kMinDelayUs = 200.0;

double median(std::vector<double> values) {
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

}  // namespace

HostEnqueue time_host_enqueue(const std::function<void(int)>& launch, int sets,
                              double run_estimate_us, cudaStream_t stream) {
  const double delay_us = std::max(kMinDelayUs, kDelayPerRunEstimate * run_estimate_us);
  const kernels::EventPair run;
  const kernels::EventPair delay;  // stop(): the delay kernel's end
  std::vector<double> host_us;
  std::vector<double> gpu_us;
  for (int i = 0; i < kRuns; ++i) {
    TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
    kernels::enqueue_gpu_delay(delay_us, stream);
    TILESIM_CUDA_CHECK(cudaEventRecord(delay.stop(), stream));
    TILESIM_CUDA_CHECK(cudaEventRecord(run.start(), stream));
    const auto start = std::chrono::steady_clock::now();
    launch(i % sets);
    const std::chrono::duration<double, std::micro> host = std::chrono::steady_clock::now() - start;
    // Still waiting: every launch of the run was queued before the GPU reached it.
    const cudaError_t delay_state = cudaEventQuery(delay.stop());
    const bool host_ahead = delay_state == cudaErrorNotReady;
    if (host_ahead) {
      (void)cudaGetLastError();  // a state, not an error: keep it out of later checks
    } else {
      TILESIM_CUDA_CHECK(delay_state);
    }
    TILESIM_CUDA_CHECK(cudaEventRecord(run.stop(), stream));
    TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (host_ahead) {
      host_us.push_back(host.count());
      gpu_us.push_back(run.elapsed_us());
    }
  }
  HostEnqueue result;
  result.runs = static_cast<int>(host_us.size());
  // A run the host spent waiting on the GPU (the launch queue full, or a stall
  // on the host longer than the delay) says nothing of either; most must count.
  result.host_ahead = 2 * result.runs > kRuns;
  if (result.runs > 0) {
    result.host_us = median(host_us);
    result.gpu_us = median(gpu_us);
  }
  return result;
}

}  // namespace tilesim::measure
