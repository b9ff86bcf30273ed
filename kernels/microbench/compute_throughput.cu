#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <fmt/format.h>

#include <cstdint>
#include <functional>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/gemm/ptx_primitives.cuh"
#include "kernels/microbench/compute_throughput.hpp"
#include "kernels/microbench/device_clock.cuh"
#include "kernels/microbench/kernel_timer.hpp"

namespace tilesim::microbench {
namespace {

constexpr int kThreads = 256;
constexpr int kChains = 8;  // independent dependency chains per thread
constexpr int kWarmupRuns = 2;
constexpr int kRuns = 15;
constexpr int kMmaIterations = 32768;  // ~4 ms a run: long enough for the clock to settle
constexpr int kFmaIterations = 16384;
constexpr int kEx2Iterations = 4096;
constexpr int kSharedIterations = 4096;
constexpr int kSharedWords = 1024;  // 16-byte words: 16 KiB, so 8 CTAs fit on an SM
constexpr double kMmaFlops = 2.0 * 16 * 8 * 16;
// GPU clocks rise from idle over many milliseconds: this long of FMA work first.
constexpr int kClockWarmupRuns = 200;  // ~1 ms each

// Clock cycles and nanoseconds thread 0 of CTA 0 saw from its start to its end:
// the SM clock while the kernel ran, for converting its rate to per clock.
struct ClockSample {
  unsigned long long cycles;
  unsigned long long nanoseconds;
};

class ClockWatch {
 public:
  __device__ ClockWatch() : cycles_(sm_cycles()), nanoseconds_(global_time_ns()) {}
  __device__ void finish(ClockSample* sample) const {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      *sample = {sm_cycles() - cycles_, global_time_ns() - nanoseconds_};
    }
  }

 private:
  unsigned long long cycles_;
  unsigned long long nanoseconds_;
};

// mma_sync_kernel
//   grid: SMs x 2; block: 256 threads (16 warps per SM).
//   Each warp issues `iterations` x 8 independent m16n8k16 mma.sync on
//   register fragments, then stores one sum per thread.
template <typename Element>
__global__ void __launch_bounds__(kThreads)
    mma_sync_kernel(int iterations, float* out, ClockSample* clock) {
  const ClockWatch watch;
  const std::uint32_t pair = 0x3C003C00u + (threadIdx.x & 1u);  // small values in both halves
  const std::uint32_t a[4] = {pair, pair, pair, pair};
  const std::uint32_t b[2] = {pair, pair};
  float acc[kChains][4] = {};
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) kernels::gemm::mma_m16n8k16<Element>(acc[c], a, b);
  }
  float sum = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) sum += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
  watch.finish(clock);
}

// fma_kernel
//   grid: SMs x 8; block: 256 threads (2048 per SM). 8 independent fma.rn.f32 chains a thread.
__global__ void __launch_bounds__(kThreads)
    fma_kernel(int iterations, float seed, float* out, ClockSample* clock) {
  const ClockWatch watch;
  float x[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) x[c] = seed + static_cast<float>(threadIdx.x + c);
    // Unrolled so the loop's own instructions take few of the FMAs' issue slots.
#pragma unroll 16
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) {
      asm volatile("fma.rn.f32 %0, %0, %1, %2;\n" : "+f"(x[c]) : "f"(0.999f), "f"(0.001f));
    }
  }
  float sum = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) sum += x[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
  watch.finish(clock);
}

// ex2_kernel
//   grid: SMs x 8; block: 256 threads. 8 independent ex2.approx.ftz.f32 chains a thread.
__global__ void __launch_bounds__(kThreads)
    ex2_kernel(int iterations, float seed, float* out, ClockSample* clock) {
  const ClockWatch watch;
  float x[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) x[c] = seed - static_cast<float>(c);
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) asm volatile("ex2.approx.ftz.f32 %0, %0;\n" : "+f"(x[c]));
  }
  float sum = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) sum += x[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
  watch.finish(clock);
}

// shared_load_kernel
//   grid: SMs x 8; block: 256 threads.
//   Each warp reads 32 consecutive 16-byte words per ld.shared.v4 (conflict
//   free), 8 loads in flight, at offsets that change every iteration.
__global__ void __launch_bounds__(kThreads)
    shared_load_kernel(int iterations, float* out, ClockSample* clock) {
  const ClockWatch watch;
  __shared__ uint4 words[kSharedWords];
  for (int i = threadIdx.x; i < kSharedWords; i += blockDim.x) {
    words[i] = make_uint4(i, i + 1, i + 2, i + 3);
  }
  __syncthreads();
  const std::uint32_t base = kernels::gemm::shared_address(words);
  std::uint32_t folded = 0;
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) {
      const std::uint32_t word = (threadIdx.x + 32u * static_cast<std::uint32_t>(i + c * 7)) %
                                 static_cast<std::uint32_t>(kSharedWords);
      uint4 v;
      asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                   : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                   : "r"(base + word * 16u));
      folded ^= v.x ^ v.y ^ v.z ^ v.w;
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<float>(folded);
  watch.finish(clock);
}

// A kernel launch given the buffers every compute kernel writes.
using ComputeLaunch = std::function<void(float* out, ClockSample* clock)>;

