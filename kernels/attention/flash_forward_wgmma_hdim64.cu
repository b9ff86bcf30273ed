// The Hopper flash forward kernel for head_dim 64, bf16 and fp16 (one file per
// head size so the instantiations compile in parallel).

#include "kernels/attention/flash_forward_wgmma_kernel.cuh"

namespace tilesim::kernels {

template <>
void launch_flash_forward_wgmma<64>(const FlashForwardParams& params, const FlashTensorMaps& maps,
                                    ElementType dtype, cudaStream_t stream) {
  if (dtype == ElementType::bf16) {
    flash::launch_flash_forward_wgmma_typed<__nv_bfloat16, 64>(params, maps, stream);
  } else {
    flash::launch_flash_forward_wgmma_typed<__half, 64>(params, maps, stream);
  }
}

}  // namespace tilesim::kernels
