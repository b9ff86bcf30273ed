#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/microbench/kernel_timer.hpp"
#include "kernels/microbench/memory_latency.hpp"

namespace tilesim::microbench {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::size_t kLineBytes = 128;
constexpr std::size_t kWordsPerLine = kLineBytes / sizeof(std::uint32_t);
constexpr std::size_t kL2ChaseBytes = 4 * kMiB;     // well inside L2
constexpr std::size_t kHbmChaseBytes = 512 * kMiB;  // 10x L2: a visited line was never cached
constexpr std::uint32_t kL2Hops = 200000;
constexpr std::uint32_t kHbmHops = 50000;  // fewer than the lines, so each is visited once
constexpr int kRuns = 11;
constexpr std::uint32_t kSeed = 20261121;

// pointer_chase_kernel
//   grid: 1 CTA; block: 1 thread.
//   Follows `hops` links of the chain (each word holds the index of the next),
//   with ld.global.cg so L1 is bypassed; stores the end so the chain stays.
__global__ void pointer_chase_kernel(const std::uint32_t* __restrict__ chain, std::uint32_t hops,
                                     std::uint32_t* end) {
  std::uint32_t index = 0;
  for (std::uint32_t i = 0; i < hops; ++i) {
    asm volatile("ld.global.cg.u32 %0, [%1];\n" : "=r"(index) : "l"(chain + index));
  }
  *end = index;
}

// link_chain_kernel
//   grid: lines / 256; block: 256 threads.
//   Writes line order[i]'s link to line order[i + 1] (a single cycle).
__global__ void link_chain_kernel(std::uint32_t* chain, const std::uint32_t* order,
                                  std::uint32_t lines) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= lines) return;
  const std::uint32_t next = order[(i + 1) % lines];
  chain[std::size_t{order[i]} * kWordsPerLine] = next * static_cast<std::uint32_t>(kWordsPerLine);
}

// A random cycle through every line of `bytes`, starting at line 0.
void build_chain(const kernels::DeviceBuffer& chain, std::size_t bytes, cudaStream_t stream) {
  const auto lines = static_cast<std::uint32_t>(bytes / kLineBytes);
  std::vector<std::uint32_t> order(lines);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin() + 1, order.end(), std::mt19937(kSeed));
  const kernels::DeviceBuffer device_order(order.size() * sizeof(std::uint32_t));
  TILESIM_CUDA_CHECK(cudaMemcpyAsync(device_order.get(), order.data(), device_order.bytes(),
                                     cudaMemcpyHostToDevice, stream));
  link_chain_kernel<<<(lines + 255) / 256, 256, 0, stream>>>(
      chain.as<std::uint32_t>(), device_order.as<std::uint32_t>(), lines);
  TILESIM_CUDA_CHECK(cudaGetLastError());
  TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
}

std::vector<double> ns_per_hop(const std::vector<double>& times_us, std::uint32_t hops) {
  std::vector<double> latencies;
  for (const double us : times_us) latencies.push_back(us * 1000.0 / hops);
  return latencies;
}

}  // namespace

std::vector<MicrobenchResult> measure_memory_latency(const MicrobenchDevice& device) {
  const kernels::DeviceBuffer end(sizeof(std::uint32_t));
  std::vector<MicrobenchResult> results;
  {
    const kernels::DeviceBuffer chain(kL2ChaseBytes);
    build_chain(chain, kL2ChaseBytes, device.stream);
    // Warm-up chases pull the whole cycle into L2; the timed ones hit.
    const auto times = time_on_gpu_us(
        [&] {
          pointer_chase_kernel<<<1, 1, 0, device.stream>>>(chain.as<std::uint32_t>(), kL2Hops,
                                                           end.as<std::uint32_t>());
        },
        2, kRuns, device.stream);
    results.push_back(
        summarize("l2_hit_latency", "ns",
                  fmt::format("pointer chase, 1 thread, ld.global.cg, random cycle of 128 B lines "
                              "in {} MiB (L2-resident), {} hops",
                              kL2ChaseBytes / kMiB, kL2Hops),
                  ns_per_hop(times, kL2Hops)));
  }
  const kernels::DeviceBuffer chain(kHbmChaseBytes);
  build_chain(chain, kHbmChaseBytes, device.stream);
  const kernels::DeviceBuffer flush(2 * device.l2_bytes);
  std::vector<double> samples;
  for (int run = 0; run < kRuns; ++run) {
    // Writing twice L2's worth elsewhere evicts the lines the chain building left.
    TILESIM_CUDA_CHECK(cudaMemsetAsync(flush.get(), run + 1, flush.bytes(), device.stream));
    const auto times = time_on_gpu_us(
        [&] {
          pointer_chase_kernel<<<1, 1, 0, device.stream>>>(chain.as<std::uint32_t>(), kHbmHops,
                                                           end.as<std::uint32_t>());
        },
        0, 1, device.stream);
    samples.push_back(times.front() * 1000.0 / kHbmHops);
  }
  results.push_back(summarize(
      "hbm_miss_latency", "ns",
      fmt::format("pointer chase, 1 thread, ld.global.cg, {} hops over a random cycle of 128 B "
                  "lines in {} MiB, L2 flushed before each run",
                  kHbmHops, kHbmChaseBytes / kMiB),
      samples));
  return results;
}

}  // namespace tilesim::microbench
