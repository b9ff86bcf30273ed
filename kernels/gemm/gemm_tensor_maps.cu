// Encoding the wgmma kernels' TMA tensor maps through the driver entry point
// (no link against libcuda; the runtime hands out the driver function).

#include <cudaTypedefs.h>

#include "kernels/gemm/gemm_tensor_maps.hpp"

namespace tilesim::kernels::gemm {
namespace {

constexpr cuuint32_t kSwizzleBytes = 128;
constexpr cuuint32_t kElementBytes = 2;

// A 2-D row-major matrix of rows x cols 16-bit elements, boxes of box_rows x box_cols.
CUresult encode_matrix(PFN_cuTensorMapEncodeTiled_v12000 encode, CUtensorMap& map,
                       const void* matrix, ElementType type, std::int64_t rows, std::int64_t cols,
                       cuuint32_t box_rows, cuuint32_t box_cols) {
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t row_stride_bytes[1] = {static_cast<cuuint64_t>(cols) * kElementBytes};
  const cuuint32_t box[2] = {box_cols, box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUtensorMapDataType data_type = type == ElementType::fp16
                                            ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                            : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  return encode(&map, data_type, 2, const_cast<void*>(matrix), dims, row_stride_bytes, box,
                element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

}  // namespace

cudaError_t encode_gemm_tensor_maps(GemmTensorMaps& maps, const GemmLaunchConfig& config,
                                    int tile_m, int tile_k) {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found{};
  const cudaError_t status = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function,
                                                              12000, cudaEnableDefault, &found);
  if (status != cudaSuccess) return status;
  if (found != cudaDriverEntryPointSuccess) return cudaErrorNotSupported;
  const auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
  const cuuint32_t box_n = kSwizzleBytes / kElementBytes;
  if (encode_matrix(encode, maps.a, config.a, config.input_type, config.m, config.k,
                    static_cast<cuuint32_t>(tile_m),
                    static_cast<cuuint32_t>(tile_k)) != CUDA_SUCCESS ||
      encode_matrix(encode, maps.b, config.b, config.input_type, config.k, config.n,
                    static_cast<cuuint32_t>(tile_k), box_n) != CUDA_SUCCESS) {
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

}  // namespace tilesim::kernels::gemm
