#pragma once
// Instantiating gemm_kernel for the compiled (tile variant, input, output)
// choices of one scheduler; included by each gemm_kernels_<schedule>.cu.
// m128n128k32_w8_s4, m256n128k64_w8_s3 and the wgmma variant: bf16/fp16 in,
// bf16/fp16/fp32 out; the other tile variants: bf16 -> bf16 only. The mma.sync
// variants with and without 16-byte vector loads, the wgmma ones (register
// and tma_store epilogues, the latter also in 2-CTA clusters, with 128x256,
// 128x192, 192x192 and 192x96 tiles, the last along m or along n) with (TMA) only.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels/gemm/gemm_kernel.cuh"
#include "kernels/gemm/gemm_kernel_registry.hpp"
#include "kernels/gemm/gemm_kernel_wgmma.cuh"

namespace tilesim::kernels::gemm {

template <class Cfg, typename In, typename Out, class Scheduler>
GemmKernelHandle handle_of(bool vector_loads) {
  const void* function =
      vector_loads ? reinterpret_cast<const void*>(&gemm_kernel<Cfg, In, Out, Scheduler, true>)
                   : reinterpret_cast<const void*>(&gemm_kernel<Cfg, In, Out, Scheduler, false>);
  return {function, Cfg::kThreads, Cfg::kSharedBytes};
}

template <class Cfg, typename In, typename Out, class Scheduler>
GemmKernelHandle wgmma_handle_of() {
  return {reinterpret_cast<const void*>(&gemm_wgmma_kernel<Cfg, In, Out, Scheduler>),
          Cfg::kThreads,
          Cfg::kSharedBytes,
          true,
          Cfg::kStoresByTma,
          Cfg::kClusterCtas,
          Cfg::kSwizzleBytesB};
}

template <class Cfg, typename In, class Scheduler>
GemmKernelHandle handle_for_output(ElementType out, bool vector_loads) {
  switch (out) {
    case ElementType::bf16:
      return handle_of<Cfg, In, __nv_bfloat16, Scheduler>(vector_loads);
    case ElementType::fp16:
      return handle_of<Cfg, In, __half, Scheduler>(vector_loads);
    case ElementType::fp32:
      return handle_of<Cfg, In, float, Scheduler>(vector_loads);
  }
  return {};
}

template <class Cfg, typename In, class Scheduler>
GemmKernelHandle wgmma_handle_for_output(ElementType out) {
  switch (out) {
    case ElementType::bf16:
      return wgmma_handle_of<Cfg, In, __nv_bfloat16, Scheduler>();
    case ElementType::fp16:
      return wgmma_handle_of<Cfg, In, __half, Scheduler>();
    case ElementType::fp32:
      return wgmma_handle_of<Cfg, In, float, Scheduler>();
  }
  return {};
}

// The wgmma variants: TMA needs 16-byte aligned rows (the launcher falls back
// to an mma.sync variant without them).
template <class Cfg, class Scheduler>
GemmKernelHandle find_wgmma_kernel(ElementType in, ElementType out, bool vector_loads) {
  if (!vector_loads) return {};
  switch (in) {
    case ElementType::bf16:
      return wgmma_handle_for_output<Cfg, __nv_bfloat16, Scheduler>(out);
    case ElementType::fp16:
      return wgmma_handle_for_output<Cfg, __half, Scheduler>(out);
    case ElementType::fp32:
      return {};
  }
  return {};
}

template <class Scheduler>
GemmKernelHandle find_kernel_variant(GemmTileVariant variant, ElementType in, ElementType out,
                                     bool vector_loads) {
  using BF16 = __nv_bfloat16;
  if (variant == GemmTileVariant::m128n256k64_w12_s4_wgmma) {
    return find_wgmma_kernel<WgmmaTileConfigM128N256S4, Scheduler>(in, out, vector_loads);
  }
  if (variant == GemmTileVariant::m128n256k64_w12_s4_wgmma_tma_store) {
    return find_wgmma_kernel<WgmmaTileConfigM128N256S4TmaStore, Scheduler>(in, out, vector_loads);
  }
  if (variant == GemmTileVariant::m128n256k64_w12_s4_wgmma_tma_store_c2) {
    return find_wgmma_kernel<WgmmaTileConfigM128N256S4TmaStoreC2, Scheduler>(in, out, vector_loads);
  }
  if (variant == GemmTileVariant::m128n192k64_w12_s4_wgmma_tma_store_c2) {
    return find_wgmma_kernel<WgmmaTileConfigM128N192S4TmaStoreC2, Scheduler>(in, out, vector_loads);
  }
  if (variant == GemmTileVariant::m192n192k64_w16_s3_wgmma_tma_store_c2) {
    return find_wgmma_kernel<WgmmaTileConfigM192N192S3TmaStoreC2, Scheduler>(in, out, vector_loads);
  }
  if (variant == GemmTileVariant::m192n96k64_w16_s4_wgmma_tma_store_c2) {
    return find_wgmma_kernel<WgmmaTileConfigM192N96S4TmaStoreC2, Scheduler>(in, out, vector_loads);
  }
  if (variant == GemmTileVariant::m192n96k64_w16_s4_wgmma_tma_store_c2n) {
    return find_wgmma_kernel<WgmmaTileConfigM192N96S4TmaStoreC2N, Scheduler>(in, out, vector_loads);
  }
  if (gemm_tile_variant_has_all_types(variant)) {
    const bool big = variant == GemmTileVariant::m256n128k64_w8_s3;
    switch (in) {
      case ElementType::bf16:
        return big ? handle_for_output<TileConfigM256N128K64W8S3, BF16, Scheduler>(out,
                                                                                   vector_loads)
                   : handle_for_output<TileConfigM128N128K32W8S4, BF16, Scheduler>(out,
                                                                                   vector_loads);
      case ElementType::fp16:
        return big ? handle_for_output<TileConfigM256N128K64W8S3, __half, Scheduler>(out,
                                                                                     vector_loads)
                   : handle_for_output<TileConfigM128N128K32W8S4, __half, Scheduler>(out,
                                                                                     vector_loads);
      case ElementType::fp32:
        return {};
    }
    return {};
  }
  if (in != ElementType::bf16 || out != ElementType::bf16) return {};
  switch (variant) {
    case GemmTileVariant::m128n128k32_w8_s4:
    case GemmTileVariant::m256n128k64_w8_s3:
    case GemmTileVariant::m128n256k64_w12_s4_wgmma:
    case GemmTileVariant::m128n256k64_w12_s4_wgmma_tma_store:
    case GemmTileVariant::m128n256k64_w12_s4_wgmma_tma_store_c2:
    case GemmTileVariant::m128n192k64_w12_s4_wgmma_tma_store_c2:
    case GemmTileVariant::m192n192k64_w16_s3_wgmma_tma_store_c2:
    case GemmTileVariant::m192n96k64_w16_s4_wgmma_tma_store_c2:
    case GemmTileVariant::m192n96k64_w16_s4_wgmma_tma_store_c2n:
      return {};  // above
    case GemmTileVariant::m128n128k32_w4_s4:
      return handle_of<TileConfigM128N128K32W4S4, BF16, BF16, Scheduler>(vector_loads);
    case GemmTileVariant::m256n128k64_w8_s4:
      return handle_of<TileConfigM256N128K64W8S4, BF16, BF16, Scheduler>(vector_loads);
    case GemmTileVariant::m128n256k32_w8_s4:
      return handle_of<TileConfigM128N256K32W8S4, BF16, BF16, Scheduler>(vector_loads);
  }
  return {};
}

}  // namespace tilesim::kernels::gemm
