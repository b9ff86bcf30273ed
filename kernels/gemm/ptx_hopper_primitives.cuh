#pragma once
// Thin wrappers over the Hopper (sm_90a) instructions of the wgmma main loop:
// mbarriers (arrival counts plus transaction bytes), the bulk tensor copy
// (TMA: global -> shared through a tensor map, completing on an mbarrier, and
// shared -> global in bulk groups for the tma_store variant's epilogue),
// shared-memory matrix descriptors, warpgroup MMA (wgmma.mma_async) and
// per-warpgroup register budgets (setmaxnreg). Only compiled for sm_90a
// (TILESIM_SM90A below); callers guard their use with the same macro.

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TILESIM_SM90A 1
#endif

namespace tilesim::kernels::gemm::sm90 {

#if defined(TILESIM_SM90A)

__device__ __forceinline__ void mbarrier_init(std::uint32_t barrier, int arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(barrier), "r"(arrivals));
}

// Makes mbarrier.init visible to the async proxy (the copy engine) and to other threads.
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

__device__ __forceinline__ void mbarrier_arrive(std::uint32_t barrier) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(barrier) : "memory");
}

// One arrival, and `bytes` more transaction bytes that the phase waits for.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(std::uint32_t barrier,
                                                          std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(barrier), "r"(bytes)
               : "memory");
}

// Blocks until the phase with parity `parity` has completed.
__device__ __forceinline__ void mbarrier_wait(std::uint32_t barrier, std::uint32_t parity) {
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "wait_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra wait_%=;\n"
      "}\n" ::"r"(barrier),
      "r"(parity)
      : "memory");
}

// Box (x, y) of a 2-D tensor map into shared memory at `dst`, counted on `barrier`.
// Elements outside the tensor arrive as zeros (and still count as bytes).
__device__ __forceinline__ void tma_load_2d(std::uint32_t dst, const CUtensorMap* map, int x, int y,
                                            std::uint32_t barrier) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
      "[%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(barrier)
      : "memory");
}

// Box (x, y) of a 2-D tensor map from shared memory at `src` (the C store of
// the tma_store variant); parts of the box past the tensor's edges are not
// written. Completes in this thread's bulk group (bulk_commit_group).
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, std::uint32_t src, int x,
                                             int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(
          reinterpret_cast<std::uint64_t>(map)),
      "r"(src), "r"(x), "r"(y)
      : "memory");
}

// The multicast form for 2-CTA clusters: the box lands at `dst` in the shared
// memory of every CTA in `cta_mask` (bit r: cluster rank r) and counts its bytes
// on the mbarrier at `barrier` in each of them (same CTA-relative addresses).
__device__ __forceinline__ void tma_load_2d_multicast(std::uint32_t dst, const CUtensorMap* map,
                                                      int x, int y, std::uint32_t barrier,
                                                      std::uint16_t cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(barrier), "h"(cta_mask)
      : "memory");
}

// This CTA's rank in its cluster.
__device__ __forceinline__ std::uint32_t cluster_cta_rank() {
  std::uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
  return rank;
}

// One arrival on the mbarrier at CTA-relative address `barrier` of cluster rank `cta`.
// The default semantics (release at CTA scope), as CUTLASS's consumer release:
// the stage's readers are wgmma groups already waited for, and a cluster-scope
// release compiles to a GPU-wide fence (MEMBAR.ALL.GPU) before every arrival,
// which made the first 2-CTA kernel 1.6-2.3x slower than the 1-CTA one.
__device__ __forceinline__ void mbarrier_arrive_cluster(std::uint32_t barrier, std::uint32_t cta) {
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
      "}\n" ::"r"(barrier),
      "r"(cta)
      : "memory");
}

// Every thread of every CTA in the cluster meets here (also orders their
// shared-memory writes, the barrier inits included, before the others' reads).
__device__ __forceinline__ void cluster_sync() {
  asm volatile(
      "barrier.cluster.arrive.release;\n"
      "barrier.cluster.wait.acquire;\n" ::
          : "memory");
}

__device__ __forceinline__ void bulk_commit_group() {
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}

// Waits until this thread's committed bulk stores have read their shared memory.
__device__ __forceinline__ void bulk_wait_group_read_all() {
  asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
}

// Waits until this thread's committed bulk stores have completed (written global memory).
__device__ __forceinline__ void bulk_wait_group_all() {
  asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
}

// Orders this thread's ordinary shared-memory writes before the copy engine's reads of them.
__device__ __forceinline__ void fence_proxy_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

__device__ __forceinline__ void prefetch_tensor_map(const CUtensorMap* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<std::uint64_t>(map)) : "memory");
}

// A barrier for the `threads` threads (whole warps) that name barrier `id` (0 is __syncthreads).
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

template <int kRegisters>
__device__ __forceinline__ void raise_register_budget() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
}

template <int kRegisters>
__device__ __forceinline__ void lower_register_budget() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
}

