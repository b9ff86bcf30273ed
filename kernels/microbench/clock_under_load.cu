// tilesim-clock-under-load: the SM clock as a function of load, for the
// power-limited clock of the model (sm.power_limited_clock and the law that
// scales it with load). N CTAs, one per SM, run for a fixed time; thread 0 of
// each reads clock64 against %globaltimer over the second half of the run
// (the clock has settled by then). Loads:
//   tensor      8 warps of register-only mma.sync bf16 (8 chains a warp)
//   tensor_hbm  the same plus 8 warps streaming reads from a 2 GiB buffer
//   hbm         the 8 streaming warps alone
// for N = 1 .. all SMs. Prints CSV on stdout: load, sms, clock_mhz (median
// over CTAs), clock_mhz_min, clock_mhz_max, tensor_tflops, hbm_gbs.
// Exit status: 0, 1 on a CUDA error, 77 without a device.

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

#include "kernels/common/standalone_device.hpp"
#include "kernels/gemm/ptx_primitives.cuh"
#include "kernels/microbench/device_clock.cuh"

namespace {

using tilesim::microbench::global_time_ns;
using tilesim::microbench::sm_cycles;

constexpr int kWarpsPerRole = 8;
constexpr int kThreads = 2 * kWarpsPerRole * 32;
constexpr int kChains = 8;
// More than half of an SM's shared memory: one CTA per SM.
constexpr int kSharedBytes = 120 * 1024;
constexpr unsigned long long kRunNs = 300'000'000;  // per load and SM count
constexpr std::size_t kStreamBytes = std::size_t{2} << 30;

enum Load : int { tensor = 1, hbm = 2, tensor_hbm = 3 };

struct CtaSample {
  unsigned long long cycles;
  unsigned long long nanoseconds;
  unsigned long long mma_issued;    // mma.sync per CTA
  unsigned long long bytes_loaded;  // streamed bytes per CTA
};

// clock_load_kernel
//   grid: N CTAs (one per SM: kSharedBytes of dynamic shared memory each);
//   block: 512 threads. Warps 0-7 issue mma.sync while `load` has tensor,
//   warps 8-15 stream 16-byte reads of their CTA's slice of `stream` while it
//   has hbm; every warp stops at the same %globaltimer deadline. Thread 0
//   samples clock64 and %globaltimer at the half-way time and at the end.
__global__ void __launch_bounds__(kThreads, 1)
    clock_load_kernel(int load, unsigned long long run_ns, const uint4* stream,
                      std::size_t stream_words, CtaSample* samples, float* sink) {
  using tilesim::kernels::gemm::mma_m16n8k16;
  __shared__ unsigned long long mma_count;
  __shared__ unsigned long long load_count;
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    mma_count = 0;
    load_count = 0;
  }
  __syncthreads();
  const unsigned long long start_ns = global_time_ns();
  const unsigned long long half_ns = start_ns + run_ns / 2;
  const unsigned long long end_ns = start_ns + run_ns;
  unsigned long long half_cycles = 0;
  unsigned long long half_time = 0;
  float sum = 0;
  unsigned long long work = 0;
  const bool tensor_warp = warp < kWarpsPerRole && (load & tensor);
  const bool hbm_warp = warp >= kWarpsPerRole && (load & hbm);
  if (tensor_warp) {
    const std::uint32_t one_pair = 0x3F803F80u + (threadIdx.x & 1u);
    const std::uint32_t a[4] = {one_pair, one_pair, one_pair, one_pair};
    const std::uint32_t b[2] = {one_pair, one_pair};
    float acc[kChains][4] = {};
    for (;;) {
      for (int i = 0; i < 64; ++i) {
#pragma unroll
        for (int c = 0; c < kChains; ++c) mma_m16n8k16<__nv_bfloat16>(acc[c], a, b);
      }
      work += 64 * kChains;
      const unsigned long long now = global_time_ns();
      if (threadIdx.x == 0 && half_time == 0 && now >= half_ns) {
        half_cycles = sm_cycles();
        half_time = global_time_ns();
      }
      if (now >= end_ns) break;
    }
#pragma unroll
    for (int c = 0; c < kChains; ++c) sum += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
  } else if (hbm_warp) {
    // Each CTA streams its own slice, cyclically: 8 loads in flight a thread.
    const std::size_t slice = stream_words / gridDim.x;
    const std::size_t base = slice * blockIdx.x;
    std::size_t i = threadIdx.x - kWarpsPerRole * 32;
    const std::size_t step = kWarpsPerRole * 32;
    for (;;) {
      uint4 v[8];
#pragma unroll
      for (int j = 0; j < 8; ++j) v[j] = __ldcs(stream + base + (i + j * step) % slice);
#pragma unroll
      for (int j = 0; j < 8; ++j) sum += __uint_as_float(v[j].x ^ v[j].w);
      i = (i + 8 * step) % slice;
      work += 8;
      if (global_time_ns() >= end_ns) break;
    }
  }
  // Thread 0 samples the clock itself when its warp does no tensor work.
  if (threadIdx.x == 0 && !tensor_warp) {
    while (global_time_ns() < half_ns) {
    }
    half_cycles = sm_cycles();
    half_time = global_time_ns();
    while (global_time_ns() < end_ns) {
    }
  }
  if (tensor_warp && (threadIdx.x & 31) == 0) atomicAdd(&mma_count, work);
  if (hbm_warp) atomicAdd(&load_count, work);
  if (threadIdx.x == 0) {
    const unsigned long long cycles = sm_cycles() - half_cycles;
    const unsigned long long nanoseconds = global_time_ns() - half_time;
    samples[blockIdx.x].cycles = cycles;
    samples[blockIdx.x].nanoseconds = nanoseconds;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    samples[blockIdx.x].mma_issued = mma_count;
    samples[blockIdx.x].bytes_loaded = load_count * sizeof(uint4);
  }
  sink[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

bool check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return true;
  std::fprintf(stderr, "tilesim-clock-under-load: %s: %s\n", what, cudaGetErrorString(status));
  return false;
}

const char* load_name(int load) {
  return load == tensor ? "tensor" : load == hbm ? "hbm" : "tensor_hbm";
}

}  // namespace

