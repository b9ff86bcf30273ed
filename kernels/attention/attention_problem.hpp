#pragma once
// Host API shared by every reference attention kernel: the problem (one
// workload of a study), the tensors' memory layouts, and the variants. Each
// variant's launcher lives in its own file; `launch_attention` dispatches.
//
// Layouts (all row-major, 16-bit elements, `dtype`):
//   Q, O      [total_q, heads, head_dim]      total_q = sum over sequences of q_len
//   K, V      contiguous variants: [total_kv, kv_heads, head_dim], sequences packed
//             back to back in batch order (`kv_starts` gives each one's first row, on
//             the device in AttentionTensors, on the host from problem.kv_starts())
//             paged variants: [pages, page_size, kv_heads, head_dim]; sequence b's
//             token t sits in page block_table[b * max_pages + t / page_size] at
//             slot t % page_size; unused slots and pages hold NaN (must not leak);
//             max_pages (the table's row length) is the longest sequence's pages
//             rounded up to kBlockTableAlign entries
// Query i of a sequence with kv_len keys sees keys 0 .. kv_len - q_len + i when
// causal (bottom-right aligned, as FlashAttention and vLLM), every key otherwise.
// Softmax scale: 1 / sqrt(head_dim). Accumulation in fp32.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/gemm/gemm_launch.hpp"  // ElementType

namespace tilesim::kernels {

// A block table row's length is a multiple of this many entries (16 bytes),
// so the paged decode kernels read a 64-key block's 4 pages of 16 keys (or 2
// of 32) with one aligned vector load (decode/kv_cache_rows.cuh).
inline constexpr int kBlockTableAlign = 4;

// The reference kernels, by the study YAML's `variant:` they implement
// (flash_wgmma implements `flash` with `kernel: tilesim_ref_wgmma`).
enum class AttentionVariant {
  unfused,          // S = Q K^T (tensor cores) -> HBM; softmax kernel -> P in HBM; O = P V
  flash,            // FA2-class: query-block CTAs, online softmax, mma.sync, cp.async
  flash_wgmma,      // FA3-class flash: TMA, wgmma, warp-specialized, softmax under the GEMMs
  flash_decoding,   // split-KV: (sequence, kv head, split) CTAs + log-sum-exp combine kernel
  paged_v1,         // paged KV cache, one CTA per (sequence, kv head), no split
  paged_v2,         // paged KV cache, fixed-size partitions + reduce kernel
  stream_k_decode,  // persistent grid; the batch's KV blocks split evenly; partial-softmax fixup
};
std::optional<AttentionVariant> parse_attention_variant(std::string_view name);
std::string_view to_string(AttentionVariant variant);
// The study's `variant:` and `kernel:` a reference kernel is measured as
// (flash_wgmma: `flash`, `tilesim_ref_wgmma`; the others: their name, `tilesim_ref`).
std::string_view study_variant(AttentionVariant variant);
std::string_view kernel_profile(AttentionVariant variant);

struct AttentionProblem {
  int batch = 1;
  int heads = 1;             // query heads
  int kv_heads = 1;          // heads % kv_heads == 0 (GQA; kv_heads == 1 is MQA)
  int q_len = 1;             // queries per sequence (1: a decode step)
  std::vector<int> kv_lens;  // keys per sequence, batch entries
  int head_dim = 128;        // 64 or 128
  bool causal = false;
  ElementType dtype = ElementType::bf16;  // bf16 or fp16
  int page_size = 16;                     // paged variants: tokens per page (16, 32, 64, 128)
  int splits = 0;  // flash_decoding / paged_v2: splits per sequence (0: the kernel picks)

  int group_size() const { return heads / kv_heads; }
  std::int64_t total_q() const { return std::int64_t{batch} * q_len; }
  std::int64_t total_kv() const;
  std::vector<std::int64_t> kv_starts() const;  // first K/V row of each sequence
  int max_pages_per_sequence() const;           // block_table row length (padded)
  int max_kv_len() const;
  // 4 * head_dim per visible (query, key) pair and query head (the CSV's `tflops`).
  double useful_flops() const;
  // Q, K and V read once, O written once (the CSV's `gbps`).
  double min_bytes() const;
};

// Why no reference kernel can run `problem` (nothing when the shape is in every
// kernel's domain): bf16/fp16, head_dim 64 or 128, heads a multiple of kv_heads,
// one kv_len >= 1 per sequence, q_len <= kv_len when causal, page_size 16/32/64/128.
// Variants may refuse more in their launchers (std::invalid_argument).
std::optional<std::string> attention_problem_error(const AttentionProblem& problem);
std::string to_string(const AttentionProblem& problem);  // one line, for logs

// Device pointers of one launch; the caller owns the memory.
struct AttentionTensors {
  const void* q = nullptr;
  const void* k = nullptr;  // contiguous or paged, per the variant
  const void* v = nullptr;
  void* o = nullptr;
  const std::int64_t* kv_starts = nullptr;    // [batch], contiguous variants
  const std::int32_t* kv_lens = nullptr;      // [batch]
  const std::int32_t* block_table = nullptr;  // [batch, max_pages], paged variants
};

// Scratch a variant needs beyond its inputs and output (S and P of the unfused
// path, split partials and their log-sum-exp, Stream-K flags), sized per problem.
struct AttentionWorkspaceSize {
  std::size_t bytes = 0;
  // Leading part that must be zero before the first launch; every launch leaves it zero.
  std::size_t zeroed_bytes = 0;
  int splits = 0;  // KV splits per sequence the launch uses (0: the variant does not split)
};
AttentionWorkspaceSize attention_workspace_size(AttentionVariant variant,
                                                const AttentionProblem& problem);

// Why `variant` cannot run `problem`: attention_problem_error, then the
// variant's own limits (nothing when it can run).
std::optional<std::string> attention_launch_error(AttentionVariant variant,
                                                  const AttentionProblem& problem);

// Whether the variant reads K and V as pages through `block_table` (else contiguous).
bool attention_variant_is_paged(AttentionVariant variant);

// Launches every kernel of the variant on `stream`; returns the kernel count.
// Throws std::invalid_argument when attention_launch_error has something to say.
int launch_attention(AttentionVariant variant, const AttentionProblem& problem,
                     const AttentionTensors& tensors, void* workspace, cudaStream_t stream);

}  // namespace tilesim::kernels
