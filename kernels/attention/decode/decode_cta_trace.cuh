#pragma once
// Per-CTA %globaltimer stamps for tilesim-decode-tail-study: when a decode CTA
// starts, when its main loop ends (its epilogue begins) and when it leaves,
// with the SM it ran on.

#include "kernels/attention/decode/decode_params.cuh"

namespace tilesim::kernels::decode::study {

// Written by thread 0; ns from %globaltimer (0: not reached), blocks streamed.
// Split epilogues also stamp their arrival: partial_ns once the partial is
// stored (the barrier after it passed), arrived_ns once the count returned
// (and, in the CTA that merges, its acquire fence is done).
struct CtaTrace {
  unsigned long long start_ns, first_ns, loop_end_ns, partial_ns, arrived_ns, end_ns;
  int smid, blocks;
};

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ int sm_id() {
  int id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// Stamps the main loop's end and the CTA's exit around the real epilogue.
template <class Inner>
struct TracedEpilogue {
  Inner inner;
  CtaTrace* trace;
  template <class Cta, class Cursor, class... Extra>
  __device__ void operator()(const Cta& cta, const DecodeParams& p, const Cursor& at,
                             Extra... extra) const {
    if (threadIdx.x == 0) trace->loop_end_ns = global_ns();
    inner(cta, p, at, extra...);
    if (threadIdx.x == 0) trace->end_ns = global_ns();
  }
};

// A split epilogue's arrival protocol (decode_partials.cuh) with its steps
// stamped into the CTA's record.
template <class Arrival>
struct StampedArrival {
  Arrival inner;
  CtaTrace* trace;
  __device__ int arrive(int* counters, int pair) const { return inner.arrive(counters, pair); }
  __device__ void acquire() const { inner.acquire(); }
  __device__ void mark(int step) const {
    (step == 0 ? trace->partial_ns : trace->arrived_ns) = global_ns();
  }
};

// This CTA's record in a (split, head, sequence)-major array.
__device__ inline CtaTrace* cta_trace(CtaTrace* traces) {
  return traces + (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
}

// Thread 0, at the CTA's start.
__device__ inline void stamp_start(CtaTrace* trace) {
  if (threadIdx.x != 0) return;
  trace->start_ns = global_ns();
  trace->first_ns = 0;
  trace->partial_ns = 0;
  trace->arrived_ns = 0;
  trace->smid = sm_id();
}

}  // namespace tilesim::kernels::decode::study
