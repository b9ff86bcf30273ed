#pragma once
// What a CTA does with a work unit's accumulators, for every main loop: write
// C, write an fp32 split-K partial, add its partial into a shared tile's
// workspace (peer), or collect the peers' sum and write C (finisher). Run by
// the math threads (Cfg::kMathThreads) only.

#include "kernels/gemm/gemm_epilogue.cuh"
#include "kernels/gemm/gemm_fixup.cuh"
#include "kernels/gemm/gemm_kernel_params.cuh"

namespace tilesim::kernels::gemm {

// `store_c(acc)` writes a finished tile into C (the wgmma tma_store variant
// passes its shared-memory + TMA store; the overload below the register store).
template <class Cfg, typename Out, class Scheduler, class StoreC>
__device__ __forceinline__ void finish_unit(const GemmKernelParams& p, const WorkUnit& unit,
                                            typename Cfg::Accumulators& acc, int m0, int n0,
                                            int* ticket, StoreC&& store_c) {
  if constexpr (Scheduler::kSharesTiles) {
    if (unit.role == FixupRole::peer) {
      TileFixup<Cfg>::contribute(p, unit, acc, ticket);
      return;
    }
    if (unit.role == FixupRole::finisher) TileFixup<Cfg>::collect(p, unit, acc);
  }
  if constexpr (Scheduler::kWritesPartials) {
    if (unit.role == FixupRole::split_parallel) {
      float* slice = p.partials + static_cast<long long>(unit.order) * p.m * p.n;
      GemmEpilogue<Cfg>::store(acc, slice, p.m, p.n, m0, n0);
      return;
    }
  }
  store_c(acc);
}

template <class Cfg, typename Out, class Scheduler>
__device__ __forceinline__ void finish_unit(const GemmKernelParams& p, const WorkUnit& unit,
                                            typename Cfg::Accumulators& acc, int m0, int n0,
                                            int* ticket) {
  finish_unit<Cfg, Out, Scheduler>(
      p, unit, acc, m0, n0, ticket, [&](const typename Cfg::Accumulators& finished) {
        GemmEpilogue<Cfg>::store(finished, static_cast<Out*>(p.c), p.m, p.n, m0, n0);
      });
}

}  // namespace tilesim::kernels::gemm
