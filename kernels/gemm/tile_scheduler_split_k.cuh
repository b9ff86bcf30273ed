#pragma once
// Split-K schedule: grid of tiles x splits CTAs; CTA b takes slice b / tiles of
// tile b % tiles, an even share of the tile's k-blocks. Slices of one tile are
// spaced `tiles` CTAs apart, so a slice's predecessors were launched before it.
// In clusters of `cluster_ctas` CTAs, b counts clusters (each takes one unit).
//   serial:   slice s waits for slice s-1 (a per-tile semaphore), adds its
//             partial to the fp32 workspace tile in k order; the last slice
//             adds the sum to its accumulators and writes C (gemm_fixup.cuh).
//   parallel: every slice writes an fp32 partial to workspace[s] (m x n); a
//             second kernel (split_k_reduce.cu) sums the slices in order.

#include "kernels/gemm/gemm_kernel_params.cuh"

namespace tilesim::kernels::gemm {

struct SplitKScheduler {
  struct Params {
    int splits = 1;
    bool parallel = false;
  };
  static constexpr bool kSharesTiles = true;
  static constexpr bool kWritesPartials = true;

  __device__ SplitKScheduler(const GemmKernelParams& p, const Params& params, int cluster_ctas = 1)
      : params_(params),
        tiles_(p.tiles_m * p.tiles_n),
        iters_(p.iters_per_tile),
        cta_(static_cast<int>(blockIdx.x) / cluster_ctas) {}

  __device__ bool next(WorkUnit& unit) {
    if (done_) return false;
    done_ = true;
    const int split = cta_ / tiles_;
    unit = WorkUnit{};
    unit.tile = cta_ % tiles_;
    unit.k_begin = static_cast<int>(static_cast<long long>(split) * iters_ / params_.splits);
    unit.k_end = static_cast<int>(static_cast<long long>(split + 1) * iters_ / params_.splits);
    unit.slot = unit.tile;
    if (params_.splits == 1) {
      unit.role = FixupRole::whole;
    } else if (params_.parallel) {
      unit.role = FixupRole::split_parallel;
      unit.order = split;
    } else if (split + 1 < params_.splits) {
      unit.role = FixupRole::peer;
      unit.order = split + 1;
    } else {
      unit.role = FixupRole::finisher;
      unit.peers = params_.splits - 1;
    }
    return true;
  }

 private:
  Params params_;
  int tiles_;
  int iters_;
  int cta_;
  bool done_ = false;
};

}  // namespace tilesim::kernels::gemm