// Shared-memory matrix descriptor with the 128-byte swizzle: start address,
// leading- and stride-dimension byte offsets (all in 16-byte units). The
// operand's 8-row groups must start on 1024-byte boundaries (base offset 0).
__device__ __forceinline__ std::uint64_t matrix_descriptor_128b_swizzle(
    std::uint32_t address, std::uint32_t leading_bytes, std::uint32_t stride_bytes) {
  constexpr std::uint64_t kSwizzle128B = 1;
  return static_cast<std::uint64_t>((address & 0x3FFFF) >> 4) |
         (static_cast<std::uint64_t>(leading_bytes >> 4) << 16) |
         (static_cast<std::uint64_t>(stride_bytes >> 4) << 32) | (kSwizzle128B << 62);
}

// The same with the 64-byte swizzle (8-row groups of 64-byte rows, 512-byte aligned).
__device__ __forceinline__ std::uint64_t matrix_descriptor_64b_swizzle(std::uint32_t address,
                                                                       std::uint32_t leading_bytes,
                                                                       std::uint32_t stride_bytes) {
  constexpr std::uint64_t kSwizzle64B = 2;
  return static_cast<std::uint64_t>((address & 0x3FFFF) >> 4) |
         (static_cast<std::uint64_t>(leading_bytes >> 4) << 16) |
         (static_cast<std::uint64_t>(stride_bytes >> 4) << 32) | (kSwizzle64B << 62);
}

// Orders this thread's earlier register accesses before the next wgmma reads them.
__device__ __forceinline__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

__device__ __forceinline__ void wgmma_commit_group() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

// Waits until at most `kPending` committed wgmma groups of this warpgroup are in flight.
template <int kPending>
__device__ __forceinline__ void wgmma_wait_group() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}

// Keeps the compiler from moving accumulator reads or writes across a wgmma
// that is still in flight (they are registers it does not know are busy).
__device__ __forceinline__ void fence_accumulator(float& value) {
  asm volatile("" : "+f"(value)::"memory");
}

// One m16n8 accumulator fragment's four floats as in-out asm operands.
#define TILESIM_WGMMA_FRAGMENT(d, j) "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
// The 12 fragments of a 64x96 accumulator, the 24 of a 64x192 one, and the 32 of a 64x256 one.
#define TILESIM_WGMMA_N96_ACCUMULATORS(d)                                                       \
  TILESIM_WGMMA_FRAGMENT(d, 0), TILESIM_WGMMA_FRAGMENT(d, 1), TILESIM_WGMMA_FRAGMENT(d, 2),     \
      TILESIM_WGMMA_FRAGMENT(d, 3), TILESIM_WGMMA_FRAGMENT(d, 4), TILESIM_WGMMA_FRAGMENT(d, 5), \
      TILESIM_WGMMA_FRAGMENT(d, 6), TILESIM_WGMMA_FRAGMENT(d, 7), TILESIM_WGMMA_FRAGMENT(d, 8), \
      TILESIM_WGMMA_FRAGMENT(d, 9), TILESIM_WGMMA_FRAGMENT(d, 10), TILESIM_WGMMA_FRAGMENT(d, 11)
#define TILESIM_WGMMA_N192_ACCUMULATORS(d)                                                         \
  TILESIM_WGMMA_N96_ACCUMULATORS(d), TILESIM_WGMMA_FRAGMENT(d, 12), TILESIM_WGMMA_FRAGMENT(d, 13), \
      TILESIM_WGMMA_FRAGMENT(d, 14), TILESIM_WGMMA_FRAGMENT(d, 15), TILESIM_WGMMA_FRAGMENT(d, 16), \
      TILESIM_WGMMA_FRAGMENT(d, 17), TILESIM_WGMMA_FRAGMENT(d, 18), TILESIM_WGMMA_FRAGMENT(d, 19), \
      TILESIM_WGMMA_FRAGMENT(d, 20), TILESIM_WGMMA_FRAGMENT(d, 21), TILESIM_WGMMA_FRAGMENT(d, 22), \
      TILESIM_WGMMA_FRAGMENT(d, 23)
#define TILESIM_WGMMA_N256_ACCUMULATORS(d)                                                         \
  TILESIM_WGMMA_N192_ACCUMULATORS(d), TILESIM_WGMMA_FRAGMENT(d, 24),                               \
      TILESIM_WGMMA_FRAGMENT(d, 25), TILESIM_WGMMA_FRAGMENT(d, 26), TILESIM_WGMMA_FRAGMENT(d, 27), \
      TILESIM_WGMMA_FRAGMENT(d, 28), TILESIM_WGMMA_FRAGMENT(d, 29), TILESIM_WGMMA_FRAGMENT(d, 30), \
      TILESIM_WGMMA_FRAGMENT(d, 31)

