// tilesim-l2-fill-hit: what the L2 slices move when reads that hit and reads
// that miss (and fill) run at once, for `l2.slice_bandwidth` (a miss passes
// through its slice twice: written by HBM's data, then read). One CTA per SM
// of 32 warps runs for a fixed time; `stream_warps` of them read their SM's
// slice of a 2 GiB buffer once per pass (every read misses and fills), the
// others read a working set of `working_set_mib` that all SMs share and keep
// in L2 (every read hits), 16-byte ld.global.cg, 8 loads in flight a thread.
// Working sets 1-24 MiB, 0-32 streaming warps of 32. Prints CSV on stdout:
//   working_set_mib, stream_warps, hit_gbs, fill_gbs, slice_gbs, clock_mhz
// (slice_gbs = hit_gbs + 2 x fill_gbs; medians of 5 runs of 2 ms each).
// kernels/microbench/fit_l2_slice_bandwidth.py reads the table.
// Exit status: 0, 1 on a CUDA error, 77 without a device.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/standalone_device.hpp"
#include "kernels/microbench/device_clock.cuh"
#include "kernels/microbench/l2_load.cuh"

namespace {

using tilesim::kernels::DeviceBuffer;
using tilesim::microbench::global_time_ns;
using tilesim::microbench::read_in_flight;
using tilesim::microbench::sm_cycles;

constexpr int kWarps = 32;
constexpr int kThreads = kWarps * 32;
constexpr int kInFlight = 8;
// More than half of an SM's shared memory: one CTA per SM.
constexpr int kSharedBytes = 120 * 1024;
constexpr unsigned long long kRunNs = 2'000'000;
constexpr unsigned long long kWarmUpNs = 300'000'000;  // clocks up from idle
constexpr int kRepeats = 5;
constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::size_t kStreamBytes = std::size_t{2} << 30;  // 40x the H100's L2
constexpr std::uint32_t kNeverFolded = 0x9e3779b9u;

struct CtaSample {
  unsigned long long hit_bytes;
  unsigned long long fill_bytes;
  unsigned long long start_ns;
  unsigned long long end_ns;
  unsigned long long cycles;
};

// Reads kInFlight words at `index`, `index + step`, ... (wrapping at `words`)
// until the deadline; returns the number of 16-byte reads.
__device__ unsigned long long read_until(const uint4* data, std::size_t words, std::size_t index,
                                         std::size_t step, unsigned long long end_ns,
                                         std::uint32_t* folded) {
  unsigned long long reads = 0;
  do {
    index = read_in_flight<kInFlight>(data, words, index, step, folded);
    reads += kInFlight;
  } while (global_time_ns() < end_ns);
  return reads;
}

// fill_hit_kernel
//   grid: one CTA per SM (kSharedBytes of dynamic shared memory each);
//   block: 1024 threads. Warps below `stream_warps` stream their CTA's slice
//   of `stream` (misses that fill); the rest read the shared `hit_set` with
//   the stride of all hit threads of the grid (hits). Every warp stops at the
//   same %globaltimer deadline; thread 0 records the bytes, the times and the
//   SM cycles of its CTA.
__global__ void __launch_bounds__(kThreads, 1)
    fill_hit_kernel(const uint4* stream, std::size_t stream_words, const uint4* hit_set,
                    std::size_t hit_words, int stream_warps, unsigned long long run_ns,
                    CtaSample* samples, std::uint32_t* sink) {
  __shared__ unsigned long long hit_reads;
  __shared__ unsigned long long fill_reads;
  __shared__ unsigned long long start_ns;
  if (threadIdx.x == 0) {
    hit_reads = 0;
    fill_reads = 0;
    start_ns = global_time_ns();
  }
  __syncthreads();
  const unsigned long long start_cycles = sm_cycles();
  const unsigned long long end_ns = start_ns + run_ns;
  const int warp = threadIdx.x / 32;
  std::uint32_t folded = 0;
  if (warp < stream_warps) {
    const std::size_t slice = stream_words / gridDim.x;
    const std::size_t step = std::size_t{32} * stream_warps;
    const unsigned long long reads =
        read_until(stream + slice * blockIdx.x, slice, threadIdx.x, step, end_ns, &folded);
    atomicAdd(&fill_reads, reads);
  } else {
    const std::size_t hit_threads = std::size_t{32} * (kWarps - stream_warps);
    const std::size_t first =
        (blockIdx.x * hit_threads + (threadIdx.x - 32 * stream_warps)) % hit_words;
    const std::size_t step = (hit_threads * gridDim.x) % hit_words;
    const unsigned long long reads = read_until(hit_set, hit_words, first, step, end_ns, &folded);
    atomicAdd(&hit_reads, reads);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    samples[blockIdx.x] = {hit_reads * sizeof(uint4), fill_reads * sizeof(uint4), start_ns,
                           global_time_ns(), sm_cycles() - start_cycles};
  }
  if (folded == kNeverFolded) *sink = folded;
}

struct Rates {
  double hit_gbs;
  double fill_gbs;
  double clock_mhz;
};

// Bytes of every CTA over the span from the first start to the last end.
Rates rates_of(const std::vector<CtaSample>& samples) {
  unsigned long long first = samples.front().start_ns;
  unsigned long long last = samples.front().end_ns;
  double hit = 0;
  double fill = 0;
  double mhz = 0;
  for (const CtaSample& s : samples) {
    first = std::min(first, s.start_ns);
    last = std::max(last, s.end_ns);
    hit += static_cast<double>(s.hit_bytes);
    fill += static_cast<double>(s.fill_bytes);
    mhz += 1e3 * static_cast<double>(s.cycles) / static_cast<double>(s.end_ns - s.start_ns);
  }
  const double ns = static_cast<double>(last - first);
  return {hit / ns, fill / ns, mhz / static_cast<double>(samples.size())};
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// One row per working set and streaming-warp count.
void measure(int sms) {
  const std::size_t largest_set = 24 * kMiB;
  const DeviceBuffer stream(kStreamBytes);
  const DeviceBuffer hit_set(largest_set);
  const DeviceBuffer samples(sizeof(CtaSample) * sms);
  const DeviceBuffer sink(sizeof(std::uint32_t));
  TILESIM_CUDA_CHECK(cudaMemset(stream.get(), 0x5a, kStreamBytes));
  TILESIM_CUDA_CHECK(cudaMemset(hit_set.get(), 0x3c, largest_set));
  TILESIM_CUDA_CHECK(cudaFuncSetAttribute(
      fill_hit_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
  const std::size_t stream_words = kStreamBytes / sizeof(uint4);
  const auto launch = [&](std::size_t hit_words, int stream_warps, unsigned long long run_ns) {
    fill_hit_kernel<<<sms, kThreads, kSharedBytes>>>(
        stream.as<uint4>(), stream_words, hit_set.as<uint4>(), hit_words, stream_warps, run_ns,
        samples.as<CtaSample>(), sink.as<std::uint32_t>());
    TILESIM_CUDA_CHECK(cudaDeviceSynchronize());
  };
  launch(largest_set / sizeof(uint4), kWarps / 2, kWarmUpNs);
  std::printf("working_set_mib,stream_warps,hit_gbs,fill_gbs,slice_gbs,clock_mhz\n");
  std::vector<CtaSample> host(sms);
  for (const std::size_t mib : {1, 4, 8, 16, 24}) {
    for (int stream_warps = 0; stream_warps <= kWarps; stream_warps += 4) {
      std::vector<double> hits, fills, slices, clocks;
      for (int r = 0; r < kRepeats; ++r) {
        launch(mib * kMiB / sizeof(uint4), stream_warps, kRunNs);
        TILESIM_CUDA_CHECK(cudaMemcpy(host.data(), samples.get(), sizeof(CtaSample) * sms,
                                      cudaMemcpyDeviceToHost));
        const Rates rates = rates_of(host);
        hits.push_back(rates.hit_gbs);
        fills.push_back(rates.fill_gbs);
        slices.push_back(rates.hit_gbs + 2 * rates.fill_gbs);
        clocks.push_back(rates.clock_mhz);
      }
      std::printf("%zu,%d,%.0f,%.0f,%.0f,%.0f\n", mib, stream_warps, median(hits), median(fills),
                  median(slices), median(clocks));
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main() {
  const std::optional<int> sms = tilesim::kernels::device_sm_count_or_skip();
  if (!sms) return tilesim::kernels::kExitNoDevice;
  try {
    measure(*sms);
  } catch (const tilesim::kernels::CudaError& error) {
    std::fprintf(stderr, "tilesim-l2-fill-hit: %s\n", error.what());
    return 1;
  }
  return 0;
}
