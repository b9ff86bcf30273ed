#include "kernels/common/cuda_check.hpp"
#include "kernels/common/gpu_delay.hpp"

namespace tilesim::kernels {
namespace {

__device__ unsigned long long global_time_ns() {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

// gpu_delay_kernel
//   grid: 1 CTA; block: 1 thread.
//   CTA: spins on the global timer for `nanoseconds`, sleeping between reads.
__global__ void gpu_delay_kernel(unsigned long long nanoseconds) {
  const unsigned long long start = global_time_ns();
  while (global_time_ns() - start < nanoseconds) __nanosleep(1000);
}

}  // namespace

void enqueue_gpu_delay(double microseconds, cudaStream_t stream) {
  gpu_delay_kernel<<<1, 1, 0, stream>>>(static_cast<unsigned long long>(microseconds * 1000.0));
  TILESIM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tilesim::kernels
