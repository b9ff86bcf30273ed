#pragma once
// The GEMM kernel template: one main loop, one epilogue, any tile scheduler.
//
// gemm_kernel<Cfg, In, Out, Scheduler>
//   grid:  what the scheduler's host plan says (tiles, tiles x splits, or a
//          persistent SMs x occupancy grid); 1-D.
//   block: Cfg::kThreads (8 or 4 warps), Cfg::kSharedBytes of dynamic shared memory.
//   kVectorLoads: rows of A and B are 16-byte aligned (k % 8 == 0, n % 8 == 0).
//   CTA:   asks the scheduler for work units (a tile and a k-block range); for
//          each, runs the cp.async/ldmatrix/mma.sync main loop into fp32
//          registers, then writes C, writes an fp32 split-K partial, adds its
//          partial into a shared tile's workspace (peer), or collects the
//          peers' sum and writes C (finisher).

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels/gemm/gemm_finish_unit.cuh"
#include "kernels/gemm/gemm_kernel_params.cuh"
#include "kernels/gemm/gemm_mainloop.cuh"
#include "kernels/gemm/gemm_tile_config.cuh"

namespace tilesim::kernels::gemm {

template <class Cfg, typename In, typename Out, class Scheduler, bool kVectorLoads>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinCtasPerSm)
    gemm_kernel(const GemmKernelParams p, const typename Scheduler::Params schedule) {
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ int ticket;  // atomic fixup: this CTA's arrival order at a shared tile
  Scheduler scheduler(p, schedule);
  WorkUnit unit;
  while (scheduler.next(unit)) {
    const TileCoord tile = rasterize_tile(unit.tile, p.tiles_m, p.tiles_n, p.swizzle);
    const int m0 = tile.row * Cfg::kTileM;
    const int n0 = tile.col * Cfg::kTileN;
    typename Cfg::Accumulators acc;
    GemmMainloop<Cfg, In, kVectorLoads>::run(acc, p, smem, m0, n0, unit.k_begin, unit.k_end);
    finish_unit<Cfg, Out, Scheduler>(p, unit, acc, m0, n0, &ticket);
  }
}

}  // namespace tilesim::kernels::gemm
