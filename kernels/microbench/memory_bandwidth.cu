#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/microbench/kernel_timer.hpp"
#include "kernels/microbench/l2_load.cuh"
#include "kernels/microbench/memory_bandwidth.hpp"

namespace tilesim::microbench {
namespace {

constexpr int kThreads = 512;
constexpr int kCtasPerSm = 4;
constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::size_t kHbmBytes = 1024 * kMiB;  // 20x the H100's L2
constexpr int kWarmupRuns = 3;
constexpr int kRuns = 20;
constexpr double kL2SweepBytes = 4.0 * 1024 * kMiB;  // read per sweep point
constexpr int kPortThreads = 1024;
constexpr std::size_t kPortWorkingSetBytes = 8 * kMiB;
constexpr double kPortBytes = 256.0 * kMiB;
constexpr std::uint32_t kNeverFolded = 0x9e3779b9u;  // a sink write that never happens

__device__ __forceinline__ std::uint32_t fold(uint4 v) {
  return v.x ^ v.y ^ v.z ^ v.w;
}

// hbm_read_kernel
//   grid: SMs x 4; block: 512 threads.
//   Each thread reads 16-byte words grid-stride, 4 in flight, and folds them
//   into one word so the loads stay; the sink is written only if the fold hits
//   a value it never does.
__global__ void hbm_read_kernel(const uint4* __restrict__ data, std::size_t words,
                                std::uint32_t* sink) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  std::uint32_t folded = 0;
  for (; i + 3 * stride < words; i += 4 * stride) {
    const uint4 a = data[i];
    const uint4 b = data[i + stride];
    const uint4 c = data[i + 2 * stride];
    const uint4 d = data[i + 3 * stride];
    folded ^= fold(a) ^ fold(b) ^ fold(c) ^ fold(d);
  }
  for (; i < words; i += stride) folded ^= fold(data[i]);
  if (folded == kNeverFolded) *sink = folded;
}

// hbm_write_kernel
//   grid: SMs x 4; block: 512 threads. Each thread stores 16-byte words grid-stride.
__global__ void hbm_write_kernel(uint4* __restrict__ data, std::size_t words, uint4 value) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < words; i += stride)
    data[i] = value;
}

// hbm_copy_kernel
//   grid: SMs x 4; block: 512 threads. Each thread copies 16-byte words grid-stride.
__global__ void hbm_copy_kernel(const uint4* __restrict__ source, uint4* __restrict__ target,
                                std::size_t words) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < words; i += stride)
    target[i] = source[i];
}

// l2_read_kernel
//   grid: any; block: any.
//   Each thread makes `loads` 16-byte ld.global.cg reads (L1 bypassed) walking
//   the working set of `words` with the grid's stride, wrapping around, kInFlight
//   independent loads at a time.
template <int kInFlight>
__global__ void l2_read_kernel(const uint4* __restrict__ data, std::uint32_t words,
                               std::uint32_t loads, std::uint32_t* sink) {
  const std::uint32_t threads = gridDim.x * blockDim.x;
  const std::uint32_t step = threads % words;
  std::uint32_t index = (blockIdx.x * blockDim.x + threadIdx.x) % words;
  std::uint32_t folded = 0;
  for (std::uint32_t done = 0; done < loads; done += kInFlight) {
    index = read_in_flight<kInFlight>(data, words, index, step, &folded);
  }
  if (folded == kNeverFolded) *sink = folded;
}

// Bytes per second as GB/s from bytes moved per run and each run's time.
std::vector<double> gb_per_s(double bytes, const std::vector<double>& times_us) {
  std::vector<double> rates;
  for (const double us : times_us) rates.push_back(bytes / (us * 1e-6) / 1e9);
  return rates;
}

std::string size_text(std::size_t bytes) {
  return fmt::format("{}MiB", bytes / kMiB);
}

}  // namespace

std::vector<MicrobenchResult> measure_hbm_bandwidth(const MicrobenchDevice& device) {
  const kernels::DeviceBuffer source(kHbmBytes);
  const kernels::DeviceBuffer target(kHbmBytes);
  const kernels::DeviceBuffer sink(sizeof(std::uint32_t));
  TILESIM_CUDA_CHECK(cudaMemsetAsync(source.get(), 0x5a, kHbmBytes, device.stream));
  const std::size_t words = kHbmBytes / sizeof(uint4);
  const int grid = device.sm_count * kCtasPerSm;
  const std::string shape = fmt::format("{} GiB, grid {} x {} threads, 16-byte accesses",
                                        kHbmBytes / (1024 * kMiB), grid, kThreads);
  std::vector<MicrobenchResult> results;
  const auto read = time_on_gpu_us(
      [&] {
        hbm_read_kernel<<<grid, kThreads, 0, device.stream>>>(source.as<uint4>(), words,
                                                              sink.as<std::uint32_t>());
      },
      kWarmupRuns, kRuns, device.stream);
  results.push_back(summarize("hbm_read_bandwidth", "GB/s", "read " + shape,
                              gb_per_s(static_cast<double>(kHbmBytes), read)));
  const auto write = time_on_gpu_us(
      [&] {
        hbm_write_kernel<<<grid, kThreads, 0, device.stream>>>(target.as<uint4>(), words,
                                                               make_uint4(0x5a5a5a5au, 1u, 2u, 3u));
      },
      kWarmupRuns, kRuns, device.stream);
  results.push_back(summarize("hbm_write_bandwidth", "GB/s", "write " + shape,
                              gb_per_s(static_cast<double>(kHbmBytes), write)));
  const auto copy = time_on_gpu_us(
      [&] {
        hbm_copy_kernel<<<grid, kThreads, 0, device.stream>>>(source.as<uint4>(),
                                                              target.as<uint4>(), words);
      },
      kWarmupRuns, kRuns, device.stream);
  results.push_back(summarize("hbm_copy_bandwidth", "GB/s",
                              "copy (read + write bytes counted) " + shape,
                              gb_per_s(2.0 * static_cast<double>(kHbmBytes), copy)));
  return results;
}

