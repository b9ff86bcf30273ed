#pragma once
// How the rows of a GEMM's operands sit in memory: cp.async and TMA copy
// 16-byte chunks, so rows that do not start on 16 bytes take another main loop
// (our mma.sync kernel's register gather) or another kernel (a library's
// narrow-load fallback).

#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::workloads {

// The bytes every row of A (k elements) and of B (n elements) starts on: the
// largest of 16, 8, 4, 2 and 1 that both rows' lengths are a multiple of.
double row_alignment_bytes(const GemmProblem& problem);

inline bool rows_16_byte_aligned(const GemmProblem& problem) {
  return row_alignment_bytes(problem) >= 16;
}

}  // namespace tilesim::workloads
