// The flash_wgmma variant's launcher (variant `flash` with `kernel:
// tilesim_ref_wgmma`): tensor maps of Q, K, V, then one FA3-class kernel
// launch (flash_forward_wgmma_kernel.cuh), no workspace. sm_90 devices only.

#include <stdexcept>

#include "kernels/attention/attention_variants.hpp"
#include "kernels/attention/flash_forward_wgmma_kernel.cuh"

namespace tilesim::kernels {

FlashForwardTile flash_forward_wgmma_tile(int head_dim) {
  const auto tile = [](auto traits) {
    using T = decltype(traits);
    return FlashForwardTile{T::kBlockM, T::kBlockN, T::kThreads / 32, T::kStages, T::kSharedBytes};
  };
  return head_dim == 64 ? tile(flash::WgmmaFlashTraits<64>{})
                        : tile(flash::WgmmaFlashTraits<128>{});
}

std::optional<std::string> flash_wgmma_problem_error(const AttentionProblem& problem) {
  (void)problem;  // attention_problem_error's domain is the kernel's
  return std::nullopt;
}

AttentionWorkspaceSize flash_wgmma_workspace_size(const AttentionProblem&) {
  return {};
}

int launch_flash_wgmma(const AttentionProblem& problem, const AttentionTensors& tensors, void*,
                       cudaStream_t stream) {
  if (const auto error = flash_wgmma_problem_error(problem)) throw std::invalid_argument(*error);
  int device = 0;
  int major = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device),
             "cudaDeviceGetAttribute");
  if (major != 9) {
    throw std::invalid_argument("flash_wgmma needs an sm_90 (Hopper) GPU: TMA and wgmma");
  }
  const FlashForwardTile tile = flash_forward_wgmma_tile(problem.head_dim);
  FlashTensorMaps maps{};
  check_cuda(encode_flash_tensor_maps(maps, problem, tensors, tile.block_m, tile.block_n),
             "encode_flash_tensor_maps");
  const FlashForwardParams params = make_flash_forward_params(problem, tensors);
  if (problem.head_dim == 64) {
    launch_flash_forward_wgmma<64>(params, maps, problem.dtype, stream);
  } else {
    launch_flash_forward_wgmma<128>(params, maps, problem.dtype, stream);
  }
  return 1;
}

}  // namespace tilesim::kernels