std::vector<MicrobenchResult> measure_l2_bandwidth_sweep(const MicrobenchDevice& device,
                                                         double hbm_read_gb_per_s) {
  const std::size_t largest = 256 * kMiB;
  const kernels::DeviceBuffer data(largest);
  const kernels::DeviceBuffer sink(sizeof(std::uint32_t));
  TILESIM_CUDA_CHECK(cudaMemsetAsync(data.get(), 0x3c, largest, device.stream));
  const int grid = device.sm_count * kCtasPerSm;
  const double threads = static_cast<double>(grid) * kThreads;
  // A whole number of in-flight groups, so the bytes counted are the bytes read.
  const auto loads = static_cast<std::uint32_t>(kL2SweepBytes / sizeof(uint4) / threads) / 8 * 8;
  std::vector<MicrobenchResult> results;
  std::vector<std::pair<std::size_t, double>> sweep;  // working set, median GB/s
  for (const std::size_t mib : {1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64, 96, 128, 256}) {
    const std::size_t bytes = mib * kMiB;
    const auto words = static_cast<std::uint32_t>(bytes / sizeof(uint4));
    const auto times = time_on_gpu_us(
        [&] {
          l2_read_kernel<4><<<grid, kThreads, 0, device.stream>>>(data.as<uint4>(), words, loads,
                                                                  sink.as<std::uint32_t>());
        },
        kWarmupRuns, kRuns, device.stream);
    const double bytes_read = static_cast<double>(loads) * threads * sizeof(uint4);
    results.push_back(
        summarize("l2_read_bandwidth_" + size_text(bytes), "GB/s",
                  fmt::format("ld.global.cg 16 B, {} working set read repeatedly, grid {} x {}",
                              size_text(bytes), grid, kThreads),
                  gb_per_s(bytes_read, times)));
    sweep.emplace_back(bytes, results.back().value);
  }
  // Sets from 1/8 to 1/2 of L2: smaller ones read faster than L2 can serve a
  // kernel's real working set (many threads hitting the same few lines).
  std::vector<double> plateau_rates;
  for (const auto& [bytes, rate] : sweep) {
    if (bytes >= device.l2_bytes / 8 && bytes <= device.l2_bytes / 2) plateau_rates.push_back(rate);
  }
  MicrobenchResult plateau = summarize(
      "l2_bandwidth", "GB/s",
      "median of the sweep's medians for working sets from 1/8 to 1/2 of L2", plateau_rates);
  results.push_back(plateau);
  const double threshold = 0.5 * (plateau.value + hbm_read_gb_per_s);
  const auto falls = std::find_if(sweep.begin(), sweep.end(),
                                  [&](const auto& point) { return point.second < threshold; });
  const double falloff_mib =
      falls == sweep.end() ? 0.0 : static_cast<double>(falls->first) / static_cast<double>(kMiB);
  results.push_back({"l2_falloff_working_set", falloff_mib, falloff_mib, falloff_mib, "MiB", kRuns,
                     "first working set read at less than halfway between l2_bandwidth and "
                     "hbm_read_bandwidth (0: none)"});
  return results;
}

MicrobenchResult measure_l2_port_bandwidth(const MicrobenchDevice& device) {
  const kernels::DeviceBuffer data(kPortWorkingSetBytes);
  const kernels::DeviceBuffer sink(sizeof(std::uint32_t));
  TILESIM_CUDA_CHECK(cudaMemsetAsync(data.get(), 0x7e, kPortWorkingSetBytes, device.stream));
  const auto words = static_cast<std::uint32_t>(kPortWorkingSetBytes / sizeof(uint4));
  const auto loads = static_cast<std::uint32_t>(kPortBytes / sizeof(uint4) / kPortThreads);
  const auto times = time_on_gpu_us(
      [&] {
        l2_read_kernel<8><<<1, kPortThreads, 0, device.stream>>>(data.as<uint4>(), words, loads,
                                                                 sink.as<std::uint32_t>());
      },
      kWarmupRuns, kRuns, device.stream);
  const double bytes = static_cast<double>(loads) * kPortThreads * sizeof(uint4);
  return summarize("l2_port_bandwidth", "GB/s",
                   fmt::format("one CTA of {} threads, 8 ld.global.cg 16 B in flight each, {} "
                               "L2-resident working set",
                               kPortThreads, size_text(kPortWorkingSetBytes)),
                   gb_per_s(bytes, times));
}

}  // namespace tilesim::microbench
