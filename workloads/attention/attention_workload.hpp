#pragma once
// One attention workload of a study: softmax(Q K^T / sqrt(d)) V for a batch of
// sequences, with grouped-query heads, plus the kernel variant that computes it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hwmodels/data_type.hpp"
#include "hwmodels/diagnostics.hpp"

namespace tilesim::workloads {

struct AttentionShape {
  std::int64_t batch = 1;
  std::int64_t heads = 1;     // query heads
  std::int64_t kv_heads = 1;  // heads of K and V; `heads` is a multiple (GQA)
  std::int64_t q_len = 1;     // queries per sequence (1 for a decode step)
  // Keys per sequence, one entry per sequence of the batch.
  std::vector<std::int64_t> kv_lens;
  std::int64_t head_dim = 128;
  bool causal = false;  // query i sees keys up to kv_len - q_len + i (bottom-right aligned)
  hw::DataType dtype = hw::DataType::bf16;
  std::int64_t page_size = 16;  // tokens per KV-cache page (paged variants)

  std::int64_t group_size() const { return heads / kv_heads; }
  // Keys query `query` of a sequence of `kv_len` keys attends to.
  std::int64_t visible_keys(std::int64_t kv_len, std::int64_t query) const;
  // Q K^T and P V over the visible (query, key) pairs: 4 d per pair and head.
  double useful_flops() const;
  // The K and V bytes of every sequence: the least a decode step must read.
  double kv_cache_bytes() const;
};

struct AttentionWorkload {
  std::string name;
  AttentionShape shape;
  // unfused | flash | flash_decoding | paged_v1 | paged_v2 | stream_k_decode, or
  // `compare` (every variant that applies).
  std::string variant = "flash";
  std::optional<int> splits;       // split-KV decode: KV splits per sequence and head
  std::string kernel = "library";  // hardware kernel profile: tensor-core efficiency
  config::SourceLocation where;    // of the workload's entry
  config::SourceLocation variant_where;
};

}  // namespace tilesim::workloads
