#pragma once
// Decode kernels pack the queries of one GQA group -- group size x q_len rows
// -- into one CTA tile (FlashAttention-2's "seqlen_q/ngroups swap"), so K and
// V are read once per KV head rather than once per query head.

#include <fmt/format.h>

#include <string>

#include "workloads/attention/attention_workload.hpp"
#include "workloads/attention/flash_tile.hpp"

namespace tilesim::workloads {

// At most this many queries per sequence is a decode step (or a few speculative
// tokens): the KV cache is streamed, not multiplied.
inline constexpr std::int64_t kMaxDecodeQueries = 16;

inline std::int64_t packed_query_rows(const AttentionShape& shape) {
  return shape.group_size() * shape.q_len;
}

// Empty when the packed rows fit the decode tile.
inline std::string packed_rows_problem(const AttentionShape& shape, const FlashTile& tile) {
  if (packed_query_rows(shape) <= tile.query_rows) return {};
  return fmt::format(
      "a decode kernel packs heads/kv_heads x q_len = {} query rows into one {}-row tile; "
      "use q_len <= {} or the flash variant",
      packed_query_rows(shape), tile.query_rows, tile.query_rows / shape.group_size());
}

}  // namespace tilesim::workloads
