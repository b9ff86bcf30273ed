#pragma once
// One launcher and one workspace size per reference attention variant, each
// defined in its own file under kernels/attention/; `launch_attention` and
// `attention_workspace_size` (attention_launch.cu) dispatch to them.
// Launchers enqueue every kernel of the variant on `stream` and return how many.

#include <cuda_runtime_api.h>

#include "kernels/attention/attention_problem.hpp"

namespace tilesim::kernels {

// unfused_attention.cu
AttentionWorkspaceSize unfused_workspace_size(const AttentionProblem& problem);
int launch_unfused(const AttentionProblem& problem, const AttentionTensors& tensors,
                   void* workspace, cudaStream_t stream);

// flash_forward_mma_sync.cu
AttentionWorkspaceSize flash_workspace_size(const AttentionProblem& problem);
int launch_flash(const AttentionProblem& problem, const AttentionTensors& tensors, void* workspace,
                 cudaStream_t stream);

// decode/flash_decoding.cu
AttentionWorkspaceSize flash_decoding_workspace_size(const AttentionProblem& problem);
int launch_flash_decoding(const AttentionProblem& problem, const AttentionTensors& tensors,
                          void* workspace, cudaStream_t stream);

// decode/paged_attention_v1.cu
AttentionWorkspaceSize paged_v1_workspace_size(const AttentionProblem& problem);
int launch_paged_v1(const AttentionProblem& problem, const AttentionTensors& tensors,
                    void* workspace, cudaStream_t stream);

// decode/paged_attention_v2.cu
AttentionWorkspaceSize paged_v2_workspace_size(const AttentionProblem& problem);
int launch_paged_v2(const AttentionProblem& problem, const AttentionTensors& tensors,
                    void* workspace, cudaStream_t stream);

// decode/stream_k_decode.cu
AttentionWorkspaceSize stream_k_decode_workspace_size(const AttentionProblem& problem);
int launch_stream_k_decode(const AttentionProblem& problem, const AttentionTensors& tensors,
                           void* workspace, cudaStream_t stream);

}  // namespace tilesim::kernels