int main() {
  const std::optional<int> device_sms = tilesim::kernels::device_sm_count_or_skip();
  if (!device_sms) return tilesim::kernels::kExitNoDevice;
  const int sms = *device_sms;
  uint4* stream = nullptr;
  CtaSample* samples = nullptr;
  float* sink = nullptr;
  if (!check(cudaMalloc(&stream, kStreamBytes), "cudaMalloc") ||
      !check(cudaMemset(stream, 0x5a, kStreamBytes), "cudaMemset") ||
      !check(cudaMalloc(&samples, sizeof(CtaSample) * sms), "cudaMalloc") ||
      !check(cudaMalloc(&sink, sizeof(float) * kThreads * sms), "cudaMalloc") ||
      !check(cudaFuncSetAttribute(clock_load_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  kSharedBytes),
             "cudaFuncSetAttribute")) {
    return 1;
  }
  std::vector<int> sm_counts = {1, 2, 4, 8, 16, 33, 66, 99};
  sm_counts.push_back(sms);
  std::printf("load,sms,clock_mhz,clock_mhz_min,clock_mhz_max,tensor_tflops,hbm_gbs\n");
  // Warm the clocks up (they rise from idle over many milliseconds).
  clock_load_kernel<<<sms, kThreads, kSharedBytes>>>(tensor, kRunNs, stream,
                                                     kStreamBytes / sizeof(uint4), samples, sink);
  for (int load : {tensor, tensor_hbm, hbm}) {
    for (int n : sm_counts) {
      clock_load_kernel<<<n, kThreads, kSharedBytes>>>(load, kRunNs, stream,
                                                       kStreamBytes / sizeof(uint4), samples, sink);
      if (!check(cudaDeviceSynchronize(), "clock_load_kernel")) return 1;
      std::vector<CtaSample> host(n);
      cudaMemcpy(host.data(), samples, sizeof(CtaSample) * n, cudaMemcpyDeviceToHost);
      std::vector<double> mhz;
      double mma = 0;
      double bytes = 0;
      for (const CtaSample& s : host) {
        mhz.push_back(1e3 * static_cast<double>(s.cycles) / static_cast<double>(s.nanoseconds));
        mma += static_cast<double>(s.mma_issued);
        bytes += static_cast<double>(s.bytes_loaded);
      }
      std::sort(mhz.begin(), mhz.end());
      const double seconds = kRunNs * 1e-9;
      std::printf("%s,%d,%.0f,%.0f,%.0f,%.1f,%.0f\n", load_name(load), n, mhz[mhz.size() / 2],
                  mhz.front(), mhz.back(), mma * 2.0 * 16 * 8 * 16 / seconds / 1e12,
                  bytes / seconds / 1e9);
      std::fflush(stdout);
    }
  }
  cudaFree(stream);
  cudaFree(samples);
  cudaFree(sink);
  return 0;
}
