#pragma once
// TMA tensor maps of the Hopper flash forward kernel's Q, K and V
// (flash_forward_wgmma_kernel.cuh), passed by value as a __grid_constant__
// parameter. Each tensor is seen as a 2-D row-major matrix: rows = tokens,
// columns = heads x head_dim; a box is `rows` tokens x 64 columns (128 bytes,
// the 128-byte swizzle's width), so a head_dim 128 tile is two boxes. Rows
// past the tensor's end arrive as zeros.

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/attention/attention_problem.hpp"

namespace tilesim::kernels {

struct FlashTensorMaps {
  CUtensorMap q;  // [total_q, heads * head_dim], boxes of block_m rows
  CUtensorMap k;  // [total_kv, kv_heads * head_dim], boxes of block_n rows
  CUtensorMap v;
};

// Returns cudaErrorInvalidValue when the driver refuses a map.
cudaError_t encode_flash_tensor_maps(FlashTensorMaps& maps, const AttentionProblem& problem,
                                     const AttentionTensors& tensors, int block_m, int block_n);

}  // namespace tilesim::kernels
