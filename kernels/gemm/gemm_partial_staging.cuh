#pragma once
// A Stream-K / split-K peer's fp32 partial stored by the copy engine while the
// consumers go on (the wgmma tma_store kernels, sm_90a).
//
// Storing a 128x192 partial (96 KiB) from registers held the consumers for
// ~4 K cycles (~15% of a 1536^3 Stream-K CTA, H200 phase trace, hopper22):
// an SM writes ~33 bytes a cycle to L2, and the flag's release waits for the
// last of them. A first peer (turnstile order 1: a plain store, no read)
// instead writes its last fragments to global memory itself, the first
// Cfg::kStagedFragments into shared memory (C's staging boxes, which no C
// store then uses, and Cfg::kSpareBytes beside the stages), and leaves:
// one helper warp of the producer warpgroup bulk-copies them out, frees the
// shared memory (an mbarrier), waits for the copies to land and releases the
// flag. The finisher's side is unchanged. Later peers (which add into what an
// earlier one wrote) and atomic fixups keep TileFixup's synchronous path.
//
// Handshake: the consumers arrive at named barrier kBarrier (no wait) after
// writing the request {slot, order}; the helper warp syncs there, serves it,
// and arrives on `free` once the copies have read shared memory. A request
// with slot < 0 ends the helper. Consumers wait for `free` before they write
// shared memory again (any C store or the next staging) or a new request.

#include <cstdint>

#include "kernels/gemm/gemm_fixup.cuh"
#include "kernels/gemm/gemm_kernel_params.cuh"
#include "kernels/gemm/ptx_hopper_primitives.cuh"
#include "kernels/gemm/ptx_primitives.cuh"

namespace tilesim::kernels::gemm {

#if defined(TILESIM_SM90A)

template <class Cfg>
class PartialStaging {
 public:
  static constexpr int kBarrier = 15;    // 0, 1 and 2.. (the C epilogue's) are taken
  static constexpr int kHelperWarp = 1;  // of the producer warpgroup; warp 0 loads
  static constexpr int kBarrierThreads = Cfg::kMathThreads + 32;
  static constexpr int kFragments = Cfg::kMmaN;
  using Accumulators = typename Cfg::Accumulators;
  using Fixup = TileFixup<Cfg>;

  // `boxes`: C's staging boxes (shared address, kEpilogueBytes), `spare`
  // (kSpareBytes), `free_barrier` (8 bytes) and `request` (two ints), all shared.
  __device__ PartialStaging(std::uint32_t boxes, unsigned char* boxes_generic, std::uint32_t spare,
                            unsigned char* spare_generic, std::uint32_t free_barrier,
                            volatile int* request)
      : boxes_(boxes),
        boxes_generic_(boxes_generic),
        spare_(spare),
        spare_generic_(spare_generic),
        free_(free_barrier),
        request_(request) {}

  // By one thread, before the CTA's first barrier (and its fence_barrier_init).
  __device__ void init_barrier() const { sm90::mbarrier_init(free_, 1); }

  __device__ static bool stages(const GemmKernelParams& p, const WorkUnit& unit) {
    return unit.role == FixupRole::peer && unit.order == 1 && !p.atomic_fixup;
  }

  // Consumers: before writing shared memory that a staging may still be read from.
  __device__ void wait_until_free() {
    if (!pending_) return;
    sm90::mbarrier_wait(free_, parity_);
    parity_ ^= 1u;
    pending_ = false;
  }

  // Consumers: the first peer's share (see above). Call wait_until_free first.
  __device__ void stage(const GemmKernelParams& p, const WorkUnit& unit, const Accumulators& acc) {
    float4* tile = Fixup::slot_tile(p, unit.slot);
#pragma unroll
    for (int f = Cfg::kStagedFragments; f < kFragments; ++f) {
      __stcg(Fixup::slot_fragment(tile, f), Fixup::fragment(acc, f));
    }
    // C's boxes are free once this consumer's earlier C stores have read them.
    if (threadIdx.x % 128 == 0) sm90::bulk_wait_group_read_all();
    Cfg::sync_math_threads();
#pragma unroll
    for (int f = 0; f < Cfg::kStagedFragments; ++f) {
      *reinterpret_cast<float4*>(fragment_address(f) + threadIdx.x * 16) = Fixup::fragment(acc, f);
    }
    sm90::fence_proxy_async_shared();
    if (threadIdx.x == 0) {
      request_[0] = unit.slot;
      request_[1] = unit.order;
    }
    sm90::named_barrier_arrive(kBarrier, kBarrierThreads);
    pending_ = true;
  }

  // Consumers, after their last unit: ends the helper.
  __device__ void finish() {
    wait_until_free();
    if (threadIdx.x == 0) request_[0] = -1;
    sm90::named_barrier_arrive(kBarrier, kBarrierThreads);
  }

  // The helper warp: serves requests until the end one.
  __device__ void serve(const GemmKernelParams& p) const {
    for (;;) {
      sm90::named_barrier_sync(kBarrier, kBarrierThreads);
      const int slot = request_[0];
      const int order = request_[1];
      if (slot < 0) return;
      if (threadIdx.x % 32 == 0) {
        auto* tile = reinterpret_cast<unsigned char*>(Fixup::slot_tile(p, slot));
        constexpr int kBoxBytes = Cfg::kEpilogueFragments * Cfg::kFixupFragmentBytes;
        sm90::bulk_store(tile, boxes_, kBoxBytes);
        if constexpr (Cfg::kSpareBytes > 0) {
          sm90::bulk_store(tile + kBoxBytes, spare_, Cfg::kSpareBytes);
        }
        sm90::bulk_commit_group();
        sm90::bulk_wait_group_read_all();
        sm90::mbarrier_arrive(free_);
        sm90::bulk_wait_group_all();
        // The copies' writes, then (through the consumers' barrier arrival)
        // their own stores, before the flag.
        sm90::fence_proxy_async();
        __threadfence();
        store_release_gpu(Fixup::done_flag(p, slot), order);
      }
      __syncwarp();
    }
  }

 private:
  // Generic address of staged fragment f (kMathThreads float4s, thread order).
  __device__ unsigned char* fragment_address(int f) const {
    return f < Cfg::kEpilogueFragments
               ? boxes_generic_ + f * Cfg::kFixupFragmentBytes
               : spare_generic_ + (f - Cfg::kEpilogueFragments) * Cfg::kFixupFragmentBytes;
  }

  std::uint32_t boxes_;
  unsigned char* boxes_generic_;
  std::uint32_t spare_;
  unsigned char* spare_generic_;
  std::uint32_t free_;
  volatile int* request_;
  std::uint32_t parity_ = 0;
  bool pending_ = false;
};

#endif  // TILESIM_SM90A

}  // namespace tilesim::kernels::gemm
