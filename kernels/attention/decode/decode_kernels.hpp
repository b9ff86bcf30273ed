#pragma once
// Internal to kernels/attention/decode: the two kernels the split variants
// (flash_decoding, paged_v1, paged_v2) are made of.

#include <cuda_runtime_api.h>

#include "kernels/attention/attention_problem.hpp"
#include "kernels/attention/decode/decode_plan.hpp"

namespace tilesim::kernels::decode {

// One CTA per (split, KV head, sequence) over a contiguous or paged cache.
// With `partials` null each pair must be one split, and O is written; else
// each CTA writes its partial (decode_partial_bytes(problem, pairs x splits)).
void launch_decode_split(const AttentionProblem& problem, const AttentionTensors& tensors,
                         bool paged, DecodeSplitPlan plan, float* partials, cudaStream_t stream);

// Merges each pair's non-empty splits' partials into O.
void launch_split_kv_combine(const AttentionProblem& problem, const AttentionTensors& tensors,
                             DecodeSplitPlan plan, const float* partials, cudaStream_t stream);

}  // namespace tilesim::kernels::decode
