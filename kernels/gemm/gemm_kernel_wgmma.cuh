#pragma once
// The Hopper GEMM kernel template (sm_90a): TMA + wgmma main loop
// (gemm_mainloop_wgmma.cuh), any tile scheduler, the shared fixup/epilogue.
//
// gemm_wgmma_kernel<Cfg, In, Out, Scheduler>
//   grid:  what the scheduler's host plan says; 1-D.
//   block: Cfg::kThreads = kConsumers + 1 warpgroups, Cfg::kSharedBytes of
//          dynamic shared memory; one CTA per SM.
//   CTA:   one thread of the last warpgroup asks the scheduler for work
//          units, passes each to the consumers (gemm_work_unit_ring.cuh) and
//          loads its k-blocks by TMA; the consumer warpgroups multiply them
//          with wgmma into fp32 registers and then finish each unit as the
//          mma.sync kernel does (gemm_finish_unit.cuh).
// Cfg::kStoresByTma (the tma_store variant): finished tiles leave through
// shared memory and TMA stores (gemm_epilogue_tma_store.cuh), the maps then
// include C's.
// Cfg::kClusterM > 1 (launched in clusters of that many CTAs along m): the
// scheduler hands every CTA of a cluster the same units, each of a cluster
// tile of kClusterM * kTileM rows; rank r computes rows r * kTileM onwards,
// multicasts its share of B (gemm_mainloop_wgmma.cuh), and fixes up its rows
// in workspace slot unit.slot * kClusterM + r. Cfg::kClusterN > 1: the same
// along n (rank r computes columns r * kTileN onwards of a cluster tile of
// kClusterN * kTileN columns, and multicasts its share of A's rows). The
// cluster meets once its
// barriers are initialized (before any remote copy or arrival); at the end
// its producer thread waits until every stage has been released by the
// consumers of all CTAs (the others arrive on this one's empty barriers), as
// CUTLASS's producer tail does, instead of a closing cluster barrier: a CTA
// then need not wait for the other's epilogue, and its idle producer warps
// exit at once.
// Rows of A and B must be 16-byte aligned (the tensor maps' strides); the
// launcher runs the mma.sync kernel otherwise. Built for sm_90a only: other
// targets get a body that traps.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

#include "kernels/gemm/gemm_epilogue_tma_store.cuh"
#include "kernels/gemm/gemm_finish_unit.cuh"
#include "kernels/gemm/gemm_kernel_params.cuh"
#include "kernels/gemm/gemm_mainloop_wgmma.cuh"
#include "kernels/gemm/gemm_tensor_maps.hpp"
#include "kernels/gemm/gemm_tile_config.cuh"
#include "kernels/gemm/gemm_work_unit_ring.cuh"
#include "kernels/gemm/ptx_primitives.cuh"

namespace tilesim::kernels::gemm {

template <class Cfg>
using WgmmaTensorMaps = std::conditional_t<Cfg::kStoresByTma, GemmStoreTensorMaps, GemmTensorMaps>;

template <class Cfg, typename In, typename Out, class Scheduler>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    gemm_wgmma_kernel(const GemmKernelParams p, const typename Scheduler::Params schedule,
                      const __grid_constant__ WgmmaTensorMaps<Cfg> maps) {
#if defined(TILESIM_SM90A)
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ int ticket;  // atomic fixup: this CTA's arrival order at a shared tile
  // Dynamic shared memory is not promised 1024-byte alignment: kSharedBytes has the slack.
  const std::uint32_t base = (shared_address(smem) + Cfg::kAlignmentBytes - 1) &
                             ~static_cast<std::uint32_t>(Cfg::kAlignmentBytes - 1);
  // C's staging boxes (kStoresByTma), stages, their mbarriers, then the work-unit slots.
  static_assert(Cfg::kUnitRingBytes >= WorkUnitRing::kBytes);
  const std::uint32_t stages = base + Cfg::kEpilogueBytes;
  WgmmaStageRing<Cfg> ring(stages);
  const std::uint32_t unit_ring = stages + Cfg::kStages * Cfg::kStageBytes + Cfg::kBarrierBytes;
  WorkUnitRing units(unit_ring, smem + (unit_ring - shared_address(smem)));
  if (threadIdx.x == 0) {
    ring.init_barriers();
    units.init_barriers(Cfg::kMathThreads);
  }
  constexpr bool kClustered = Cfg::kClusterCtas > 1;
  if constexpr (kClustered) {
    sm90::cluster_sync();
  } else {
    __syncthreads();
  }
  const int rank = kClustered ? static_cast<int>(sm90::cluster_cta_rank()) : 0;
  // This CTA's tile within its cluster tile: (rank_m, rank_n).
  const int rank_m = Cfg::kClusterM > 1 ? rank : 0;
  const int rank_n = Cfg::kClusterN > 1 ? rank : 0;

  using Mainloop = WgmmaMainloop<Cfg, In>;
  if (threadIdx.x >= Cfg::kMathThreads) {
    sm90::lower_register_budget<Cfg::kProducerRegisters>();
    if (threadIdx.x == Cfg::kMathThreads) {
      sm90::prefetch_tensor_map(&maps.a);
      sm90::prefetch_tensor_map(&maps.b);
      Scheduler scheduler(p, schedule, Cfg::kClusterCtas);
      WorkUnit unit;
      while (scheduler.next(unit)) {
        if constexpr (kClustered) unit.slot = unit.slot * Cfg::kClusterCtas + rank;
        units.publish(unit);
        const TileCoord tile = rasterize_tile(unit.tile, p.tiles_m, p.tiles_n, p.swizzle);
        Mainloop::produce(ring, maps, (tile.row * Cfg::kClusterM + rank_m) * Cfg::kTileM,
                          (tile.col * Cfg::kClusterN + rank_n) * Cfg::kTileN, unit.k_begin,
                          unit.k_end, rank);
      }
      units.publish_end();
      if constexpr (kClustered) Mainloop::wait_for_releases(ring);
    }
  } else {
    sm90::raise_register_budget<Cfg::kConsumerRegisters>();
    for (WorkUnit unit = units.receive(); unit.tile >= 0; unit = units.receive()) {
      const TileCoord tile = rasterize_tile(unit.tile, p.tiles_m, p.tiles_n, p.swizzle);
      const int m0 = (tile.row * Cfg::kClusterM + rank_m) * Cfg::kTileM;
      const int n0 = (tile.col * Cfg::kClusterN + rank_n) * Cfg::kTileN;
      typename Cfg::Accumulators acc;
      Mainloop::consume(acc, ring, unit.k_begin, unit.k_end);
      if constexpr (Cfg::kStoresByTma) {
        finish_unit<Cfg, Out, Scheduler>(
            p, unit, acc, m0, n0, &ticket, [&](const typename Cfg::Accumulators& finished) {
              GemmTmaStoreEpilogue<Cfg, Out>::store(
                  finished, base, smem + (base - shared_address(smem)), &maps.c, m0, n0);
            });
      } else {
        finish_unit<Cfg, Out, Scheduler>(p, unit, acc, m0, n0, &ticket);
      }
    }
    if constexpr (Cfg::kStoresByTma) GemmTmaStoreEpilogue<Cfg, Out>::drain();
  }
#elif defined(__CUDA_ARCH__)
  __trap();
#endif
}

}  // namespace tilesim::kernels::gemm
