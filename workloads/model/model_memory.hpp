#pragma once
// What a model holds in HBM: its weights and its KV cache, and how many
// sequences of a context fit beside the weights. Activations, the CUDA
// graph's pools and the framework's workspace are not counted.

#include <cstdint>

#include "workloads/model/model_workload.hpp"

namespace tilesim::workloads {

// Every weight: embedding table, LM head (unless tied), per layer the q, k,
// v, o, gate, up and down matrices and two RMSNorm gains, the final gain.
double model_weight_bytes(const ModelWorkload& model);
// K and V of one token in every layer: 2 x layers x kv_heads x head_dim x element.
double kv_cache_bytes_per_token(const ModelWorkload& model);
// Sequences of `context` tokens whose KV cache fits in `hbm_bytes` beside the
// weights; 0 when the weights alone do not fit.
std::int64_t max_concurrency(const ModelWorkload& model, std::int64_t context, double hbm_bytes);

}  // namespace tilesim::workloads
