#pragma once
// The Hopper main loop (sm_90a): a TMA producer and wgmma consumers sharing a
// ring of `kStages` shared-memory stages (WgmmaTileConfig).
//
// Per stage two mbarriers: `full` (1 arrival: the producer's expect_tx, then
// the stage's bytes from the copy engine) and `empty` (one arrival per
// consumer warp once its wgmmas have read the stage; in a 2-CTA cluster from
// the consumer warps of both CTAs, whose stages its copies fill). Producer and consumers
// walk the same sequence of k-blocks (every work unit the scheduler hands the
// CTA, in order), so each side tracks the ring position by itself: stage index
// and the parity of the barrier phase it waits for. The producer runs ahead
// into the next work unit while the consumers write out the last one.
//
// Shared-memory layout of a stage (128-byte swizzle, as TMA writes it and as
// the wgmma descriptors read it; 8-row groups of 128-byte rows, 1024-byte
// aligned):
//   A: kTileM rows (m) of 64 k-elements; K-major. Consumer g's 64 rows start
//      at g * 64 * 128 bytes; k-step ks (16 elements) is 32 bytes into a row.
//   B: kTileN / 64 boxes, each 64 rows (k) of 64 n-elements; N-major. The
//      descriptor's leading offset steps from box to box (64 n-columns), its
//      stride offset from one 8-row group of k to the next; k-step ks starts
//      16 rows (2048 bytes) into every box. With Cfg::kSwizzleBytesB = 64
//      (96-column tiles) the same with 32-column boxes of 64-byte rows in the
//      64-byte swizzle (8-row groups of 512 bytes).

#include <cstdint>

#include "kernels/gemm/gemm_kernel_params.cuh"
#include "kernels/gemm/gemm_tensor_maps.hpp"
#include "kernels/gemm/ptx_hopper_primitives.cuh"

namespace tilesim::kernels::gemm {

#if defined(TILESIM_SM90A)

template <class Cfg>
class WgmmaStageRing {
 public:
  // `stages` is the 1024-byte aligned shared address of stage 0; the barriers follow the stages.
  __device__ explicit WgmmaStageRing(std::uint32_t stages)
      : stages_(stages), barriers_(stages + Cfg::kStages * Cfg::kStageBytes) {}

  // By one thread, before the CTA's first barrier.
  __device__ void init_barriers() const {
    for (int s = 0; s < Cfg::kStages; ++s) {
      sm90::mbarrier_init(full(s), 1);
      sm90::mbarrier_init(empty(s), Cfg::kEmptyArrivals);
    }
    sm90::fence_barrier_init();
  }

  __device__ std::uint32_t stage_a() const { return stages_ + stage_ * Cfg::kStageBytes; }
  __device__ std::uint32_t stage_b() const { return stage_a() + Cfg::kStageBytesA; }
  __device__ std::uint32_t full() const { return full(stage_); }
  __device__ std::uint32_t empty() const { return empty(stage_); }
  __device__ int stage() const { return stage_; }
  __device__ std::uint32_t parity() const { return parity_; }
  __device__ std::uint32_t empty(int stage) const { return barriers_ + 8 * (Cfg::kStages + stage); }

  __device__ void advance() {
    if (++stage_ == Cfg::kStages) {
      stage_ = 0;
      parity_ ^= 1u;
    }
  }

 private:
  __device__ std::uint32_t full(int stage) const { return barriers_ + 8 * stage; }

  std::uint32_t stages_;
  std::uint32_t barriers_;
  int stage_ = 0;
  std::uint32_t parity_ = 0;
};

template <class Cfg, typename Element>
struct WgmmaMainloop {
  using Accumulators = typename Cfg::Accumulators;
  static constexpr int kRowBytes = Cfg::kSwizzleBytes;
  static constexpr int kGroupBytes = 8 * kRowBytes;  // one swizzle atom: 8 rows
  static constexpr int kRowBytesB = Cfg::kSwizzleBytesB;
  static constexpr int kGroupBytesB = 8 * kRowBytesB;
  static constexpr int kStepsPerBlock = Cfg::kTileK / 16;
  static_assert((Cfg::kTileN == 256 || Cfg::kTileN == 192 || Cfg::kTileN == 96) &&
                    Cfg::kMmaN == Cfg::kTileN / 8,
                "one wgmma m64n256k16, m64n192k16 or m64n96k16 per k-step");

