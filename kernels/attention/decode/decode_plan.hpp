#pragma once
// Host-side plan of the decode variants: which problems they take, how a
// split kernel cuts each (sequence, KV head) pair's keys, the Stream-K grid
// and the workspace each needs. Plain C++: tilesim-measure reads the splits
// actually used from here.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "kernels/attention/attention_problem.hpp"

namespace tilesim::kernels::decode {

inline constexpr int kDecodeBlockKeys = 64;        // keys per pipeline block (DecodeTileConfig)
inline constexpr int kPagedV2PartitionKeys = 512;  // vLLM v2's partition: paged_v2's unit
inline constexpr int kMaxDecodeRows = 64;          // group_size x q_len per CTA

// What the decode kernels refuse beyond attention_problem_error: more than
// kMaxDecodeRows packed query rows (group_size x q_len) per KV head, or a
// batch or kv_heads past the grid's 65535 (nothing when they can run it).
std::optional<std::string> decode_problem_error(const AttentionProblem& problem);
// Throws std::invalid_argument "VARIANT (shape): why" when either check fails.
void require_decode_problem(const AttentionProblem& problem, std::string_view variant);

// 16-row mma tiles that hold the packed query rows (1, 2 or 4).
int decode_row_tiles(const AttentionProblem& problem);
long long decode_pairs(const AttentionProblem& problem);  // batch x kv_heads
int longest_kv_blocks(const AttentionProblem& problem);

// CTA `split` of a pair takes its blocks [split * blocks_per_split, ...);
// splits are cut alike for every sequence, sized by the longest (FA2), so a
// short sequence's later splits are empty CTAs that exit at once.
struct DecodeSplitPlan {
  int blocks_per_split = 1;
  int splits = 1;
};
// problem.splits, or when 0: floor(SMs x resident split CTAs per SM / pairs),
// one full wave (1 when the pairs alone fill it; measured on the H100 at 32k:
// one wave of 128 CTAs 56 us, two waves of 256 CTAs 63 us), or more splits,
// up to the count that shares the batch's blocks evenly over the resident
// slots, when they end the launch sooner (skewed batches; the CTAs dispatched
// in grid order as for paged_v2); at most one split per block of the longest
// sequence; then evened out to whole blocks per split.
DecodeSplitPlan flash_decoding_split_plan(const AttentionProblem& problem);
// Partitions of a whole number of kPagedV2PartitionKeys keys: the batch's
// keys (over every pair) shared evenly by one wave of resident CTAs, rounded
// up to that unit; larger partitions (whole units) when they end the launch
// sooner, the CTAs dispatched in grid order to the resident slots (a rounding
// can leave a second wave of a few CTAs). vLLM's fixed 512 launched many
// waves of short CTAs at long contexts (8 blocks each: pipeline fill and
// epilogue per 8 blocks) and a reduce over up to 256 partials a row, 1.1-1.6x
// the contiguous split-KV time; sharing the keys, not the pairs, keeps skewed
// batches balanced: a long sequence still gets many partitions.
// problem.splits is ignored.
DecodeSplitPlan paged_v2_split_plan(const AttentionProblem& problem);

// Split-kernel CTAs resident per SM (occupancy of the problem's tile).
int decode_split_ctas_per_sm(const AttentionProblem& problem);

// Persistent CTAs of stream_k_decode: SMs x resident CTAs per SM, at most one per block.
int stream_k_decode_ctas(const AttentionProblem& problem);
long long decode_total_blocks(const AttentionProblem& problem);  // over every pair

// fp32 partial O and log2-sum-exp for `slots` slots of the pair's rows.
std::size_t decode_partial_bytes(const AttentionProblem& problem, long long slots);
// A workspace's leading flags region (one int per Stream-K CTA, or per pair
// for the split kernels' arrival counters) rounded up to 256 bytes.
std::size_t decode_flag_bytes(long long flags);

int current_sm_count();

}  // namespace tilesim::kernels::decode
