#pragma once
// The HBM stream of tilesim-cta-drift and tilesim-l2-residency: one CTA of
// 1024 threads per SM reads a region in chunks of 192 KiB (four of the wgmma
// kernel's 48 KiB stages), each thread's 12 loads of the chunk in flight at
// once, and folds them so the compiler keeps every load.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/microbench/l2_load.cuh"

namespace tilesim::microbench::hbm_stream {

constexpr int kThreads = 1024;
constexpr int kLoadsPerThread = 12;
constexpr std::size_t kChunkWords = std::size_t{kThreads} * kLoadsPerThread;  // 192 KiB
constexpr int kChunks = 96;  // 18 MiB a region: 2.4 GB over 132 regions, 48x the L2
// More than half of an SM's shared memory: one CTA per SM.
constexpr int kSharedBytes = 120 * 1024;
constexpr std::uint32_t kNeverFolded = 0x9e3779b9u;

// Reads chunk `c` of `region` (this thread's words) and folds it into `folded`.
__device__ __forceinline__ std::uint32_t fold_chunk(const uint4* region, int c,
                                                    std::uint32_t folded) {
  const uint4* chunk = region + std::size_t(c) * kChunkWords + threadIdx.x;
  uint4 v[kLoadsPerThread];
#pragma unroll
  for (int j = 0; j < kLoadsPerThread; ++j) v[j] = load_bypassing_l1(chunk + j * kThreads);
#pragma unroll
  for (int j = 0; j < kLoadsPerThread; ++j) folded ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
  return folded;
}

inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace tilesim::microbench::hbm_stream