  // Producer (one thread): k-blocks [k_begin, k_end) of the tile at (m0, n0).
  // A stage is refilled once every consumer warp has released it; the first
  // pass over the ring waits on parity 1, which a fresh barrier reports done.
  // In a cluster (Cfg::kClusterM > 1) the CTA of rank `rank` loads B boxes
  // [rank * kBoxesPerCta, ...) into every CTA of the cluster (where the boxes
  // do not divide evenly, boxes rank, rank + kClusterM, ...); its stage still
  // waits for all kStageBytes (the other CTAs' boxes count on it too), and
  // its empty barrier for every CTA's consumers, since its copies write theirs.
  // Along n (Cfg::kClusterN > 1) the same with A's rows: rank r loads rows
  // [r * kRowsAPerCta, ...) of the tile into every CTA, and its B alone.
  __device__ static void produce(WgmmaStageRing<Cfg>& ring, const GemmTensorMaps& maps, int m0,
                                 int n0, int k_begin, int k_end, int rank = 0) {
    for (int kb = k_begin; kb < k_end; ++kb) {
      sm90::mbarrier_wait(ring.empty(ring.stage()), ring.parity() ^ 1u);
      sm90::mbarrier_arrive_expect_tx(ring.full(), Cfg::kStageBytes);
      const int k0 = kb * Cfg::kTileK;
      if constexpr (Cfg::kClusterN > 1) {
        constexpr std::uint16_t kAllCtas = (1u << Cfg::kClusterN) - 1;
        const int row = rank * Cfg::kRowsAPerCta;
        sm90::tma_load_2d_multicast(ring.stage_a() + row * kRowBytes, &maps.a, k0, m0 + row,
                                    ring.full(), kAllCtas);
#pragma unroll
        for (int box = 0; box < Cfg::kBoxesB; ++box) load_b_box(ring, maps, box, n0, k0);
      } else {
        sm90::tma_load_2d(ring.stage_a(), &maps.a, k0, m0, ring.full());
        if constexpr (Cfg::kBoxesB % Cfg::kClusterM == 0) {
#pragma unroll
          for (int i = 0; i < Cfg::kBoxesPerCta; ++i) {
            load_b_box(ring, maps, rank * Cfg::kBoxesPerCta + i, n0, k0);
          }
        } else {
#pragma unroll
          for (int box = 0; box < Cfg::kBoxesB; ++box) {
            if (box % Cfg::kClusterM == rank) load_b_box(ring, maps, box, n0, k0);
          }
        }
      }
      ring.advance();
    }
  }

  // One 64-column box of B's k-block at k0 into the current stage (every CTA's, in a cluster).
  __device__ static void load_b_box(const WgmmaStageRing<Cfg>& ring, const GemmTensorMaps& maps,
                                    int box, int n0, int k0) {
    const std::uint32_t dst = ring.stage_b() + box * Cfg::kBoxBytesB;
    const int x = n0 + box * Cfg::kBoxN;
    if constexpr (Cfg::kClusterM > 1) {
      constexpr std::uint16_t kAllCtas = (1u << Cfg::kClusterM) - 1;
      sm90::tma_load_2d_multicast(dst, &maps.b, x, k0, ring.full(), kAllCtas);
    } else {
      sm90::tma_load_2d(dst, &maps.b, x, k0, ring.full());
    }
  }

