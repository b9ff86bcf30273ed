#include "workloads/attention/attention_workload.hpp"

#include <algorithm>

namespace tilesim::workloads {

std::int64_t AttentionShape::visible_keys(std::int64_t kv_len, std::int64_t query) const {
  if (!causal) return kv_len;
  return std::clamp<std::int64_t>(kv_len - q_len + query + 1, 0, kv_len);
}

// Causal: only the (query, key) pairs the mask leaves visible.
double AttentionShape::useful_flops() const {
  double pairs = 0;
  for (const std::int64_t kv_len : kv_lens) {
    const auto q = static_cast<double>(q_len);
    const auto k = static_cast<double>(kv_len);
    pairs += causal && q_len <= kv_len ? q * (k - q + 1) + q * (q - 1) / 2 : q * k;
  }
  return 4.0 * pairs * double(heads) * double(head_dim);
}

double AttentionShape::kv_cache_bytes() const {
  double tokens = 0;
  for (const std::int64_t kv_len : kv_lens) tokens += double(kv_len);
  return 2.0 * tokens * double(kv_heads) * double(head_dim) * hw::bytes_per_element(dtype);
}

}  // namespace tilesim::workloads
