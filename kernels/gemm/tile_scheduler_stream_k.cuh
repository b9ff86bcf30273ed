#pragma once
// Stream-K schedule on a persistent grid (at most SMs x occupancy CTAs, all
// co-resident, which the fixup waits rely on). Tiles in rasterized order:
//   SK tiles  [0, sk_tiles): their MAC iterations (tile-major, k-blocks inside)
//             are split evenly over CTAs 0..sk_ctas-1 (CTA u takes iterations
//             [u*I/U, (u+1)*I/U)); a CTA's range may cross tile boundaries.
//   DP tiles  [sk_tiles, tiles): afterwards, CTA b does tiles b, b + grid, ...
//             or, with a `dp_tile_counter` (kernels where one thread per CTA
//             schedules: the wgmma kernel), whichever CTA asks next claims
//             the next tile. The tiles in flight then stay a tight window in
//             raster order (shared k-slices in L2) and CTAs that run faster
//             take more: a fixed b, b + grid, ... order ran 8-10% slower than
//             the data-parallel launch on 16 whole waves on the H100.
// A tile shared by several CTAs is finished by the CTA holding its first
// k-block (the "finisher", which reaches it last: it is the end of its range);
// the others (peers) add into its workspace tile first, in descending k order:
// the CTA holding the tile's last k-blocks (the start of its range) goes first,
// so no peer waits on one still busy with a long range (an ascending order
// stalled such CTAs for most of the kernel on the H100).
// Head first (`head_first`, the wgmma kernel): a CTA takes its range from the
// top down instead, so it starts at k-block 0 of its last tile and ends with
// the tail of its first: every CTA's first segment starts at k = 0 and its
// last ends at the tile's end, so all CTAs walk k nearly in step (as a
// data-parallel wave does) and share the k-slices of A and B in L2. The CTA
// holding a tile's last k-blocks then reaches it last and finishes it; the
// peers add in ascending k order, the head's holder (done first) going first.
// The host (gemm_launch.cu) picks the SK tiles: pure: all; dp_one_tile: the
// partial last wave; two_tile: that plus one full wave (1-2 tiles per CTA).
// In clusters of `cluster_ctas` CTAs, "CTA" above means a cluster: its CTAs
// take the same units (so no dp_tile_counter, whose claims would differ).

#include "kernels/gemm/gemm_kernel_params.cuh"

namespace tilesim::kernels::gemm {

struct StreamKScheduler {
  struct Params {
    int sk_tiles = 0;         // tiles [0, sk_tiles) are Stream-K work
    int dp_tiles = 0;         // tiles [sk_tiles, sk_tiles + dp_tiles) are whole-tile work
    int sk_ctas = 0;          // U: CTAs sharing the Stream-K iterations
    long long sk_iters = 0;   // I: sk_tiles x k-blocks per tile
    bool head_first = false;  // a CTA's range from its last tile down (see above)
    // Claims DP tiles in arrival order when set: zero before the launch, and
    // left zero (the CTA whose claim is the grid's last resets it).
    int* dp_tile_counter = nullptr;
  };
  static constexpr bool kSharesTiles = true;
  static constexpr bool kWritesPartials = false;

  __device__ StreamKScheduler(const GemmKernelParams& p, const Params& params, int cluster_ctas = 1)
      : params_(params),
        iters_per_tile_(p.iters_per_tile),
        cta_(static_cast<int>(blockIdx.x) / cluster_ctas),
        grid_(static_cast<int>(gridDim.x) / cluster_ctas),
        dp_next_(cta_) {
    const long long cta = cta_;
    if (cta < params.sk_ctas) {
      sk_iter_ = first_iteration(cta);
      sk_end_ = first_iteration(cta + 1);
    }
  }

  __device__ bool next(WorkUnit& unit) {
    if (sk_iter_ < sk_end_) {
      next_stream_k(unit);
      return true;
    }
    if (params_.dp_tile_counter != nullptr) return claim_data_parallel(unit);
    if (dp_next_ < params_.dp_tiles) {
      data_parallel_unit(unit, static_cast<int>(dp_next_));
      dp_next_ += grid_;
      return true;
    }
    return false;
  }

