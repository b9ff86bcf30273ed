// tilesim-mma-peak: the ceiling our main loop works against. Times register-
// only mma.sync.m16n8k16 (bf16 in, fp32 accumulate) on every SM, with enough
// independent accumulator chains per warp to hide the instruction latency, for
// 4, 8 and 16 warps per SM. Prints one JSON object.
// Exit status: 0, 1 on a CUDA error, 77 without a device.

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <optional>

#include "kernels/common/standalone_device.hpp"
#include "kernels/gemm/ptx_primitives.cuh"

namespace {

constexpr int kThreads = 256;
constexpr int kChains = 8;  // independent mma chains per warp
constexpr int kIterations = 20000;

// mma_peak_kernel
//   grid: SMs x CTAs-per-SM; block: 256 threads.
//   CTA: each warp issues kIterations x kChains independent m16n8k16 mma.sync
//   on fragments held in registers, then stores one checksum per thread.
__global__ void __launch_bounds__(kThreads) mma_peak_kernel(float* out, int iterations) {
  using tilesim::kernels::gemm::mma_m16n8k16;
  const std::uint32_t one_pair = 0x3F803F80u + (threadIdx.x & 1u);  // ~1.0 in both halves
  const std::uint32_t a[4] = {one_pair, one_pair, one_pair, one_pair};
  const std::uint32_t b[2] = {one_pair, one_pair};
  float acc[kChains][4] = {};
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) mma_m16n8k16<__nv_bfloat16>(acc[c], a, b);
  }
  float sum = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) sum += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

bool check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return true;
  std::fprintf(stderr, "tilesim-mma-peak: %s: %s\n", what, cudaGetErrorString(status));
  return false;
}

}  // namespace

int main() {
  const std::optional<int> device_sms = tilesim::kernels::device_sm_count_or_skip();
  if (!device_sms) return tilesim::kernels::kExitNoDevice;
  const int sms = *device_sms;
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  float* out = nullptr;
  if (!check(cudaMalloc(&out, sizeof(float) * kThreads * sms * 2), "cudaMalloc")) return 1;
  cudaEvent_t start;
  cudaEvent_t stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::printf(
      "{\"instruction\": \"mma.sync.m16n8k16 bf16->fp32\", \"sm_count\": %d, "
      "\"sm_clock_max_mhz\": %d, \"results\": [",
      sms, clock_khz / 1000);
  const int ctas_per_sm[] = {1, 2};  // x 8 warps
  for (int variant = 0; variant < 2; ++variant) {
    const int blocks = sms * ctas_per_sm[variant];
    mma_peak_kernel<<<blocks, kThreads>>>(out, kIterations / 10);  // warm-up
    float best_ms = 1e30f;
    for (int run = 0; run < 5; ++run) {
      cudaEventRecord(start);
      mma_peak_kernel<<<blocks, kThreads>>>(out, kIterations);
      cudaEventRecord(stop);
      if (!check(cudaEventSynchronize(stop), "mma_peak_kernel")) return 1;
      float ms = 0;
      cudaEventElapsedTime(&ms, start, stop);
      best_ms = ms < best_ms ? ms : best_ms;
    }
    const double flops =
        2.0 * 16 * 8 * 16 * kChains * static_cast<double>(kIterations) * (blocks * kThreads / 32);
    std::printf(
        "%s{\"warps_per_sm\": %d, \"tflops\": %.1f, \"flop_per_clk_per_sm_at_max_clock\": "
        "%.0f}",
        variant ? ", " : "", 8 * ctas_per_sm[variant], flops / (best_ms * 1e-3) / 1e12,
        flops / (best_ms * 1e-3) / sms / (clock_khz * 1e3));
  }
  std::printf("]}\n");
  cudaFree(out);
  return 0;
}
