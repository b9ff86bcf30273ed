#include <cuda_runtime_api.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels/attention/decode/decode_plan.hpp"
#include "kernels/common/cuda_check.hpp"

namespace tilesim::kernels::decode {
namespace {

[[noreturn]] void refuse(std::string_view variant, const std::string& what) {
  throw std::invalid_argument(std::string(variant) + ": " + what);
}

int ceil_div(long long a, long long b) {
  return static_cast<int>((a + b - 1) / b);
}

DecodeSplitPlan even_plan(int blocks, int splits) {
  DecodeSplitPlan plan;
  plan.blocks_per_split = ceil_div(blocks, std::clamp(splits, 1, blocks));
  plan.splits = ceil_div(blocks, plan.blocks_per_split);
  return plan;
}

}  // namespace

void check_decode_problem(const AttentionProblem& problem, std::string_view variant, bool paged) {
  if (problem.dtype != ElementType::bf16 && problem.dtype != ElementType::fp16) {
    refuse(variant, "dtype must be bf16 or fp16");
  }
  if (problem.head_dim != 64 && problem.head_dim != 128) {
    refuse(variant,
           "head_dim " + std::to_string(problem.head_dim) + " is not compiled (64 or 128)");
  }
  if (problem.batch < 1 || problem.kv_heads < 1 || problem.heads < 1 || problem.q_len < 1) {
    refuse(variant, "batch, heads, kv_heads and q_len must be at least 1");
  }
  if (problem.heads % problem.kv_heads != 0) {
    refuse(variant, "heads (" + std::to_string(problem.heads) +
                        ") must be a multiple of kv_heads (" + std::to_string(problem.kv_heads) +
                        ")");
  }
  if (problem.group_size() * problem.q_len > kMaxDecodeRows) {
    refuse(variant,
           "heads / kv_heads x q_len = " + std::to_string(problem.group_size() * problem.q_len) +
               " query rows per KV head; at most " + std::to_string(kMaxDecodeRows) +
               " (a decode CTA packs them into one tile)");
  }
  if (static_cast<int>(problem.kv_lens.size()) != problem.batch) {
    refuse(variant, "kv_lens has " + std::to_string(problem.kv_lens.size()) +
                        " entries; batch is " + std::to_string(problem.batch));
  }
  const int least = problem.causal ? problem.q_len : 1;
  for (std::size_t i = 0; i < problem.kv_lens.size(); ++i) {
    if (problem.kv_lens[i] < least) {
      refuse(variant, "kv_lens[" + std::to_string(i) + "] = " + std::to_string(problem.kv_lens[i]) +
                          "; at least " + std::to_string(least) +
                          (problem.causal ? " (q_len, causal)" : ""));
    }
  }
  const int page = problem.page_size;
  if (paged && (page < 1 || (page & (page - 1)) != 0)) {
    refuse(variant, "page_size " + std::to_string(page) + " must be a power of two");
  }
  if (problem.splits < 0) refuse(variant, "splits must be 0 (the kernel picks) or positive");
}

int decode_row_tiles(const AttentionProblem& problem) {
  const int rows = problem.group_size() * problem.q_len;
  return rows <= 16 ? 1 : (rows <= 32 ? 2 : 4);
}

long long decode_pairs(const AttentionProblem& problem) {
  return static_cast<long long>(problem.batch) * problem.kv_heads;
}

int longest_kv_blocks(const AttentionProblem& problem) {
  const int longest = *std::max_element(problem.kv_lens.begin(), problem.kv_lens.end());
  return ceil_div(longest, kDecodeBlockKeys);
}

long long decode_total_blocks(const AttentionProblem& problem) {
  long long blocks = 0;
  for (const int kv_len : problem.kv_lens) blocks += ceil_div(kv_len, kDecodeBlockKeys);
  return blocks * problem.kv_heads;
}

DecodeSplitPlan flash_decoding_split_plan(const AttentionProblem& problem) {
  int splits = problem.splits;
  if (splits == 0) {
    splits = static_cast<int>(std::max(1LL, 2LL * current_sm_count() / decode_pairs(problem)));
  }
  return even_plan(longest_kv_blocks(problem), splits);
}

DecodeSplitPlan paged_v2_split_plan(const AttentionProblem& problem) {
  DecodeSplitPlan plan;
  plan.blocks_per_split = kPagedV2PartitionKeys / kDecodeBlockKeys;
  plan.splits = ceil_div(longest_kv_blocks(problem), plan.blocks_per_split);
  return plan;
}

std::size_t decode_partial_bytes(const AttentionProblem& problem, long long slots) {
  const auto rows = static_cast<std::size_t>(problem.group_size() * problem.q_len);
  return static_cast<std::size_t>(slots) * rows * (static_cast<std::size_t>(problem.head_dim) + 1) *
         sizeof(float);
}

std::size_t stream_k_decode_flag_bytes(int ctas) {
  const auto bytes = static_cast<std::size_t>(ctas) * sizeof(int);
  return (bytes + 255) / 256 * 256;
}

int current_sm_count() {
  int device = 0;
  int sms = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&device));
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

}  // namespace tilesim::kernels::decode
