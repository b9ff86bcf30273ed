// tilesim-wgmma-softmax-chain: the two halves of a K/V block in our Hopper
// flash kernel (flash_forward_wgmma_kernel.cuh), each timed alone per head
// size, one CTA per SM (issue 12, round 21):
//   - chain: a consumer warpgroup's CUDA-core work between its S = Q K^T and
//     its next GEMMs (the kernel's softmax_step, unmasked; O's rescale;
//     convert_p), on registers, no tensor-core work, no memory traffic;
//   - gemms: the block's tensor-core work as the kernel issues it (issue_qk's
//     wgmmas, commit, issue_pv, commit, wait for S, wait for P V), Q, K and V
//     resident in shared memory, no softmax between; S accumulates over the
//     turns so that the compiler keeps every wgmma.
//
//   tilesim-wgmma-softmax-chain [ITERATIONS]
//
// stdout: one row per part, head size and active warpgroups (1: one consumer
// alone, 2: both consumers at once):
//   part, head_dim, warpgroups, cycles_per_block (median over SMs and
//   warpgroups), min, max
// Exit status: 0, 1 on a CUDA error, 77 without a device.

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels/attention/flash_forward_wgmma_kernel.cuh"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/standalone_device.hpp"
#include "kernels/gemm/ptx_primitives.cuh"

