#include <cuda_runtime_api.h>

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/attention/decode/decode_plan.hpp"
#include "kernels/common/cuda_check.hpp"

namespace tilesim::kernels::decode {
namespace {

int ceil_div(long long a, long long b) {
  return static_cast<int>((a + b - 1) / b);
}

// Blocks until the last of the launch's CTAs ends when every pair is cut
// into splits of blocks_per_split and the CTAs that hold keys go, in grid
// order (split, KV head, sequence), to whichever of `slots` resident slots
// frees first; each costs its blocks plus one (its pipeline fill and merge).
// Empty splits exit at once and are left out.
long long launch_makespan_blocks(const AttentionProblem& problem, int blocks_per_split,
                                 long long slots) {
  std::priority_queue<long long, std::vector<long long>, std::greater<>> free_at;
  for (long long s = 0; s < slots; ++s) free_at.push(0);
  long long end = 0;
  for (const int kv_len : problem.kv_lens) {
    const int blocks = ceil_div(kv_len, kDecodeBlockKeys);
    for (int head = 0; head < problem.kv_heads; ++head) {
      for (int first = 0; first < blocks; first += blocks_per_split) {
        const long long done = free_at.top() + std::min(blocks_per_split, blocks - first) + 1;
        free_at.pop();
        free_at.push(done);
        end = std::max(end, done);
      }
    }
  }
  return end;
}

// No cut into splits of blocks_per_split ends before the longest pair's first
// split: its blocks plus one. The bound grows with blocks_per_split, so the
// searches below stop at the first candidate it rules out; they ran every
// candidate before (up to ~200 makespans on the host each launch: 40-600 us,
// longer than the kernels they planned, which the measurements then timed).
long long makespan_lower_bound(int blocks_per_split, int longest_blocks) {
  return std::min(blocks_per_split, longest_blocks) + 1;
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
  const int longest = longest_kv_blocks(problem);
  if (problem.splits != 0) return even_plan(longest, problem.splits);
  const long long resident =
      static_cast<long long>(current_sm_count()) * decode_split_ctas_per_sm(problem);
  const int wave_splits = static_cast<int>(std::max(1LL, resident / decode_pairs(problem)));
  DecodeSplitPlan best = even_plan(longest, wave_splits);
  long long best_end = launch_makespan_blocks(problem, best.blocks_per_split, resident);
  // A skewed batch's pairs can fill a wave alone (one split) while one long
  // sequence holds most keys: 120000 + 23 x 2000 keys, 32/8 heads, took 1303
  // us at one split and 371 at four. More splits are taken, down from the
  // count that shares the batch's blocks evenly over the resident slots,
  // when they end the launch sooner.
  const int share = ceil_div(decode_total_blocks(problem), resident);
  for (int splits = ceil_div(longest, share); splits > wave_splits; --splits) {
    const DecodeSplitPlan plan = even_plan(longest, splits);
    if (makespan_lower_bound(plan.blocks_per_split, longest) >= best_end) break;
    const long long end = launch_makespan_blocks(problem, plan.blocks_per_split, resident);
    if (end < best_end) {
      best = plan;
      best_end = end;
    }
  }
  return best;
}

DecodeSplitPlan paged_v2_split_plan(const AttentionProblem& problem) {
  const long long resident =
      static_cast<long long>(current_sm_count()) * decode_split_ctas_per_sm(problem);
  long long keys = 0;
  for (const int kv_len : problem.kv_lens) keys += kv_len;
  const long long share = ceil_div(keys * problem.kv_heads, resident);
  constexpr int kUnitBlocks = kPagedV2PartitionKeys / kDecodeBlockKeys;
  const int longest_units = ceil_div(longest_kv_blocks(problem), kUnitBlocks);
  // Whole units round each pair's partitions up, which can leave a second
  // wave of a few CTAs (12 x 9.5k, 32/4 heads: 7 units make 144 CTAs for 132
  // SMs). Larger partitions are taken when they end the launch sooner
  // (launch_makespan_blocks; there: 10 units, 96 CTAs in one wave).
  const int share_units = std::max(1, ceil_div(share, kPagedV2PartitionKeys));
  int units = share_units;
  long long best = launch_makespan_blocks(problem, units * kUnitBlocks, resident);
  for (int u = share_units + 1; u <= longest_units; ++u) {
    if (makespan_lower_bound(u * kUnitBlocks, longest_kv_blocks(problem)) >= best) break;
    const long long end = launch_makespan_blocks(problem, u * kUnitBlocks, resident);
    if (end < best) {
      best = end;
      units = u;
    }
  }
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
