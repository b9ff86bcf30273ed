#pragma once
// Softmax and fragment arithmetic shared by the flash forward kernels
// (mma.sync and wgmma): base-2 exponent on the SFU, and two fp32 values
// rounded into one 32-bit register of the input type (an MMA A fragment).

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace tilesim::kernels::flash {

__device__ __forceinline__ float exp2_approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
}

template <typename Element>
__device__ __forceinline__ std::uint32_t pack(float lo, float hi);
template <>
__device__ __forceinline__ std::uint32_t pack<__nv_bfloat16>(float lo, float hi) {
  const __nv_bfloat162 pair = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<const std::uint32_t*>(&pair);
}
template <>
__device__ __forceinline__ std::uint32_t pack<__half>(float lo, float hi) {
  const __half2 pair = __floats2half2_rn(lo, hi);
  return *reinterpret_cast<const std::uint32_t*>(&pair);
}

}  // namespace tilesim::kernels::flash
