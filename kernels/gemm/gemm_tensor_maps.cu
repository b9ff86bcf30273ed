// Encoding the wgmma kernels' TMA tensor maps through the driver entry point
// (no link against libcuda; the runtime hands out the driver function).

#include <cudaTypedefs.h>

#include "kernels/gemm/gemm_tensor_maps.hpp"

namespace tilesim::kernels::gemm {
namespace {

constexpr cuuint32_t kSwizzleBytesA = 128;
constexpr cuuint32_t kStoreBoxRows =
    64;  // one consumer warpgroup's rows (gemm_epilogue_tma_store.cuh)

cuuint32_t element_bytes(ElementType type) {
  return type == ElementType::fp32 ? 4 : 2;
}

CUtensorMapDataType data_type(ElementType type) {
  switch (type) {
    case ElementType::bf16:
      return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    case ElementType::fp16:
      return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    case ElementType::fp32:
      return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  }
  return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
}

// A 2-D row-major matrix of rows x cols elements, boxes of box_rows x box_cols.
// In the 128- or 64-byte swizzle (`swizzle_bytes`).
CUresult encode_matrix(PFN_cuTensorMapEncodeTiled_v12000 encode, CUtensorMap& map,
                       const void* matrix, ElementType type, std::int64_t rows, std::int64_t cols,
                       cuuint32_t box_rows, cuuint32_t box_cols, cuuint32_t swizzle_bytes) {
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t row_stride_bytes[1] = {static_cast<cuuint64_t>(cols) * element_bytes(type)};
  const cuuint32_t box[2] = {box_cols, box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  return encode(&map, data_type(type), 2, const_cast<void*>(matrix), dims, row_stride_bytes, box,
                element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                swizzle_bytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B : CU_TENSOR_MAP_SWIZZLE_128B,
                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

cudaError_t find_encode(PFN_cuTensorMapEncodeTiled_v12000& encode) {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found{};
  const cudaError_t status = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function,
                                                              12000, cudaEnableDefault, &found);
  if (status != cudaSuccess) return status;
  if (found != cudaDriverEntryPointSuccess) return cudaErrorNotSupported;
  encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
  return cudaSuccess;
}

}  // namespace

cudaError_t encode_gemm_tensor_maps(GemmTensorMaps& maps, const GemmLaunchConfig& config,
                                    int a_box_rows, int tile_k, int swizzle_bytes_b) {
  PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  if (const cudaError_t status = find_encode(encode); status != cudaSuccess) return status;
  const auto swizzle_b = static_cast<cuuint32_t>(swizzle_bytes_b);
  const cuuint32_t box_n = swizzle_b / element_bytes(config.input_type);
  if (encode_matrix(encode, maps.a, config.a, config.input_type, config.m, config.k,
                    static_cast<cuuint32_t>(a_box_rows), static_cast<cuuint32_t>(tile_k),
                    kSwizzleBytesA) != CUDA_SUCCESS ||
      encode_matrix(encode, maps.b, config.b, config.input_type, config.k, config.n,
                    static_cast<cuuint32_t>(tile_k), box_n, swizzle_b) != CUDA_SUCCESS) {
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

cudaError_t encode_gemm_store_tensor_maps(GemmStoreTensorMaps& maps, const GemmLaunchConfig& config,
                                          int a_box_rows, int tile_k, int swizzle_bytes_b) {
  if (const cudaError_t status =
          encode_gemm_tensor_maps(maps, config, a_box_rows, tile_k, swizzle_bytes_b);
      status != cudaSuccess) {
    return status;
  }
  PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  if (const cudaError_t status = find_encode(encode); status != cudaSuccess) return status;
  const auto swizzle_c = static_cast<cuuint32_t>(swizzle_bytes_b);  // C's boxes: B's swizzle
  const cuuint32_t box_columns = swizzle_c / element_bytes(config.output_type);
  if (encode_matrix(encode, maps.c, config.c, config.output_type, config.m, config.n, kStoreBoxRows,
                    box_columns, swizzle_c) != CUDA_SUCCESS) {
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

}  // namespace tilesim::kernels::gemm