  // Producer, after its last k-block: waits until every stage's last fill has
  // been released by all its consumer warps, those of the other CTAs of the
  // cluster included. Then no remote arrival on this CTA's barriers is still
  // to come and the CTA may exit without meeting the cluster again. (A stage
  // never filled waits on parity 1 of a fresh barrier, which is done.)
  __device__ static void wait_for_releases(WgmmaStageRing<Cfg>& ring) {
    for (int s = 0; s < Cfg::kStages; ++s) {
      sm90::mbarrier_wait(ring.empty(ring.stage()), ring.parity() ^ 1u);
      ring.advance();
    }
  }

  // A consumer warp's release of `stage`: to every CTA whose copies fill it.
  __device__ static void release(const WgmmaStageRing<Cfg>& ring, int stage) {
    if constexpr (Cfg::kClusterCtas > 1) {
#pragma unroll
      for (int cta = 0; cta < Cfg::kClusterCtas; ++cta) {
        sm90::mbarrier_arrive_cluster(ring.empty(stage), cta);
      }
    } else {
      sm90::mbarrier_arrive(ring.empty(stage));
    }
  }

  // B's descriptor at `address`: leading offset box to box, stride offset 8 rows of k.
  __device__ static std::uint64_t b_matrix_descriptor(std::uint32_t address) {
    if constexpr (kRowBytesB == 128) {
      return sm90::matrix_descriptor_128b_swizzle(address, Cfg::kBoxBytesB, kGroupBytesB);
    } else {
      return sm90::matrix_descriptor_64b_swizzle(address, Cfg::kBoxBytesB, kGroupBytesB);
    }
  }

  // Consumer warpgroups: acc = this warpgroup's 64 rows of the k-block range's
  // product. One wgmma group per k-block, one group left in flight: stage
  // kb-1 is released once block kb's group is issued and kb-1's has finished.
  __device__ static void consume(Accumulators& acc, WgmmaStageRing<Cfg>& ring, int k_begin,
                                 int k_end) {
#pragma unroll
    for (int j = 0; j < Cfg::kMmaN; ++j) {
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[0][j][e] = 0.0f;
    }
    const int consumer = static_cast<int>(threadIdx.x) / 128;
    const bool releases = threadIdx.x % 32 == 0;  // one arrival per warp
    int previous_stage = -1;
    for (int kb = k_begin; kb < k_end; ++kb) {
      sm90::mbarrier_wait(ring.full(), ring.parity());
      const std::uint32_t a = ring.stage_a() + consumer * 64 * kRowBytes;
      const std::uint32_t b = ring.stage_b();
      sm90::wgmma_fence();
#pragma unroll
      for (int ks = 0; ks < kStepsPerBlock; ++ks) {
        // K-major A: the leading offset is unused with a swizzle (given as 16 bytes).
        const std::uint64_t a_descriptor =
            sm90::matrix_descriptor_128b_swizzle(a + ks * 32, 16, kGroupBytes);
        const std::uint64_t b_descriptor = b_matrix_descriptor(b + ks * 16 * kRowBytesB);
        if constexpr (Cfg::kTileN == 256) {
          sm90::wgmma_m64n256k16<Element>(acc[0], a_descriptor, b_descriptor);
        } else if constexpr (Cfg::kTileN == 192) {
          sm90::wgmma_m64n192k16<Element>(acc[0], a_descriptor, b_descriptor);
        } else {
          sm90::wgmma_m64n96k16<Element>(acc[0], a_descriptor, b_descriptor);
        }
      }
      sm90::wgmma_commit_group();
      sm90::wgmma_wait_group<1>();
      if (previous_stage >= 0 && releases) release(ring, previous_stage);
      previous_stage = ring.stage();
      ring.advance();
    }
    sm90::wgmma_wait_group<0>();
    if (previous_stage >= 0 && releases) release(ring, previous_stage);
#pragma unroll
    for (int j = 0; j < Cfg::kMmaN; ++j) {
#pragma unroll
      for (int e = 0; e < 4; ++e) sm90::fence_accumulator(acc[0][j][e]);
    }
  }
};

#endif  // TILESIM_SM90A

}  // namespace tilesim::kernels::gemm
