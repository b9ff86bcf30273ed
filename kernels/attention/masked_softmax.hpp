#pragma once
// The softmax step of the unfused attention path: P = softmax(S) row by row,
// causal mask applied, S and P in the input type in HBM (a framework's math path).

#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/gemm/gemm_launch.hpp"  // ElementType

namespace tilesim::kernels {

// S and P of one sequence: [heads * q_len rows][kv_len], row r = head * q_len + query.
// The scores are already scaled. Causal (bottom-right aligned): query i keeps
// keys 0 .. kv_len - q_len + i, P is 0 beyond. Reads S twice (the second pass
// mostly from L2), writes P once.
struct MaskedSoftmaxRows {
  const void* s = nullptr;
  void* p = nullptr;
  std::int64_t rows = 0;
  int q_len = 1;
  int kv_len = 1;
  bool causal = false;
  ElementType dtype = ElementType::bf16;
};

void launch_masked_softmax(const MaskedSoftmaxRows& rows, cudaStream_t stream);

}  // namespace tilesim::kernels
