#pragma once
// The warpgroup MMAs of the Hopper flash forward kernel (sm_90a), beside the
// GEMM's m64n256k16 (kernels/gemm/ptx_hopper_primitives.cuh, whose mbarrier,
// TMA, descriptor and fence wrappers this kernel reuses):
//   S  = Q K^T: wgmma m64n128k16, A (Q) and B (K) K-major in shared memory;
//   O += P V:   wgmma m64n{128,64}k16, A (P) from registers, B (V) N-major in
//               shared memory.
// Accumulators are d[n / 8][4], mma.sync's m16n8 C order per warp (row
// lane / 4 and + 8 of the warp's 16, columns 8 j + 2 (lane % 4) + {0, 1}). A
// from registers is mma.sync's m16n8k16 A fragment of the warp's 16 rows.
// Generated operand lists: one "+f" per accumulator register.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "kernels/gemm/ptx_hopper_primitives.cuh"

namespace tilesim::kernels::flash::sm90 {

#if defined(TILESIM_SM90A)

// Arrives at named barrier `id` without waiting (the other `threads` - this
// warpgroup's wait for it with named_barrier_sync).
__device__ __forceinline__ void named_barrier_arrive(int id, int threads) {
  asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// Keeps a register operand of an in-flight wgmma (P) live and unmoved until here.
__device__ __forceinline__ void fence_operand(std::uint32_t& value) {
  asm volatile("" : "+r"(value)::"memory");
}

#define TILESIM_ATTN_ACCUMULATORS_N128(d)                                                         \
  "+f"(d[0][0]), "+f"(d[0][1]), "+f"(d[0][2]), "+f"(d[0][3]), "+f"(d[1][0]), "+f"(d[1][1]),       \
      "+f"(d[1][2]), "+f"(d[1][3]), "+f"(d[2][0]), "+f"(d[2][1]), "+f"(d[2][2]), "+f"(d[2][3]),   \
      "+f"(d[3][0]), "+f"(d[3][1]), "+f"(d[3][2]), "+f"(d[3][3]), "+f"(d[4][0]), "+f"(d[4][1]),   \
      "+f"(d[4][2]), "+f"(d[4][3]), "+f"(d[5][0]), "+f"(d[5][1]), "+f"(d[5][2]), "+f"(d[5][3]),   \
      "+f"(d[6][0]), "+f"(d[6][1]), "+f"(d[6][2]), "+f"(d[6][3]), "+f"(d[7][0]), "+f"(d[7][1]),   \
      "+f"(d[7][2]), "+f"(d[7][3]), "+f"(d[8][0]), "+f"(d[8][1]), "+f"(d[8][2]), "+f"(d[8][3]),   \
      "+f"(d[9][0]), "+f"(d[9][1]), "+f"(d[9][2]), "+f"(d[9][3]), "+f"(d[10][0]), "+f"(d[10][1]), \
      "+f"(d[10][2]), "+f"(d[10][3]), "+f"(d[11][0]), "+f"(d[11][1]), "+f"(d[11][2]),             \
      "+f"(d[11][3]), "+f"(d[12][0]), "+f"(d[12][1]), "+f"(d[12][2]), "+f"(d[12][3]),             \
      "+f"(d[13][0]), "+f"(d[13][1]), "+f"(d[13][2]), "+f"(d[13][3]), "+f"(d[14][0]),             \
      "+f"(d[14][1]), "+f"(d[14][2]), "+f"(d[14][3]), "+f"(d[15][0]), "+f"(d[15][1]),             \
      "+f"(d[15][2]), "+f"(d[15][3])
#define TILESIM_ATTN_ACCUMULATORS_N64(d)                                                        \
  "+f"(d[0][0]), "+f"(d[0][1]), "+f"(d[0][2]), "+f"(d[0][3]), "+f"(d[1][0]), "+f"(d[1][1]),     \
      "+f"(d[1][2]), "+f"(d[1][3]), "+f"(d[2][0]), "+f"(d[2][1]), "+f"(d[2][2]), "+f"(d[2][3]), \
      "+f"(d[3][0]), "+f"(d[3][1]), "+f"(d[3][2]), "+f"(d[3][3]), "+f"(d[4][0]), "+f"(d[4][1]), \
      "+f"(d[4][2]), "+f"(d[4][3]), "+f"(d[5][0]), "+f"(d[5][1]), "+f"(d[5][2]), "+f"(d[5][3]), \
      "+f"(d[6][0]), "+f"(d[6][1]), "+f"(d[6][2]), "+f"(d[6][3]), "+f"(d[7][0]), "+f"(d[7][1]), \
      "+f"(d[7][2]), "+f"(d[7][3])

// S (64 x 128, fp32) = A (64 x 16, K-major) B^T (128 x 16, K-major); `accumulate`
// 0 overwrites S (the first k-step), 1 adds to it.
#define TILESIM_ATTN_WGMMA_SS_N128(ab)                                                             \
  asm volatile(                                                                                    \
      "{\n.reg .pred accumulate;\nsetp.ne.b32 accumulate, %66, 0;\n"                               \
      "wgmma.mma_async.sync.aligned.m64n128k16.f32." ab "." ab                                     \
      " {"                                                                                         \
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, " \
      "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, " \
      "%38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, " \
      "%56, %57, %58, %59, %60, %61, %62, %63"                                                     \
      "}, %64, %65, accumulate, 1, 1, 0, 0;\n}\n"                                                  \
      : TILESIM_ATTN_ACCUMULATORS_N128(d)                                                          \
      : "l"(a_descriptor), "l"(b_descriptor), "r"(accumulate))

// O (64 x 128, fp32) += A (64 x 16 from registers) B (16 x 128, N-major).
#define TILESIM_ATTN_WGMMA_RS_N128(ab)                                                             \
  asm volatile(                                                                                    \
      "{\n.reg .pred accumulate;\nsetp.ne.b32 accumulate, %69, 0;\n"                               \
      "wgmma.mma_async.sync.aligned.m64n128k16.f32." ab "." ab                                     \
      " {"                                                                                         \
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, " \
      "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, " \
      "%38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, " \
      "%56, %57, %58, %59, %60, %61, %62, %63"                                                     \
      "}, {%64, %65, %66, %67}, %68, accumulate, 1, 1, 1;\n}\n"                                    \
      : TILESIM_ATTN_ACCUMULATORS_N128(d)                                                          \
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_descriptor), "r"(1))

