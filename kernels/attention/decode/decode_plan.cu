#include <cuda_runtime_api.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels/attention/decode/decode_plan.hpp"
#include "kernels/common/cuda_check.hpp"

namespace tilesim::kernels::decode {
namespace {

int ceil_div(long long a, long long b) {
  return static_cast<int>((a + b - 1) / b);
}

// CTAs that hold keys when every pair is cut into splits of blocks_per_split
// (the split kernel's grid is sized by the longest sequence; the empty
// splits of shorter ones exit at once).
long long non_empty_ctas(const AttentionProblem& problem, int blocks_per_split) {
  long long ctas = 0;
  for (const int kv_len : problem.kv_lens) {
    ctas += ceil_div(ceil_div(kv_len, kDecodeBlockKeys), blocks_per_split);
  }
  return ctas * problem.kv_heads;
}

DecodeSplitPlan even_plan(int blocks, int splits) {
  DecodeSplitPlan plan;
  plan.blocks_per_split = ceil_div(blocks, std::clamp(splits, 1, blocks));
  plan.splits = ceil_div(blocks, plan.blocks_per_split);
  return plan;
}

}  // namespace

std::optional<std::string> decode_problem_error(const AttentionProblem& problem) {
  const int rows = problem.group_size() * problem.q_len;
  if (rows > kMaxDecodeRows) {
    return "heads / kv_heads x q_len = " + std::to_string(rows) +
           " query rows per KV head; at most " + std::to_string(kMaxDecodeRows) +
           " (a decode CTA packs them into one tile)";
  }
  if (problem.batch > 65535 || problem.kv_heads > 65535) {
    return "batch and kv_heads must be at most 65535 (grid dimensions)";
  }
  return std::nullopt;
}

void require_decode_problem(const AttentionProblem& problem, std::string_view variant) {
  std::optional<std::string> error = attention_problem_error(problem);
  if (!error) error = decode_problem_error(problem);
  if (error) {
    throw std::invalid_argument(std::string(variant) + " (" + to_string(problem) + "): " + *error);
  }
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
    const long long resident =
        static_cast<long long>(current_sm_count()) * decode_split_ctas_per_sm(problem);
    splits = static_cast<int>(std::max(1LL, resident / decode_pairs(problem)));
  }
  return even_plan(longest_kv_blocks(problem), splits);
}

DecodeSplitPlan paged_v2_split_plan(const AttentionProblem& problem) {
  const long long resident =
      static_cast<long long>(current_sm_count()) * decode_split_ctas_per_sm(problem);
  long long keys = 0;
  for (const int kv_len : problem.kv_lens) keys += kv_len;
  const long long share = ceil_div(keys * problem.kv_heads, resident);
  constexpr int kUnitBlocks = kPagedV2PartitionKeys / kDecodeBlockKeys;
  const int longest_units = ceil_div(longest_kv_blocks(problem), kUnitBlocks);
  int units = std::max(1, ceil_div(share, kPagedV2PartitionKeys));
  // Whole units round each pair's partitions up: grow them until the CTAs
  // that hold keys fit one wave (12 x 9.5k, 32/4 heads: 7 units gave 144 CTAs
  // for 132 SMs, a second wave of 12; 10 units give 96).
  while (units < longest_units && non_empty_ctas(problem, units * kUnitBlocks) > resident) ++units;
  DecodeSplitPlan plan;
  plan.blocks_per_split = units * kUnitBlocks;
  plan.splits = ceil_div(longest_kv_blocks(problem), plan.blocks_per_split);
  return plan;
}

std::size_t decode_partial_bytes(const AttentionProblem& problem, long long slots) {
  const auto rows = static_cast<std::size_t>(problem.group_size() * problem.q_len);
  return static_cast<std::size_t>(slots) * rows * (static_cast<std::size_t>(problem.head_dim) + 1) *
         sizeof(float);
}

std::size_t decode_flag_bytes(long long flags) {
  const auto bytes = static_cast<std::size_t>(flags) * sizeof(int);
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
