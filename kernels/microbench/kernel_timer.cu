#include "kernels/common/cuda_check.hpp"
#include "kernels/common/event_pair.hpp"
#include "kernels/microbench/kernel_timer.hpp"

namespace tilesim::microbench {

std::vector<double> time_on_gpu_us(const std::function<void()>& enqueue, int warmup_runs, int runs,
                                   cudaStream_t stream) {
  for (int i = 0; i < warmup_runs; ++i) enqueue();
  TILESIM_CUDA_CHECK(cudaGetLastError());
  TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
  const kernels::EventPair events;
  std::vector<double> times_us;
  for (int i = 0; i < runs; ++i) {
    TILESIM_CUDA_CHECK(cudaEventRecord(events.start(), stream));
    enqueue();
    TILESIM_CUDA_CHECK(cudaEventRecord(events.stop(), stream));
    TILESIM_CUDA_CHECK(cudaEventSynchronize(events.stop()));
    TILESIM_CUDA_CHECK(cudaGetLastError());
    times_us.push_back(events.elapsed_us());
  }
  return times_us;
}

}  // namespace tilesim::microbench