 private:
  __device__ long long first_iteration(long long cta) const {
    return cta * params_.sk_iters / params_.sk_ctas;
  }
  // The CTA whose range holds `iter`: the largest u with first_iteration(u) <= iter.
  __device__ long long cta_of(long long iter) const {
    return ((iter + 1) * params_.sk_ctas - 1) / params_.sk_iters;
  }

  __device__ void data_parallel_unit(WorkUnit& unit, int dp_tile) const {
    unit = WorkUnit{};
    unit.tile = params_.sk_tiles + dp_tile;
    unit.k_end = iters_per_tile_;
  }

  // Every CTA claims once past the last tile; the grid's last such claim
  // (counter = dp_tiles + grid - 1) comes after every other, so it may reset.
  __device__ bool claim_data_parallel(WorkUnit& unit) const {
    const int claimed = atomicAdd(params_.dp_tile_counter, 1);
    if (claimed < params_.dp_tiles) {
      data_parallel_unit(unit, claimed);
      return true;
    }
    if (claimed == params_.dp_tiles + grid_ - 1) {
      atomicExch(params_.dp_tile_counter, 0);
    }
    return false;
  }

  // The next segment of the remaining range [sk_iter_, sk_end_): its lowest
  // tile's part (tail first) or its highest tile's part (head first).
  __device__ void next_stream_k(WorkUnit& unit) {
    const long long sk_tile = (params_.head_first ? sk_end_ - 1 : sk_iter_) / iters_per_tile_;
    const long long tile_begin = sk_tile * iters_per_tile_;
    const long long tile_end = tile_begin + iters_per_tile_;
    const long long segment_begin = max(sk_iter_, tile_begin);
    const long long segment_end = min(sk_end_, tile_end);
    unit = WorkUnit{};
    unit.tile = static_cast<int>(sk_tile);
    unit.k_begin = static_cast<int>(segment_begin - tile_begin);
    unit.k_end = static_cast<int>(segment_end - tile_begin);
    unit.slot = static_cast<int>(sk_tile);
    assign_fixup_role(unit, segment_begin == tile_begin, segment_end == tile_end, tile_begin,
                      tile_end);
    if (params_.head_first) {
      sk_end_ = segment_begin;
    } else {
      sk_iter_ = segment_end;
    }
  }

  // Who finishes a shared tile is whoever reaches it last; peers take turns.
  __device__ void assign_fixup_role(WorkUnit& unit, bool starts, bool ends, long long tile_begin,
                                    long long tile_end) const {
    if (starts && ends) {
      unit.role = FixupRole::whole;
      return;
    }
    if (params_.head_first) {
      // The tail's holder finishes; peers add in ascending k order, the
      // head's holder (which did it first in its range) going first.
      const int lower_holders = static_cast<int>(cta_ - cta_of(tile_begin));
      unit.role = ends ? FixupRole::finisher : FixupRole::peer;
      unit.peers = ends ? lower_holders : 0;
      unit.order = ends ? 0 : lower_holders + 1;
      return;
    }
    // The holder of k-block 0 finishes (the end of its range). Turnstile from
    // the last k-blocks down: the CTA holding the tile's tail meets it first
    // in its range; a CTA whose whole range lies inside the tile has nothing
    // else to do while it waits for its turn.
    const int higher_holders = static_cast<int>(cta_of(tile_end - 1) - cta_);
    unit.role = starts ? FixupRole::finisher : FixupRole::peer;
    unit.peers = starts ? higher_holders : 0;
    unit.order = starts ? 0 : higher_holders + 1;
  }

  Params params_;
  int iters_per_tile_;
  int cta_;  // this CTA's (cluster's) index among the grid_ that share the work
  int grid_;
  long long dp_next_;
  long long sk_iter_ = 0;
  long long sk_end_ = 0;
};

}  // namespace tilesim::kernels::gemm