// The accumulator operands' names in the asm: "%0, ..., %47" (n = 96),
// "%0, ..., %95" (n = 192), then "%96, ..., %127" (n = 256).
#define TILESIM_WGMMA_D0_47                                                                    \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, " \
  "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, " \
  "%38, %39, %40, %41, %42, %43, %44, %45, %46, %47"
#define TILESIM_WGMMA_D0_95                                                                      \
  TILESIM_WGMMA_D0_47                                                                            \
  ", %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, " \
  "%66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, "   \
  "%84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
#define TILESIM_WGMMA_D96_127                                                                    \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"

// wgmma m64nNk16 for operand type `ab` ("bf16" or "f16"): D accumulates
// (predicate operand `pred` true); A and B scaled by 1; A K-major (0), B
// N-major (1). `d_names` are the accumulators' operand names, `a_b` the two
// descriptors', `accumulators` the in-out operands.
#define TILESIM_WGMMA_M64K16(n, ab, d_names, a_b, pred, accumulators)                   \
  asm volatile(                                                                         \
      "{\n"                                                                             \
      ".reg .pred accumulate;\n"                                                        \
      "setp.ne.b32 accumulate, " pred                                                   \
      ", 0;\n"                                                                          \
      "wgmma.mma_async.sync.aligned.m64n" n "k16.f32." ab "." ab " {" d_names "}, " a_b \
      ", accumulate, 1, 1, 0, 1;\n"                                                     \
      "}\n"                                                                             \
      : accumulators                                                                    \
      : "l"(a_descriptor), "l"(b_descriptor), "r"(1))
#define TILESIM_WGMMA_M64N256K16(ab)                                                            \
  TILESIM_WGMMA_M64K16("256", ab, TILESIM_WGMMA_D0_95 ", " TILESIM_WGMMA_D96_127, "%128, %129", \
                       "%130", TILESIM_WGMMA_N256_ACCUMULATORS(d))
#define TILESIM_WGMMA_M64N192K16(ab)                                      \
  TILESIM_WGMMA_M64K16("192", ab, TILESIM_WGMMA_D0_95, "%96, %97", "%98", \
                       TILESIM_WGMMA_N192_ACCUMULATORS(d))
#define TILESIM_WGMMA_M64N96K16(ab)                                      \
  TILESIM_WGMMA_M64K16("96", ab, TILESIM_WGMMA_D0_47, "%48, %49", "%50", \
                       TILESIM_WGMMA_N96_ACCUMULATORS(d))

// D(64xN, fp32, this thread's N/2 floats in mma.sync m16n8 order: d[n8][4])
// += A(64x16, K-major in shared memory) * B(16xN, N-major in shared memory),
// N = 256, 192 or 96.
template <typename Element>
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[32][4], std::uint64_t a_descriptor,
                                                 std::uint64_t b_descriptor);
template <typename Element>
__device__ __forceinline__ void wgmma_m64n192k16(float (&d)[24][4], std::uint64_t a_descriptor,
                                                 std::uint64_t b_descriptor);
template <typename Element>
__device__ __forceinline__ void wgmma_m64n96k16(float (&d)[12][4], std::uint64_t a_descriptor,
                                                std::uint64_t b_descriptor);

// The specializations for both operand types and both widths.
#define TILESIM_WGMMA_SPECIALIZATION(n, fragments, Element, ab)                          \
  template <>                                                                            \
  __device__ __forceinline__ void wgmma_m64n##n##k16<Element>(                           \
      float(&d)[fragments][4], std::uint64_t a_descriptor, std::uint64_t b_descriptor) { \
    TILESIM_WGMMA_M64N##n##K16(ab);                                                      \
  }
TILESIM_WGMMA_SPECIALIZATION(256, 32, __nv_bfloat16, "bf16")
TILESIM_WGMMA_SPECIALIZATION(256, 32, __half, "f16")
TILESIM_WGMMA_SPECIALIZATION(192, 24, __nv_bfloat16, "bf16")
TILESIM_WGMMA_SPECIALIZATION(192, 24, __half, "f16")
TILESIM_WGMMA_SPECIALIZATION(96, 12, __nv_bfloat16, "bf16")
TILESIM_WGMMA_SPECIALIZATION(96, 12, __half, "f16")

#undef TILESIM_WGMMA_SPECIALIZATION
#undef TILESIM_WGMMA_M64N256K16
#undef TILESIM_WGMMA_M64N192K16
#undef TILESIM_WGMMA_M64N96K16
#undef TILESIM_WGMMA_N96_ACCUMULATORS
#undef TILESIM_WGMMA_N192_ACCUMULATORS
#undef TILESIM_WGMMA_N256_ACCUMULATORS
#undef TILESIM_WGMMA_FRAGMENT
#undef TILESIM_WGMMA_M64K16
#undef TILESIM_WGMMA_D0_47
#undef TILESIM_WGMMA_D0_95
#undef TILESIM_WGMMA_D96_127

#endif  // TILESIM_SM90A

}  // namespace tilesim::kernels::gemm::sm90
