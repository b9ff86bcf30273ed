#pragma once
// Data-parallel schedule: CTA b computes the whole k-range of tile b (tiles in
// rasterized order, gemm_kernel_params.cuh) and writes C. Grid: one CTA per tile
// (per cluster tile: `cluster_ctas` CTAs, b counting clusters).

#include "kernels/gemm/gemm_kernel_params.cuh"

namespace tilesim::kernels::gemm {

struct DataParallelScheduler {
  struct Params {};
  static constexpr bool kSharesTiles = false;     // no peer/finisher fixup
  static constexpr bool kWritesPartials = false;  // no split-K workspace

  __device__ DataParallelScheduler(const GemmKernelParams& p, const Params&, int cluster_ctas = 1)
      : iters_(p.iters_per_tile), tile_(static_cast<int>(blockIdx.x) / cluster_ctas) {}

  __device__ bool next(WorkUnit& unit) {
    if (done_) return false;
    done_ = true;
    unit = WorkUnit{};
    unit.tile = tile_;
    unit.k_end = iters_;
    return true;
  }

 private:
  int iters_;
  int tile_;
  bool done_ = false;
};

}  // namespace tilesim::kernels::gemm
