// The data-parallel variants of gemm_kernel (see gemm_kernel_variants.cuh).

#include "kernels/gemm/gemm_kernel_variants.cuh"
#include "kernels/gemm/tile_scheduler_data_parallel.cuh"

namespace tilesim::kernels::gemm {

GemmKernelHandle find_data_parallel_kernel(GemmTileVariant variant, ElementType in, ElementType out,
                                           bool vector_loads) {
  return find_kernel_variant<DataParallelScheduler>(variant, in, out, vector_loads);
}

}  // namespace tilesim::kernels::gemm