// Times `launch`, then converts `work` per run into a per-SM rate per clock of
// the SM clock its last run saw; the method names that clock.
MicrobenchResult per_sm_per_clock(const MicrobenchDevice& device, const std::string& name,
                                  const std::string& unit, const std::string& method, double work,
                                  const ComputeLaunch& launch, double* clock_mhz_seen = nullptr) {
  const kernels::DeviceBuffer out(sizeof(float) * kThreads * 8 *
                                  static_cast<std::size_t>(device.sm_count));
  const kernels::DeviceBuffer clock(sizeof(ClockSample));
  const auto times = time_on_gpu_us([&] { launch(out.as<float>(), clock.as<ClockSample>()); },
                                    kWarmupRuns, kRuns, device.stream);
  ClockSample sample{};
  TILESIM_CUDA_CHECK(cudaMemcpy(&sample, clock.get(), sizeof(sample), cudaMemcpyDeviceToHost));
  const double clock_hz =
      static_cast<double>(sample.cycles) / static_cast<double>(sample.nanoseconds) * 1e9;
  if (clock_mhz_seen != nullptr) *clock_mhz_seen = clock_hz / 1e6;
  std::vector<double> rates;
  for (const double us : times) rates.push_back(work / (us * 1e-6) / device.sm_count / clock_hz);
  return summarize(name, unit, fmt::format("{}; SM clock {:.0f} MHz", method, clock_hz / 1e6),
                   rates);
}

// Runs FMA work long enough that the clocks are up from idle before anything is timed.
void raise_clocks(const MicrobenchDevice& device, const ComputeLaunch& fma) {
  const kernels::DeviceBuffer out(sizeof(float) * kThreads * 8 *
                                  static_cast<std::size_t>(device.sm_count));
  const kernels::DeviceBuffer clock(sizeof(ClockSample));
  for (int i = 0; i < kClockWarmupRuns; ++i) fma(out.as<float>(), clock.as<ClockSample>());
  TILESIM_CUDA_CHECK(cudaGetLastError());
  TILESIM_CUDA_CHECK(cudaStreamSynchronize(device.stream));
}

}  // namespace

std::vector<MicrobenchResult> measure_compute_throughput(const MicrobenchDevice& device) {
  const int mma_grid = device.sm_count * 2;
  const int wide_grid = device.sm_count * 8;
  const double threads = static_cast<double>(wide_grid) * kThreads;
  const ComputeLaunch fma = [&](float* out, ClockSample* clock) {
    fma_kernel<<<wide_grid, kThreads, 0, device.stream>>>(kFmaIterations, 1.0f, out, clock);
  };
  raise_clocks(device, fma);

  std::vector<MicrobenchResult> results;
  const double mma_work =
      kMmaFlops * kChains * kMmaIterations * (kThreads / 32.0) * static_cast<double>(mma_grid);
  const auto mma_method = [&](const char* dtype) {
    return fmt::format(
        "register-only mma.sync.m16n8k16 {}, fp32 accumulate, {} chains a warp, grid {} x {}",
        dtype, kChains, mma_grid, kThreads);
  };
  double mma_clock_mhz = 0;
  results.push_back(per_sm_per_clock(
      device, "mma_sync_bf16", "flop/clk", mma_method("bf16"), mma_work,
      [&](float* out, ClockSample* clock) {
        mma_sync_kernel<__nv_bfloat16>
            <<<mma_grid, kThreads, 0, device.stream>>>(kMmaIterations, out, clock);
      },
      &mma_clock_mhz));
  results.push_back({"sm_clock_under_load", mma_clock_mhz, mma_clock_mhz, mma_clock_mhz, "MHz", 1,
                     "clock64 against %globaltimer in CTA 0 during the last bf16 mma.sync run"});
  results.push_back(per_sm_per_clock(device, "mma_sync_fp16", "flop/clk", mma_method("fp16"),
                                     mma_work, [&](float* out, ClockSample* clock) {
                                       mma_sync_kernel<__half>
                                           <<<mma_grid, kThreads, 0, device.stream>>>(
                                               kMmaIterations, out, clock);
                                     }));
  results.push_back(
      per_sm_per_clock(device, "fp32_fma", "flop/clk",
                       fmt::format("fma.rn.f32, {} chains a thread, grid {} x {}, an FMA = 2 flops",
                                   kChains, wide_grid, kThreads),
                       2.0 * kChains * kFmaIterations * threads, fma));
  results.push_back(per_sm_per_clock(
      device, "sfu_ex2", "op/clk",
      fmt::format("ex2.approx.ftz.f32, {} chains a thread, grid {} x {}", kChains, wide_grid,
                  kThreads),
      1.0 * kChains * kEx2Iterations * threads, [&](float* out, ClockSample* clock) {
        ex2_kernel<<<wide_grid, kThreads, 0, device.stream>>>(kEx2Iterations, -1.0f, out, clock);
      }));
  results.push_back(per_sm_per_clock(
      device, "shared_memory_bandwidth", "B/clk",
      fmt::format("ld.shared.v4 (16 B, conflict-free), {} in flight a thread, grid {} x {}",
                  kChains, wide_grid, kThreads),
      16.0 * kChains * kSharedIterations * threads, [&](float* out, ClockSample* clock) {
        shared_load_kernel<<<wide_grid, kThreads, 0, device.stream>>>(kSharedIterations, out,
                                                                      clock);
      }));
  return results;
}

}  // namespace tilesim::microbench
