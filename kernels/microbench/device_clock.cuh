#pragma once
// The two clocks a microbenchmark reads on the device: %globaltimer (ns, the
// same on every SM) and the SM's own cycle counter, for rates per clock.

namespace tilesim::microbench {

__device__ __forceinline__ unsigned long long global_time_ns() {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

__device__ __forceinline__ unsigned long long sm_cycles() {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(now));
  return now;
}

}  // namespace tilesim::microbench
