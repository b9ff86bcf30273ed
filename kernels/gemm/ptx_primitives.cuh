#pragma once
// Thin wrappers over the PTX instructions the GEMM is built from: cp.async
// (global -> shared without registers), ldmatrix (shared -> mma fragments),
// mma.sync.m16n8k16 (sm_80+ tensor cores) and gpu-scope acquire/release flags.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace tilesim::kernels::gemm {

__device__ __forceinline__ std::uint32_t shared_address(const void* pointer) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(pointer));
}

// 16 bytes global -> shared, bypassing L1; copies zeros when `valid` is false
// (src-size 0 reads nothing), which is how edge tiles are padded.
__device__ __forceinline__ void cp_async_16(std::uint32_t dst, const void* src, bool valid) {
  const int src_bytes = valid ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
               "r"(src_bytes));
}

__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::);
}

// Waits until at most `kPending` committed groups of this thread are in flight.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
}

__device__ __forceinline__ void store_shared_16(std::uint32_t dst, uint4 value) {
  asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"r"(dst), "r"(value.x), "r"(value.y),
               "r"(value.z), "r"(value.w));
}

// Four 8x8 b16 matrices; lanes 8i..8i+7 give the row addresses of matrix i.
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&fragment)[4], std::uint32_t address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(fragment[0]), "=r"(fragment[1]), "=r"(fragment[2]), "=r"(fragment[3])
               : "r"(address));
}

// As ldmatrix_x4, each matrix transposed (B stored k-major gives the "col" operand).
__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&fragment)[4],
                                                  std::uint32_t address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(fragment[0]), "=r"(fragment[1]), "=r"(fragment[2]), "=r"(fragment[3])
               : "r"(address));
}

// D += A(16x16) * B(16x8) with fp32 accumulators, for bf16 or fp16 operands.
template <typename Element>
__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const std::uint32_t (&a)[4],
                                             const std::uint32_t (&b)[2]);

template <>
__device__ __forceinline__ void mma_m16n8k16<__nv_bfloat16>(float (&d)[4],
                                                            const std::uint32_t (&a)[4],
                                                            const std::uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

template <>
__device__ __forceinline__ void mma_m16n8k16<__half>(float (&d)[4], const std::uint32_t (&a)[4],
                                                     const std::uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ int load_acquire_gpu(const int* flag) {
  int value;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];\n" : "=r"(value) : "l"(flag) : "memory");
  return value;
}

__device__ __forceinline__ void store_release_gpu(int* flag, int value) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;\n" ::"l"(flag), "r"(value) : "memory");
}

__device__ __forceinline__ void add_release_gpu(int* flag, int value) {
  asm volatile("red.release.gpu.global.add.s32 [%0], %1;\n" ::"l"(flag), "r"(value) : "memory");
}

}  // namespace tilesim::kernels::gemm
