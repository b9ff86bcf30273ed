#include "workloads/model/model_memory.hpp"

#include <cmath>

namespace tilesim::workloads {

double model_weight_bytes(const ModelWorkload& model) {
  const DecoderLayerShape& s = model.shape;
  const auto q_cols = static_cast<double>(s.heads * s.head_dim);
  const auto kv_cols = static_cast<double>(s.kv_heads * s.head_dim);
  const auto hidden = static_cast<double>(s.hidden);
  const double per_layer = hidden * (q_cols + 2 * kv_cols)  // q, k, v projections
                           + q_cols * hidden                // o projection
                           + 3 * hidden * static_cast<double>(s.intermediate)  // gate, up, down
                           + 2 * hidden;                                       // RMSNorm gains
  const double tables = static_cast<double>(model.vocab) * hidden * (model.tied_embeddings ? 1 : 2);
  return (tables + hidden + s.layers * per_layer) * hw::bytes_per_element(s.dtype);
}

double kv_cache_bytes_per_token(const ModelWorkload& model) {
  const DecoderLayerShape& s = model.shape;
  return 2.0 * s.layers * static_cast<double>(s.kv_heads * s.head_dim) *
         hw::bytes_per_element(s.dtype);
}

std::int64_t max_concurrency(const ModelWorkload& model, std::int64_t context, double hbm_bytes) {
  const double free_bytes = hbm_bytes - model_weight_bytes(model);
  if (free_bytes <= 0) return 0;
  return static_cast<std::int64_t>(
      std::floor(free_bytes / (static_cast<double>(context) * kv_cache_bytes_per_token(model))));
}

}  // namespace tilesim::workloads
