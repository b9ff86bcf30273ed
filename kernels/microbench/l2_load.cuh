#pragma once
// A 16-byte global load that bypasses L1 (ld.global.cg), so every read is
// served by L2 (a hit) or through it from HBM (a miss that fills).

#include <cuda_runtime.h>

#include <cstdint>

namespace tilesim::microbench {

__device__ __forceinline__ uint4 load_bypassing_l1(const uint4* address) {
  uint4 v;
  asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(address));
  return v;
}

// kInFlight reads at `index`, `index + step`, ... (wrapping at `words`), all
// issued before any is used; folds them into `folded` (so the loads stay) and
// returns the index after them.
template <int kInFlight, typename Index>
__device__ __forceinline__ Index read_in_flight(const uint4* data, Index words, Index index,
                                                Index step, std::uint32_t* folded) {
  uint4 v[kInFlight];
#pragma unroll
  for (int j = 0; j < kInFlight; ++j) {
    v[j] = load_bypassing_l1(data + index);
    index += step;
    if (index >= words) index -= words;
  }
#pragma unroll
  for (int j = 0; j < kInFlight; ++j) *folded ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
  return index;
}

}  // namespace tilesim::microbench
