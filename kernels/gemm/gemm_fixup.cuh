#pragma once
// Fixing up tiles whose k-range is shared by several CTAs (split-K serial and
// Stream-K), through an fp32 workspace tile and two flags per shared tile.
//
// Partials are kept in the accumulator's own register order: thread t's j-th
// float4 lives at slot_base + (j * kThreads + t) * 4, so every workspace access
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

#include "kernels/gemm/gemm_kernel_params.cuh"
#include "kernels/gemm/ptx_primitives.cuh"

namespace tilesim::kernels::gemm {

template <class Cfg>
struct TileFixup {
  static constexpr int kTileFloats = Cfg::kTileM * Cfg::kTileN;
  using Accumulators = float[Cfg::kMmaM][Cfg::kMmaN][4];

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
  // releases the CTA. A wait past kWaitLimitNs traps, so a broken flag protocol
  // (say, a workspace whose flags were not zero) fails the launch, not hangs.
  static constexpr unsigned long long kWaitLimitNs = 20ull * 1000 * 1000 * 1000;

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
      __threadfence();
    }
    __syncthreads();
  }

  // After every thread's workspace writes: publish them, then set or bump the flag.
  __device__ static void signal(int* flag, int value, bool add) {
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      if (add) {
        add_release_gpu(flag, value);
      } else {
        store_release_gpu(flag, value);
      }
    }
  }

  enum class Combine { store, add, atomic_add };

  __device__ static void combine(float4* tile, const Accumulators& acc, Combine how) {
#pragma unroll
    for (int mi = 0; mi < Cfg::kMmaM; ++mi) {
#pragma unroll
      for (int ni = 0; ni < Cfg::kMmaN; ++ni) {
        float4* where = tile + (mi * Cfg::kMmaN + ni) * Cfg::kThreads + threadIdx.x;
        float4 value = make_float4(acc[mi][ni][0], acc[mi][ni][1], acc[mi][ni][2], acc[mi][ni][3]);
        if (how == Combine::atomic_add) {
          atomicAdd(where, value);
          continue;
        }
        if (how == Combine::add) {
          const float4 old = __ldcg(where);
          value.x += old.x;
          value.y += old.y;
          value.z += old.z;
          value.w += old.w;
        }
        __stcg(where, value);
      }
    }
  }

  // acc += the workspace tile (read through L2: other SMs wrote it).
  __device__ static void accumulate_from(Accumulators& acc, const float4* tile) {
#pragma unroll
    for (int mi = 0; mi < Cfg::kMmaM; ++mi) {
#pragma unroll
      for (int ni = 0; ni < Cfg::kMmaN; ++ni) {
        const float4 value = __ldcg(tile + (mi * Cfg::kMmaN + ni) * Cfg::kThreads + threadIdx.x);
        acc[mi][ni][0] += value.x;
        acc[mi][ni][1] += value.y;
        acc[mi][ni][2] += value.z;
        acc[mi][ni][3] += value.w;
      }
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
    __syncthreads();
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
