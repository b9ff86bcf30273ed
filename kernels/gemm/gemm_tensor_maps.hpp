#pragma once
// TMA tensor maps of a GEMM's A and B (and C) for the wgmma kernels
// (gemm_kernel_wgmma.cuh), passed to the kernel by value as a
// __grid_constant__ parameter. Boxes are one k-block deep and use the
// 128-byte swizzle that the wgmma descriptors read; elements past the matrix
// edges arrive as zeros.

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/gemm/gemm_launch.hpp"

namespace tilesim::kernels::gemm {

struct GemmTensorMaps {
  CUtensorMap a;  // m x k row-major, boxes of a_box_rows x tile_k columns
  CUtensorMap b;  // k x n row-major, boxes of tile_k rows x 128 bytes (or 64: swizzle_bytes_b)
};

// The tma_store variant's maps: A and B as above, and C (m x n row-major, of
// the output type), boxes of 64 rows x 128 bytes in the 128-byte swizzle.
struct GemmStoreTensorMaps : GemmTensorMaps {
  CUtensorMap c;
};

// Rows must be 16-byte aligned (k % 8 == 0, n % 8 == 0) and A, B 16-byte aligned.
// A's boxes are the rows one CTA loads (its tile's, or its share of them in a
// cluster along n); B's are `swizzle_bytes_b` wide (128, or 64 in the 64-byte
// swizzle). Returns cudaErrorInvalidValue when the driver refuses a map.
cudaError_t encode_gemm_tensor_maps(GemmTensorMaps& maps, const GemmLaunchConfig& config,
                                    int a_box_rows, int tile_k, int swizzle_bytes_b);
// The same, and C's map (C 16-byte aligned; its rows are, since n % 8 == 0),
// its boxes in B's swizzle.
cudaError_t encode_gemm_store_tensor_maps(GemmStoreTensorMaps& maps, const GemmLaunchConfig& config,
                                          int a_box_rows, int tile_k, int swizzle_bytes_b);

}  // namespace tilesim::kernels::gemm