namespace {

using tilesim::kernels::DeviceBuffer;
using tilesim::kernels::FlashForwardParams;
namespace flash = tilesim::kernels::flash;

constexpr int kThreads = 256;  // both consumer warpgroups of the kernel

// softmax_chain_kernel
//   grid: one CTA per SM; block: 256 threads (two warpgroups), of which the
//   first `warpgroups` run ITERATIONS turns of a consumer's per-block CUDA-core
//   work; warp 0 of each active warpgroup stores its cycle count.
template <int kHeadDim>
__global__ void __launch_bounds__(kThreads, 1)
    softmax_chain_kernel(FlashForwardParams params, int iterations, int warpgroups,
                         long long* cycles, float* sink) {
#if defined(TILESIM_SM90A)
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  if (warpgroup >= warpgroups) return;
  flash::ConsumerState<kHeadDim> st;
  using T = flash::WgmmaFlashTraits<kHeadDim>;
  // Scores of a few units around zero, different per thread (never all equal).
  const float seed = 0.01f * static_cast<float>(threadIdx.x % 97);
#pragma unroll
  for (int nt = 0; nt < T::kSTiles; ++nt) {
#pragma unroll
    for (int e = 0; e < 4; ++e) st.s[nt][e] = seed + 0.37f * static_cast<float>((nt * 4 + e) % 11);
  }
#pragma unroll
  for (int dt = 0; dt < T::kOTiles; ++dt) {
#pragma unroll
    for (int e = 0; e < 4; ++e) st.o[dt][e] = 1.0f + 0.001f * static_cast<float>(dt * 4 + e);
  }
  st.row_max[0] = st.row_max[1] = -INFINITY;
  st.row_sum[0] = st.row_sum[1] = 0;
  const flash::RowLimits limits{1 << 30, 1 << 30};
  tilesim::kernels::gemm::sm90::named_barrier_sync(1, 128 * warpgroups);
  const long long start = clock64();
  for (int it = 0; it < iterations; ++it) {
    // S as the wgmma left it, O after P V: opaque to the compiler, as in the kernel.
    flash::fence_registers(st.s);
    flash::softmax_step<kHeadDim, false>(st, limits, params, 0);
    flash::fence_registers(st.o);
#pragma unroll
    for (int dt = 0; dt < T::kOTiles; ++dt) {
#pragma unroll
      for (int e = 0; e < 4; ++e) st.o[dt][e] *= st.rescale[e / 2];
    }
    flash::convert_p<__nv_bfloat16, kHeadDim>(st);
    flash::fence_registers(st.p);
  }
  const long long elapsed = clock64() - start;
  if (threadIdx.x % 128 == 0) cycles[blockIdx.x * 2 + warpgroup] = elapsed;
  // Every O and P value reaches the sink, so the compiler keeps each turn's
  // rescale and conversions (the kernel's wgmmas read them all).
  float folded = st.row_sum[0] + st.row_sum[1];
#pragma unroll
  for (int dt = 0; dt < T::kOTiles; ++dt) {
#pragma unroll
    for (int e = 0; e < 4; ++e) folded += st.o[dt][e];
  }
  std::uint32_t bits = 0;
#pragma unroll
  for (int kj = 0; kj < T::kPSteps; ++kj) {
#pragma unroll
    for (int e = 0; e < 4; ++e) bits ^= st.p[kj][e];
  }
  folded += static_cast<float>(bits & 0xffffu);
  sink[blockIdx.x * kThreads + threadIdx.x] = folded;
#elif defined(__CUDA_ARCH__)
  __trap();
#endif
}

// gemm_sequence_kernel
//   grid: one CTA per SM; block: 256 threads (two warpgroups), of which the
//   first `warpgroups` issue ITERATIONS blocks' S = Q K^T and O += P V on Q, K
//   and V tiles in shared memory (filled with varied values), as the kernel's
//   consumer loop issues them; warp 0 of each stores its cycle count.
template <int kHeadDim>
__global__ void __launch_bounds__(kThreads, 1)
    gemm_sequence_kernel(int iterations, int warpgroups, long long* cycles, float* sink) {
#if defined(TILESIM_SM90A)
  using T = flash::WgmmaFlashTraits<kHeadDim>;
  namespace hopper = tilesim::kernels::gemm::sm90;
  extern __shared__ __align__(128) unsigned char smem[];
  const std::uint32_t base =
      (tilesim::kernels::gemm::shared_address(smem) + T::kAlignmentBytes - 1) &
      ~static_cast<std::uint32_t>(T::kAlignmentBytes - 1);
  unsigned char* aligned = smem + (base - tilesim::kernels::gemm::shared_address(smem));
  const int tile_bytes = T::kQBytes + 2 * T::kKVBytes;
  for (int i = static_cast<int>(threadIdx.x); i < tile_bytes / 2; i += kThreads) {
    reinterpret_cast<__nv_bfloat16*>(aligned)[i] =
        __float2bfloat16(0.01f * static_cast<float>((i * 7919) % 201 - 100));
  }
  __syncthreads();
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  if (warpgroup >= warpgroups) return;
  const std::uint32_t q = base + warpgroup * 64 * T::kRowBytes;
  const std::uint32_t k = base + T::kQBytes;
  const std::uint32_t v = k + T::kKVBytes;
  flash::ConsumerState<kHeadDim> st;
#pragma unroll
  for (int dt = 0; dt < T::kOTiles; ++dt) {
#pragma unroll
    for (int e = 0; e < 4; ++e) st.o[dt][e] = 0;
  }
#pragma unroll
  for (int nt = 0; nt < T::kSTiles; ++nt) {
#pragma unroll
    for (int e = 0; e < 4; ++e) st.s[nt][e] = 0;
  }
#pragma unroll
  for (int kj = 0; kj < T::kPSteps; ++kj) {
#pragma unroll
    for (int e = 0; e < 4; ++e) st.p[kj][e] = 0x3c003c00u + threadIdx.x + 17u * (kj * 4 + e);
  }
  hopper::named_barrier_sync(1, 128 * warpgroups);
  const long long start = clock64();
  for (int it = 0; it < iterations; ++it) {
    hopper::wgmma_fence();
    // issue_qk's descriptors, but every k-step accumulates: S stays live from
    // turn to turn, so the compiler drops none of these wgmmas (the kernel's
    // softmax reads every S).
#pragma unroll
    for (int ks = 0; ks < kHeadDim / 16; ++ks) {
      const std::uint64_t a = hopper::matrix_descriptor_128b_swizzle(
          q + (ks / 4) * T::kQBoxBytes + (ks % 4) * 32, 16, T::kGroupBytes);
      const std::uint64_t b = hopper::matrix_descriptor_128b_swizzle(
          k + (ks / 4) * T::kKVBoxBytes + (ks % 4) * 32, 16, T::kGroupBytes);
      flash::sm90::wgmma_qk_m64n128k16<__nv_bfloat16>(st.s, a, b, 1);
    }
    hopper::wgmma_commit_group();
    flash::issue_pv<__nv_bfloat16, kHeadDim>(st, v);
    hopper::wgmma_commit_group();
    hopper::wgmma_wait_group<1>();
    flash::fence_registers(st.s);
    hopper::wgmma_wait_group<0>();
    flash::fence_registers(st.o);
    flash::fence_registers(st.p);
  }
  const long long elapsed = clock64() - start;
  if (threadIdx.x % 128 == 0) cycles[blockIdx.x * 2 + warpgroup] = elapsed;
  float folded = 0;
#pragma unroll
  for (int nt = 0; nt < T::kSTiles; ++nt) {
#pragma unroll
    for (int e = 0; e < 4; ++e) folded += st.s[nt][e];
  }
#pragma unroll
  for (int dt = 0; dt < T::kOTiles; ++dt) {
#pragma unroll
    for (int e = 0; e < 4; ++e) folded += st.o[dt][e];
  }
  sink[blockIdx.x * kThreads + threadIdx.x] = folded;
#elif defined(__CUDA_ARCH__)
  __trap();
#endif
}

// The median, smallest and largest cycles per block of the active warpgroups.
void print_row(const char* part, int head_dim, int sms, int warpgroups, int iterations,
               const DeviceBuffer& cycles) {
  std::vector<long long> host(static_cast<std::size_t>(sms) * 2);
  tilesim::kernels::check_cuda(cudaMemcpy(host.data(), cycles.get(),
                                          host.size() * sizeof(long long), cudaMemcpyDeviceToHost),
                               "copy cycles");
  std::vector<double> per_block;
  for (int b = 0; b < sms; ++b) {
    for (int g = 0; g < warpgroups; ++g) {
      per_block.push_back(static_cast<double>(host[b * 2 + g]) / iterations);
    }
  }
  std::sort(per_block.begin(), per_block.end());
  std::printf("%s,%d,%d,%.1f,%.1f,%.1f\n", part, head_dim, warpgroups,
              per_block[per_block.size() / 2], per_block.front(), per_block.back());
}

template <int kHeadDim>
bool run(int sms, int iterations) {
  FlashForwardParams params;
  params.scale_log2 = 1.4426950f / std::sqrt(static_cast<float>(kHeadDim));
  DeviceBuffer cycles(static_cast<std::size_t>(sms) * 2 * sizeof(long long));
  DeviceBuffer sink(static_cast<std::size_t>(sms) * kThreads * sizeof(float));
  for (int warpgroups = 1; warpgroups <= 2; ++warpgroups) {
    // A warm-up launch, then the timed one.
    for (int launch = 0; launch < 2; ++launch) {
      softmax_chain_kernel<kHeadDim><<<sms, kThreads>>>(params, iterations, warpgroups,
                                                        cycles.as<long long>(), sink.as<float>());
      tilesim::kernels::check_cuda(cudaGetLastError(), "softmax_chain_kernel launch");
      tilesim::kernels::check_cuda(cudaDeviceSynchronize(), "softmax_chain_kernel");
    }
    print_row("chain", kHeadDim, sms, warpgroups, iterations, cycles);
  }
  using T = flash::WgmmaFlashTraits<kHeadDim>;
  const auto gemms = gemm_sequence_kernel<kHeadDim>;
  tilesim::kernels::check_cuda(
      cudaFuncSetAttribute(gemms, cudaFuncAttributeMaxDynamicSharedMemorySize, T::kSharedBytes),
      "gemm_sequence_kernel shared memory");
  for (int warpgroups = 1; warpgroups <= 2; ++warpgroups) {
    for (int launch = 0; launch < 2; ++launch) {
      gemms<<<sms, kThreads, T::kSharedBytes>>>(iterations, warpgroups, cycles.as<long long>(),
                                                sink.as<float>());
      tilesim::kernels::check_cuda(cudaGetLastError(), "gemm_sequence_kernel launch");
      tilesim::kernels::check_cuda(cudaDeviceSynchronize(), "gemm_sequence_kernel");
    }
    print_row("gemms", kHeadDim, sms, warpgroups, iterations, cycles);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const auto sms = tilesim::kernels::device_sm_count_or_skip();
  if (!sms) return tilesim::kernels::kExitNoDevice;
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 4000;
  std::printf("part,head_dim,warpgroups,cycles_per_block,min,max\n");
  return run<64>(*sms, iterations) && run<128>(*sms, iterations) ? 0 : 1;
}
