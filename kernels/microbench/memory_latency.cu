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
// The translation sweep: one line per 2 MiB page (cudaMalloc's page size for
// large buffers), so every hop needs another page's translation while the
// lines themselves fit in L2 at every footprint.
constexpr std::size_t kPageBytes = 2 * kMiB;
constexpr std::size_t kTranslationFootprints[] = {16 * kMiB, 64 * kMiB, 256 * kMiB, 1024 * kMiB,
                                                  4096 * kMiB};
constexpr std::uint32_t kTranslationHops = 20000;
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
//   Writes line order[i]'s link to line order[i + 1] (a single cycle). Line i
//   sits at word i * stride_words, moved by (i mod spread) lines so that lines
//   one stride apart can fall in different L2 sets.
__global__ void link_chain_kernel(std::uint32_t* chain, const std::uint32_t* order,
                                  std::uint32_t lines, std::size_t stride_words,
                                  std::uint32_t spread) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= lines) return;
  const auto word = [stride_words, spread](std::uint32_t line) {
    return line * stride_words + (line % spread) * kWordsPerLine;
  };
  chain[word(order[i])] = static_cast<std::uint32_t>(word(order[(i + 1) % lines]));
}

// A random cycle through `lines` lines `stride_bytes` apart (each moved by
// (i mod spread) lines), starting at line 0.
void build_chain(const kernels::DeviceBuffer& chain, std::uint32_t lines, std::size_t stride_bytes,
                 std::uint32_t spread, cudaStream_t stream) {
  std::vector<std::uint32_t> order(lines);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin() + 1, order.end(), std::mt19937(kSeed));
  const kernels::DeviceBuffer device_order(order.size() * sizeof(std::uint32_t));
  TILESIM_CUDA_CHECK(cudaMemcpyAsync(device_order.get(), order.data(), device_order.bytes(),
                                     cudaMemcpyHostToDevice, stream));
  link_chain_kernel<<<(lines + 255) / 256, 256, 0, stream>>>(
      chain.as<std::uint32_t>(), device_order.as<std::uint32_t>(), lines,
      stride_bytes / sizeof(std::uint32_t), spread);
  TILESIM_CUDA_CHECK(cudaGetLastError());
  TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
}

// A random cycle through every line of `bytes`, starting at line 0.
void build_chain(const kernels::DeviceBuffer& chain, std::size_t bytes, cudaStream_t stream) {
  build_chain(chain, static_cast<std::uint32_t>(bytes / kLineBytes), kLineBytes, 1, stream);
}

std::vector<double> ns_per_hop(const std::vector<double>& times_us, std::uint32_t hops) {
  std::vector<double> latencies;
  for (const double us : times_us) latencies.push_back(us * 1000.0 / hops);
  return latencies;
}

// L2 hits through translations the chase keeps cold: one line a page over
// `footprint` bytes; the excess over l2_hit_latency is what a translation
// miss costs at that footprint.
MicrobenchResult translation_latency(std::size_t footprint, const MicrobenchDevice& device,
                                     const kernels::DeviceBuffer& end) {
  const kernels::DeviceBuffer chain(footprint);
  const auto lines = static_cast<std::uint32_t>(footprint / kPageBytes);
  build_chain(chain, lines, kPageBytes, 64, device.stream);
  const auto times = time_on_gpu_us(
      [&] {
        pointer_chase_kernel<<<1, 1, 0, device.stream>>>(chain.as<std::uint32_t>(),
                                                         kTranslationHops, end.as<std::uint32_t>());
      },
      2, kRuns, device.stream);
  return summarize(fmt::format("l2_hit_latency_{}mib_of_pages", footprint / kMiB), "ns",
                   fmt::format("pointer chase as l2_hit_latency, one 128 B line a 2 MiB page "
                               "over {} MiB ({} lines, L2-resident), {} hops",
                               footprint / kMiB, lines, kTranslationHops),
                   ns_per_hop(times, kTranslationHops));
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
  for (const std::size_t footprint : kTranslationFootprints) {
    results.push_back(translation_latency(footprint, device, end));
  }
  return results;
}

}  // namespace tilesim::microbench
