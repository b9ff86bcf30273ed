#pragma once
// Fixing up tiles whose k-range is shared by several CTAs (split-K serial and
// Stream-K), through an fp32 workspace tile and two flags per shared tile.
//
// Partials are kept in the accumulator's own register order: math thread t's
// j-th float4 lives at slot_base + (j * kMathThreads + t) * 4, so every workspace access
// is a fully coalesced 16-byte-per-thread load or store, whatever the tile's
// position in C.
//
// Turnstile (deterministic): peer j (1-based, in the scheduler's fixed order:
// ascending k for split-K, descending k for Stream-K) waits until flag == j-1,
// stores (j == 1) or adds its partial, then sets flag = j. The finisher waits
// for flag == peers, adds the workspace to its accumulators, writes C and
// resets the flag. Atomic: peers take a ticket; the first stores, the others
// wait for that store and add with fp32 atomics; the flag counts peers done.
// Either way the kernels leave the flags zero for the next launch.

#include <type_traits>

#include "kernels/gemm/gemm_kernel_params.cuh"
#include "kernels/gemm/ptx_primitives.cuh"

namespace tilesim::kernels::gemm {

// CTAs per cluster of a tile config (the mma.sync configs have none; C++17 here).
template <class Cfg, class = void>
struct ClusterCtas {
  static constexpr int value = 1;
};
template <class Cfg>
struct ClusterCtas<Cfg, std::void_t<decltype(Cfg::kClusterCtas)>> {
  static constexpr int value = Cfg::kClusterCtas;
};

template <class Cfg>
struct TileFixup {
  static constexpr int kTileFloats = Cfg::kTileM * Cfg::kTileN;
  using Accumulators = typename Cfg::Accumulators;

  // Flags of a slot: [0] peers done (turnstile position), [1] atomic tickets.
  __device__ static int* done_flag(const GemmKernelParams& p, int slot) {
    return p.flags + 2 * slot;
  }
  __device__ static int* ticket_flag(const GemmKernelParams& p, int slot) {
    return p.flags + 2 * slot + 1;
  }

  __device__ static float4* slot_tile(const GemmKernelParams& p, int slot) {
    return reinterpret_cast<float4*>(p.partials + static_cast<long long>(slot) * kTileFloats);
  }

  // Thread 0 spins until *flag == value (or >= value); the barrier then
  // releases the math threads. A wait past kWaitLimitNs traps, so a broken flag protocol
  // (say, a workspace whose flags were not zero) fails the launch, not hangs.
  static constexpr unsigned long long kWaitLimitNs = 20ull * 1000 * 1000 * 1000;

  // The flag's acquire load and release store/add, with the math threads'
  // barrier, already order the workspace accesses (happens-before is
  // transitive through the barrier; CUTLASS's generic barrier does the
  // same). The 2-CTA cluster variants rely on them alone, without a full
  // __threadfence (MEMBAR.SC.GPU, which waits for every outstanding access
  // again) beside each; the other variants keep it, as they were measured.
  static constexpr bool kFullFence = ClusterCtas<Cfg>::value == 1;

  __device__ static unsigned long long now_ns() {
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    return now;
  }

  __device__ static void wait_for(const int* flag, int value, bool at_least = false) {
    if (threadIdx.x == 0) {
      const unsigned long long start = now_ns();
      for (;;) {
        const int seen = load_acquire_gpu(flag);
        if (seen == value || (at_least && seen > value)) break;
        __nanosleep(64);
        if (now_ns() - start > kWaitLimitNs) __trap();
      }
      if constexpr (kFullFence) __threadfence();
    }
    Cfg::sync_math_threads();
  }

  // After every thread's workspace writes: publish them, then set or bump the flag.
  __device__ static void signal(int* flag, int value, bool add) {
    Cfg::sync_math_threads();
    if (threadIdx.x == 0) {
      if constexpr (kFullFence) __threadfence();
      if (add) {
        add_release_gpu(flag, value);
      } else {
        store_release_gpu(flag, value);
      }
    }
  }

  enum class Combine { store, add, atomic_add };

