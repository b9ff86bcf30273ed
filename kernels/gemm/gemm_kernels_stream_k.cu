// The stream-k variants of gemm_kernel (see gemm_kernel_variants.cuh).

#include "kernels/gemm/gemm_kernel_variants.cuh"
#include "kernels/gemm/tile_scheduler_stream_k.cuh"

namespace tilesim::kernels::gemm {

GemmKernelHandle find_stream_k_kernel(GemmTileVariant variant, ElementType in, ElementType out,
                                      bool vector_loads) {
  return find_kernel_variant<StreamKScheduler>(variant, in, out, vector_loads);
}

}  // namespace tilesim::kernels::gemm
