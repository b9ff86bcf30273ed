#pragma once
// What the flash forward kernels take, and their per-head-size launchers:
// FA2-class mma.sync (flash_forward_hdim{64,128}.cu, dispatched by
// flash_forward_mma_sync.cu) and FA3-class wgmma (flash_forward_wgmma_hdim{64,128}.cu,
// dispatched by flash_forward_wgmma.cu).

#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/attention/attention_problem.hpp"
#include "kernels/attention/flash_wgmma_tensor_maps.hpp"
#include "kernels/gemm/gemm_launch.hpp"  // ElementType

namespace tilesim::kernels {

struct FlashForwardParams {
  const void* q = nullptr;  // [total_q, heads, head_dim]
  const void* k = nullptr;  // [total_kv, kv_heads, head_dim]
  const void* v = nullptr;
  void* o = nullptr;
  const std::int64_t* kv_starts = nullptr;  // [batch]
  const std::int32_t* kv_lens = nullptr;    // [batch]
  int batch = 1;
  int q_len = 1;
  int heads = 1;
  int kv_heads = 1;
  bool causal = false;
  float scale_log2 = 0;  // log2(e) / sqrt(head_dim): softmax in base 2
};

// The kernel arguments of one launch (scale log2(e) / sqrt(head_dim)).
FlashForwardParams make_flash_forward_params(const AttentionProblem& problem,
                                             const AttentionTensors& tensors);

// The tile the kernel runs for a head size (FlashAttention-2's forward traits).
struct FlashForwardTile {
  int block_m = 128;  // queries per CTA
  int block_n = 32;   // keys per K/V block
  int warps = 4;      // mma.sync: 32 query rows each; wgmma: 8 consumers + 4 producer
  int stages = 3;     // K/V blocks in shared memory at once
  int shared_bytes = 0;
};
FlashForwardTile flash_forward_tile(int head_dim);
FlashForwardTile flash_forward_wgmma_tile(int head_dim);

template <int kHeadDim>
void launch_flash_forward(const FlashForwardParams& params, ElementType dtype, cudaStream_t stream);

template <int kHeadDim>
void launch_flash_forward_wgmma(const FlashForwardParams& params, const FlashTensorMaps& maps,
                                ElementType dtype, cudaStream_t stream);

}  // namespace tilesim::kernels
