#pragma once
// What a kernel graph changes in a GEMM's CTAs: A read from, and C written to,
// tensors other kernels share (so L2 may still hold them), and elementwise
// work fused into the CTA instead of running as separate kernels:
// - prologue: RMSNorm's sum of squares over the A rows the CTA loads anyway
//   (the norm's gain is folded into B, its 1/rms scales the output rows);
// - epilogue: bias, activation, residual add, or SiLU-and-mul (B holds gate
//   and up columns side by side per tile; half as many columns are stored).
// Every schedule honours it; split-K's parallel reduction kernel runs the
// epilogue.

#include <cstdint>
#include <optional>

#include "workloads/graph/tensor_blocks.hpp"

namespace tilesim::workloads {

// Tensors of one GEMM for the L2 model's block keys; kernels of a graph give
// each GEMM its own.
struct GemmTensorIds {
  std::uint32_t a = 0;
  std::uint32_t b = 1;
  std::uint32_t workspace = 2;  // fp32 partial tiles
  std::uint32_t bias = 3;       // a row of n elements, read by the fused epilogue
};

struct GemmFusion {
  GemmTensorIds tensors;
  std::optional<TensorBlocks> a;         // rows m x cols k; unset: the GEMM's own A panels
  std::optional<TensorBlocks> output;    // rows m x cols n / output_column_divisor
  std::optional<TensorBlocks> residual;  // added in the epilogue; shaped like the output
  bool bias = false;
  double prologue_flops_per_a_element = 0;  // fp32
  double epilogue_flops_per_element = 0;    // fp32, per accumulator element
  double epilogue_sfu_ops_per_element = 0;  // exp, reciprocal, ... per accumulator element
  int output_column_divisor = 1;            // 2 for SiLU-and-mul
};

}  // namespace tilesim::workloads
