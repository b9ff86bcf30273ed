#pragma once
// One launcher and one workspace size per reference attention variant, each
// defined in its own file under kernels/attention/; `launch_attention` and
// `attention_workspace_size` (attention_launch.cu) dispatch to them.
// Launchers enqueue every kernel of the variant on `stream` and return how many.
// `*_problem_error` says why the variant cannot run a problem that passed
// attention_problem_error (nothing when it can); launchers throw
// std::invalid_argument with that text.

#include <cuda_runtime_api.h>

#include <optional>
#include <string>

#include "kernels/attention/attention_problem.hpp"

namespace tilesim::kernels {

// unfused_attention.cu
std::optional<std::string> unfused_problem_error(const AttentionProblem& problem);
AttentionWorkspaceSize unfused_workspace_size(const AttentionProblem& problem);
int launch_unfused(const AttentionProblem& problem, const AttentionTensors& tensors,
                   void* workspace, cudaStream_t stream);

// flash_forward_mma_sync.cu
std::optional<std::string> flash_problem_error(const AttentionProblem& problem);
AttentionWorkspaceSize flash_workspace_size(const AttentionProblem& problem);
int launch_flash(const AttentionProblem& problem, const AttentionTensors& tensors, void* workspace,
                 cudaStream_t stream);

// flash_forward_wgmma.cu
std::optional<std::string> flash_wgmma_problem_error(const AttentionProblem& problem);
AttentionWorkspaceSize flash_wgmma_workspace_size(const AttentionProblem& problem);
int launch_flash_wgmma(const AttentionProblem& problem, const AttentionTensors& tensors,
                       void* workspace, cudaStream_t stream);

// decode/flash_decoding.cu
std::optional<std::string> flash_decoding_problem_error(const AttentionProblem& problem);
AttentionWorkspaceSize flash_decoding_workspace_size(const AttentionProblem& problem);
int launch_flash_decoding(const AttentionProblem& problem, const AttentionTensors& tensors,
                          void* workspace, cudaStream_t stream);

// decode/paged_attention_v1.cu
std::optional<std::string> paged_v1_problem_error(const AttentionProblem& problem);
AttentionWorkspaceSize paged_v1_workspace_size(const AttentionProblem& problem);
int launch_paged_v1(const AttentionProblem& problem, const AttentionTensors& tensors,
                    void* workspace, cudaStream_t stream);

// decode/paged_attention_v2.cu
std::optional<std::string> paged_v2_problem_error(const AttentionProblem& problem);
AttentionWorkspaceSize paged_v2_workspace_size(const AttentionProblem& problem);
int launch_paged_v2(const AttentionProblem& problem, const AttentionTensors& tensors,
                    void* workspace, cudaStream_t stream);

// decode/stream_k_decode.cu
std::optional<std::string> stream_k_decode_problem_error(const AttentionProblem& problem);
AttentionWorkspaceSize stream_k_decode_workspace_size(const AttentionProblem& problem);
int launch_stream_k_decode(const AttentionProblem& problem, const AttentionTensors& tensors,
                           void* workspace, cudaStream_t stream);

}  // namespace tilesim::kernels
