#pragma once
// Block-key tensor ids of an attention workload's arrays, for the L2 model:
// one id per (array, matrix), where a matrix is a (sequence, head) pair -- or a
// (sequence, KV head) pair for K and V, so query heads of one GQA group that
// read the same K/V block hit in L2. Ids start above the GEMM's own (0-2).

#include <cstdint>

namespace tilesim::workloads {

enum class AttentionArray : std::uint32_t {
  query = 1,
  key,
  value,
  scores,         // S = Q K^T of the unfused variant
  probabilities,  // P = softmax(S) of the unfused variant
  partial,        // split-KV partial outputs and log-sum-exps (fp32 workspace)
  page_table,     // paged variants: page numbers of each sequence
  masked_scores,  // the eager path's bool tensor: which scores are -inf
};

inline constexpr int kMatrixIndexBits = 24;

inline std::uint32_t attention_tensor_id(AttentionArray array, std::int64_t matrix) {
  return (static_cast<std::uint32_t>(array) << kMatrixIndexBits) |
         static_cast<std::uint32_t>(matrix);
}

}  // namespace tilesim::workloads
