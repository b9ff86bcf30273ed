#pragma once
// What a flash forward CTA works on, shared by the mma.sync and wgmma kernels:
// which (query block, head) it takes from its linear index (head-major when
// non-causal; when causal, heaviest first (LPT) within groups of kHeadGroup
// heads: every head's last query block, then every head's second-to-last,
// ...; the groups keep the K/V that CTAs running together read to a few
// heads, so it stays in L2), and which of its K/V blocks it visits and masks.

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

// Blocks [0, count) of kBlockN keys hold a key some of the CTA's kBlockM rows
// (from m0) see; the top `masked` of them need a mask (past kv_len or past
// the bottom-right diagonal).
struct KeyBlocks {
  int count;
  int masked;
};

template <int kBlockM, int kBlockN>
__device__ __forceinline__ KeyBlocks key_blocks_of(int m0, int q_len, int kv_len, bool causal) {
  const int diagonal = kv_len - q_len;
  const int kv_limit = causal ? min(kv_len, m0 + kBlockM + diagonal) : kv_len;
  const int count = (kv_limit + kBlockN - 1) / kBlockN;
  int unmasked = kv_len / kBlockN;
  if (causal) unmasked = min(unmasked, max(0, m0 + diagonal + 1) / kBlockN);
  return {count, count - min(unmasked, count)};
}

}  // namespace tilesim::kernels::flash
