#pragma once
// Internal to kernels/attention/decode: the kernel the split variants
// (flash_decoding, paged_v1, paged_v2) launch, and their workspace.

#include <cuda_runtime_api.h>

#include "kernels/attention/attention_problem.hpp"
#include "kernels/attention/decode/decode_plan.hpp"

namespace tilesim::kernels::decode {

// One CTA per (split, KV head, sequence) over a contiguous or paged cache.
// With `workspace` null each pair must be one split, and O is written; else
// each CTA writes its partial there and the pair's last CTA merges them into O
// (workspace: decode_split_workspace_size).
void launch_decode_split(const AttentionProblem& problem, const AttentionTensors& tensors,
                         bool paged, DecodeSplitPlan plan, void* workspace, cudaStream_t stream);

// The arrival counters (zeroed before the first launch; every launch leaves
// them zero) and the partials of `plan`.
AttentionWorkspaceSize decode_split_workspace_size(const AttentionProblem& problem,
                                                   DecodeSplitPlan plan);

}  // namespace tilesim::kernels::decode