  // A thread's accumulators are kFragments float4s; fragment f is acc[f / kMmaN][f % kMmaN].
  static constexpr int kFragments = Cfg::kMmaM * Cfg::kMmaN;
  // Workspace loads in flight per thread (the tile config's choice): a whole
  // batch is loaded before any is used, so a fixup waits for
  // kFragments / kLoadBatch L2 round trips.
  static constexpr int kLoadBatch = Cfg::kFixupLoadBatch;
  static_assert(kFragments % kLoadBatch == 0, "whole batches");

  __device__ static float4 fragment(const Accumulators& acc, int f) {
    const float* v = acc[f / Cfg::kMmaN][f % Cfg::kMmaN];
    return make_float4(v[0], v[1], v[2], v[3]);
  }
  __device__ static void add_to_fragment(Accumulators& acc, int f, float4 value) {
    float* v = acc[f / Cfg::kMmaN][f % Cfg::kMmaN];
    v[0] += value.x;
    v[1] += value.y;
    v[2] += value.z;
    v[3] += value.w;
  }
  __device__ static float4* slot_fragment(float4* tile, int f) {
    return tile + f * Cfg::kMathThreads + threadIdx.x;
  }

  __device__ static void combine(float4* tile, const Accumulators& acc, Combine how) {
#pragma unroll
    for (int batch = 0; batch < kFragments; batch += kLoadBatch) {
      float4 old[kLoadBatch];
      if (how == Combine::add) {
#pragma unroll
        for (int i = 0; i < kLoadBatch; ++i) old[i] = __ldcg(slot_fragment(tile, batch + i));
      }
#pragma unroll
      for (int i = 0; i < kLoadBatch; ++i) {
        float4* where = slot_fragment(tile, batch + i);
        float4 value = fragment(acc, batch + i);
        if (how == Combine::atomic_add) {
          atomicAdd(where, value);
          continue;
        }
        if (how == Combine::add) {
          value.x += old[i].x;
          value.y += old[i].y;
          value.z += old[i].z;
          value.w += old[i].w;
        }
        __stcg(where, value);
      }
    }
  }

  // acc += the workspace tile (read through L2: other SMs wrote it).
  __device__ static void accumulate_from(Accumulators& acc, float4* tile) {
#pragma unroll
    for (int batch = 0; batch < kFragments; batch += kLoadBatch) {
      float4 loaded[kLoadBatch];
#pragma unroll
      for (int i = 0; i < kLoadBatch; ++i) loaded[i] = __ldcg(slot_fragment(tile, batch + i));
#pragma unroll
      for (int i = 0; i < kLoadBatch; ++i) add_to_fragment(acc, batch + i, loaded[i]);
    }
  }

  // A peer's share: into the workspace, in turn (turnstile) or by atomics.
  __device__ static void contribute(const GemmKernelParams& p, const WorkUnit& unit,
                                    const Accumulators& acc, int* shared_ticket) {
    float4* tile = slot_tile(p, unit.slot);
    int* done = done_flag(p, unit.slot);
    if (!p.atomic_fixup) {
      wait_for(done, unit.order - 1);
      combine(tile, acc, unit.order == 1 ? Combine::store : Combine::add);
      signal(done, unit.order, false);
      return;
    }
    if (threadIdx.x == 0) *shared_ticket = atomicAdd(ticket_flag(p, unit.slot), 1);
    Cfg::sync_math_threads();
    const int ticket = *shared_ticket;
    if (ticket == 0) {
      combine(tile, acc, Combine::store);
    } else {
      // The first arrival's plain store must land before anyone adds to it.
      wait_for(done, 1, true);
      combine(tile, acc, Combine::atomic_add);
    }
    signal(done, 1, true);
  }

  // The finisher's share: wait for all peers, take their sum, reset the flags.
  __device__ static void collect(const GemmKernelParams& p, const WorkUnit& unit,
                                 Accumulators& acc) {
    int* done = done_flag(p, unit.slot);
    wait_for(done, unit.peers);
    accumulate_from(acc, slot_tile(p, unit.slot));
    if (threadIdx.x == 0) {
      *done = 0;
      *ticket_flag(p, unit.slot) = 0;
    }
  }
};

}  // namespace tilesim::kernels::gemm