// O (64 x 64, fp32) += A (64 x 16 from registers) B (16 x 64, N-major).
#define TILESIM_ATTN_WGMMA_RS_N64(ab)                                                              \
  asm volatile(                                                                                    \
      "{\n.reg .pred accumulate;\nsetp.ne.b32 accumulate, %37, 0;\n"                               \
      "wgmma.mma_async.sync.aligned.m64n64k16.f32." ab "." ab                                      \
      " {"                                                                                         \
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, " \
      "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"                                 \
      "}, {%32, %33, %34, %35}, %36, accumulate, 1, 1, 1;\n}\n"                                    \
      : TILESIM_ATTN_ACCUMULATORS_N64(d)                                                           \
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_descriptor), "r"(1))

template <typename Element>
__device__ __forceinline__ void wgmma_qk_m64n128k16(float (&d)[16][4], std::uint64_t a_descriptor,
                                                    std::uint64_t b_descriptor, int accumulate) {
  if constexpr (std::is_same_v<Element, __nv_bfloat16>) {
    TILESIM_ATTN_WGMMA_SS_N128("bf16");
  } else {
    TILESIM_ATTN_WGMMA_SS_N128("f16");
  }
}

// O += P V for head_dim kN (128 or 64).
template <typename Element, int kN>
__device__ __forceinline__ void wgmma_pv_m64k16(float (&d)[kN / 8][4], const std::uint32_t (&a)[4],
                                                std::uint64_t b_descriptor) {
  if constexpr (kN == 128) {
    if constexpr (std::is_same_v<Element, __nv_bfloat16>) {
      TILESIM_ATTN_WGMMA_RS_N128("bf16");
    } else {
      TILESIM_ATTN_WGMMA_RS_N128("f16");
    }
  } else {
    static_assert(kN == 64);
    if constexpr (std::is_same_v<Element, __nv_bfloat16>) {
      TILESIM_ATTN_WGMMA_RS_N64("bf16");
    } else {
      TILESIM_ATTN_WGMMA_RS_N64("f16");
    }
  }
}

#undef TILESIM_ATTN_WGMMA_SS_N128
#undef TILESIM_ATTN_WGMMA_RS_N128
#undef TILESIM_ATTN_WGMMA_RS_N64
#undef TILESIM_ATTN_ACCUMULATORS_N128
#undef TILESIM_ATTN_ACCUMULATORS_N64

#endif  // TILESIM_SM90A

}  // namespace tilesim::kernels::flash::sm90
