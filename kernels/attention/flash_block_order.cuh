#pragma once
// Which (query block, head) a flash forward CTA takes from its linear index,
// shared by the mma.sync and wgmma kernels: head-major when non-causal; when
// causal, heaviest first (LPT) within groups of kHeadGroup heads: every head's
// last query block, then every head's second-to-last, ...; the groups keep
// the K/V that CTAs running together read to a few heads, so it stays in L2.

namespace tilesim::kernels::flash {

constexpr int kHeadGroup = 8;

struct QueryBlock {
  int m_block;
  int head;
};

__device__ __forceinline__ QueryBlock query_block_of(int linear, int m_blocks, int heads,
                                                     bool causal) {
  if (!causal) return {linear % m_blocks, linear / m_blocks};
  const int group = linear / (kHeadGroup * m_blocks);
  const int in_group = linear % (kHeadGroup * m_blocks);
  const int group_heads = min(kHeadGroup, heads - group * kHeadGroup);
  return {m_blocks - 1 - in_group / group_heads, group * kHeadGroup + in_group % group_heads};
}

}  // namespace tilesim::kernels::flash
