#pragma once
// Writing a CTA's fp32 accumulators out: converted to the output type into C,
// or as fp32 partials into a row-major split-K workspace. Each thread holds
// pairs of neighbouring columns (mma.sync's accumulator layout), written as one
// 2-element store where the row alignment allows; rows and columns past the
// matrix edges are skipped.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels/gemm/gemm_kernel_params.cuh"

namespace tilesim::kernels::gemm {

template <typename Out>
struct OutputPair;

template <>
struct OutputPair<float> {
  using Pair = float2;
  __device__ static Pair make(float x, float y) { return make_float2(x, y); }
  __device__ static float one(float x) { return x; }
};

template <>
struct OutputPair<__nv_bfloat16> {
  using Pair = __nv_bfloat162;
  __device__ static Pair make(float x, float y) { return __floats2bfloat162_rn(x, y); }
  __device__ static __nv_bfloat16 one(float x) { return __float2bfloat16_rn(x); }
};

template <>
struct OutputPair<__half> {
  using Pair = __half2;
  __device__ static Pair make(float x, float y) { return __floats2half2_rn(x, y); }
  __device__ static __half one(float x) { return __float2half_rn(x); }
};

template <class Cfg>
struct GemmEpilogue {
  using Accumulators = float[Cfg::kMmaM][Cfg::kMmaN][4];

  // Writes acc (tile at m0, n0) into the row-major `out` of m x n elements.
  template <typename Out>
  __device__ static void store(const Accumulators& acc, Out* out, int m, int n, int m0, int n0) {
    using Convert = OutputPair<Out>;
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const int row0 = m0 + (warp / Cfg::kWarpsN) * Cfg::kWarpTileM + lane / 4;
    const int col0 = n0 + (warp % Cfg::kWarpsN) * Cfg::kWarpTileN + (lane % 4) * 2;
    const bool pairs_aligned = n % 2 == 0;
#pragma unroll
    for (int mi = 0; mi < Cfg::kMmaM; ++mi) {
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int row = row0 + mi * 16 + half * 8;
        if (row >= m) continue;
        Out* out_row = out + static_cast<long long>(row) * n;
#pragma unroll
        for (int ni = 0; ni < Cfg::kMmaN; ++ni) {
          const int col = col0 + ni * 8;
          const float x = acc[mi][ni][2 * half];
          const float y = acc[mi][ni][2 * half + 1];
          if (pairs_aligned && col + 1 < n) {
            *reinterpret_cast<typename Convert::Pair*>(out_row + col) = Convert::make(x, y);
          } else {
            if (col < n) out_row[col] = Convert::one(x);
            if (col + 1 < n) out_row[col + 1] = Convert::one(y);
          }
        }
      }
    }
  }
};

}  // namespace tilesim::kernels::gemm
