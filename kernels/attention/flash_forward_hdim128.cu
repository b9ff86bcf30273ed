// The flash forward kernel for head_dim 128, bf16 and fp16 (one file per head
// size so the instantiations compile in parallel).

#include "kernels/attention/flash_forward_kernel.cuh"

namespace tilesim::kernels {

template <>
void launch_flash_forward<128>(const FlashForwardParams& params, ElementType dtype,
                               cudaStream_t stream) {
  if (dtype == ElementType::bf16) {
    flash::launch_flash_forward_typed<__nv_bfloat16, 128>(params, stream);
  } else {
    flash::launch_flash_forward_typed<__half, 128>(params, stream);
  }
}

}  // namespace tilesim::kernels
