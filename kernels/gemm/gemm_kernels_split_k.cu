// The split-k variants of gemm_kernel (see gemm_kernel_variants.cuh).

#include "kernels/gemm/gemm_kernel_variants.cuh"
#include "kernels/gemm/tile_scheduler_split_k.cuh"

namespace tilesim::kernels::gemm {

GemmKernelHandle find_split_k_kernel(GemmTileVariant variant, ElementType in, ElementType out,
                                     bool vector_loads) {
  return find_kernel_variant<SplitKScheduler>(variant, in, out, vector_loads);
}

}  // namespace tilesim::kernels::gemm
