// Encoding the Hopper flash kernel's tensor maps through the driver entry
// point (no link against libcuda; the runtime hands out the driver function).

#include <cudaTypedefs.h>

#include "kernels/attention/flash_wgmma_tensor_maps.hpp"

namespace tilesim::kernels {
namespace {

constexpr cuuint32_t kBoxColumns = 64;  // 128 bytes of 16-bit elements: the swizzle's width
constexpr cuuint64_t kElementBytes = 2;

CUresult encode_rows(PFN_cuTensorMapEncodeTiled_v12000 encode, CUtensorMap& map, const void* tensor,
                     ElementType type, std::int64_t rows, std::int64_t columns, int box_rows) {
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(columns), static_cast<cuuint64_t>(rows)};
  const cuuint64_t row_stride_bytes[1] = {static_cast<cuuint64_t>(columns) * kElementBytes};
  const cuuint32_t box[2] = {kBoxColumns, static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUtensorMapDataType data_type = type == ElementType::fp16
                                            ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                            : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  return encode(&map, data_type, 2, const_cast<void*>(tensor), dims, row_stride_bytes, box,
                element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

}  // namespace

cudaError_t encode_flash_tensor_maps(FlashTensorMaps& maps, const AttentionProblem& problem,
                                     const AttentionTensors& tensors, int block_m, int block_n) {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found{};
  const cudaError_t status = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function,
                                                              12000, cudaEnableDefault, &found);
  if (status != cudaSuccess) return status;
  if (found != cudaDriverEntryPointSuccess) return cudaErrorNotSupported;
  const auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
  const std::int64_t q_columns = std::int64_t{problem.heads} * problem.head_dim;
  const std::int64_t kv_columns = std::int64_t{problem.kv_heads} * problem.head_dim;
  if (encode_rows(encode, maps.q, tensors.q, problem.dtype, problem.total_q(), q_columns,
                  block_m) != CUDA_SUCCESS ||
      encode_rows(encode, maps.k, tensors.k, problem.dtype, problem.total_kv(), kv_columns,
                  block_n) != CUDA_SUCCESS ||
      encode_rows(encode, maps.v, tensors.v, problem.dtype, problem.total_kv(), kv_columns,
                  block_n) != CUDA_SUCCESS) {
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

}  // namespace tilesim::kernels
