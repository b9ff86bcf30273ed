#pragma once
// The C store of the tma_store wgmma variant (WgmmaTileConfig::kStoresByTma):
// instead of writing C from registers (gemm_epilogue.cuh: 64 scattered
// 4-byte stores per thread, during which the tensor cores idle), each
// consumer warpgroup converts its 64 x kTileN accumulators box by box into
// shared memory (64 rows x 128 bytes, in the 128-byte swizzle TMA reads; no
// bank conflicts; 64-byte rows in the 64-byte swizzle for 96-column tiles)
// and one of its threads hands each box to the copy engine
// (cp.async.bulk.tensor, shared -> global). Filling a box overlaps the store
// of the one before; the stores of a unit's last boxes overlap the next
// unit's main loop. TMA clips boxes at C's edges. sm_90a only.
//
// Each warpgroup owns two boxes (kEpilogueBoxesPerConsumer) and fills them
// alternately. Box j's store is issued after the warpgroup's barrier at j,
// where the issuing thread first waits for box j-1's store to have read its
// shared memory: after that barrier the other buffer, which box j+1 fills,
// is free. Where the boxes per call are even this holds from call to call;
// where they are odd (bf16/fp16 C of 192-column tiles: three boxes), the
// next call's box 0 reuses the buffer of this call's last box, so a call
// then starts by waiting for every earlier store to have read its box.

#include <cuda.h>

#include <cstdint>

#include "kernels/gemm/gemm_epilogue.cuh"
#include "kernels/gemm/ptx_hopper_primitives.cuh"

namespace tilesim::kernels::gemm {

#if defined(TILESIM_SM90A)

template <class Cfg, typename Out>
struct GemmTmaStoreEpilogue {
  using Accumulators = typename Cfg::Accumulators;
  static constexpr int kRowBytes = Cfg::kEpilogueRowBytes;  // 128, or 64 (96-column tiles)
  static constexpr int kBoxColumns = kRowBytes / static_cast<int>(sizeof(Out));
  static constexpr int kBoxes = Cfg::kTileN / kBoxColumns;
  static constexpr int kFragmentsPerBox = kBoxColumns / 8;  // m16n8 fragments along n
  static constexpr int kGroupThreads = 128;
  static constexpr int kFirstBarrier = 2;  // 0: __syncthreads, 1: the math threads
  static constexpr bool kBuffersAlternateAcrossCalls = kBoxes % Cfg::kEpilogueBoxesPerConsumer == 0;

  // acc (the tile at m0, n0) -> C through the consumer's boxes of `staging`
  // (shared address, 1024-byte aligned; `staging_generic` the same bytes).
  __device__ static void store(const Accumulators& acc, std::uint32_t staging,
                               unsigned char* staging_generic, const CUtensorMap* c_map, int m0,
                               int n0) {
    const int consumer = static_cast<int>(threadIdx.x) / kGroupThreads;
    const bool issues = threadIdx.x % kGroupThreads == 0;
    if constexpr (!kBuffersAlternateAcrossCalls) {
      if (issues) sm90::bulk_wait_group_read_all();
      sm90::named_barrier_sync(kFirstBarrier + consumer, kGroupThreads);
    }
#pragma unroll
    for (int box = 0; box < kBoxes; ++box) {
      const int offset =
          (consumer * Cfg::kEpilogueBoxesPerConsumer + box % Cfg::kEpilogueBoxesPerConsumer) *
          Cfg::kEpilogueBoxBytes;
      fill_box(acc, box, staging_generic + offset);
      sm90::fence_proxy_async_shared();
      if (issues) sm90::bulk_wait_group_read_all();
      sm90::named_barrier_sync(kFirstBarrier + consumer, kGroupThreads);
      if (issues) {
        sm90::tma_store_2d(c_map, staging + offset, n0 + box * kBoxColumns,
                           m0 + consumer * (kGroupThreads / 2));
        sm90::bulk_commit_group();
      }
    }
  }

  // Before the CTA exits: its shared memory must outlive the copy engine's reads.
  __device__ static void drain() {
    if (threadIdx.x % kGroupThreads == 0) sm90::bulk_wait_group_all();
  }

 private:
  // This thread's pairs of box `box` (warp w of the warpgroup: rows 16w..16w+15;
  // lane: row lane / 4 (+8), columns 2 (lane % 4) + 8 f) at their swizzled
  // places: 16-byte chunk c of row r sits at chunk c ^ (r % 8) (128-byte
  // rows), c ^ (r / 2 % 4) (64-byte rows: the swizzle XORs address bits 7-8
  // into 4-5).
  __device__ static void fill_box(const Accumulators& acc, int box, unsigned char* buffer) {
    using Convert = OutputPair<Out>;
    const int lane = static_cast<int>(threadIdx.x) % 32;
    const int first_row = (static_cast<int>(threadIdx.x) % kGroupThreads) / 32 * 16 + lane / 4;
#pragma unroll
    for (int f = 0; f < kFragmentsPerBox; ++f) {
      const int fragment = box * kFragmentsPerBox + f;
      const int byte = (f * 8 + (lane % 4) * 2) * static_cast<int>(sizeof(Out));
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int row = first_row + half * 8;
        const int chunk_xor = kRowBytes == 128 ? row % 8 : row / 2 % 4;
        const int swizzled = row * kRowBytes + (((byte / 16) ^ chunk_xor) * 16) + byte % 16;
        *reinterpret_cast<typename Convert::Pair*>(buffer + swizzled) =
            Convert::make(acc[0][fragment][2 * half], acc[0][fragment][2 * half + 1]);
      }
    }
  }
};

#endif  // TILESIM_SM90A

}  // namespace tilesim::kernels::gemm
