#pragma once
// Where a token's K (or V) row lies, for the two cache layouts of
// attention_problem.hpp:
//   contiguous: [total_kv, kv_heads, d], sequences back to back;
//   paged:      [pages, page_size, kv_heads, d]; the token's page comes from
//               the sequence's block_table row (page_size a power of two,
//               16 to 128).
// Only tokens below the sequence's kv_len are ever addressed: the unused
// slots of a last page (and unused pages) hold NaN and are never read.

#include "kernels/attention/decode/decode_params.cuh"

namespace tilesim::kernels::decode {

// Element offset of cache row `row` of KV head `head`.
template <int kHeadDim>
__device__ __forceinline__ long long kv_element_offset(const DecodeParams& p, int head,
                                                       long long row) {
  return (row * p.kv_heads + head) * kHeadDim;
}

// The page numbers of one block of kBlockKeys keys (at most kBlockKeys / 16
// pages). The decode CTA loads them one block ahead of the copies that use
// them, so the table's L1/L2 round trip runs under a block's compute instead
// of holding the copies back. Every thread loads the same entries (a
// broadcast).
template <int kBlockKeys>
struct BlockPages {
  static constexpr int kMaxPages = kBlockKeys / 16;
  int first = 0;  // the block's first page, an index into the sequence's table row
  int number[kMaxPages] = {};

  // Entries past the sequence's last page are not read (left 0, never used).
  __device__ void load(const DecodeParams& p, int sequence, int block, int kv_len) {
    first = (block * kBlockKeys) >> p.page_size_log2;
    const int* table = p.block_table + static_cast<long long>(sequence) * p.max_pages;
#pragma unroll
    for (int i = 0; i < kMaxPages; ++i) {
      const int page = first + i;
      number[i] = (page << p.page_size_log2) < kv_len ? __ldg(table + page) : 0;
    }
  }

  // The cache row of `token`, a token of this block (selects, not an indexed
  // load: a runtime index into `number` would put it in local memory).
  __device__ long long row(const DecodeParams& p, int token) const {
    const int slot = (token >> p.page_size_log2) - first;
    int page = number[0];
#pragma unroll
    for (int i = 1; i < kMaxPages; ++i) page = slot == i ? number[i] : page;
    return (static_cast<long long>(page) << p.page_size_log2) |
           (token & ((1 << p.page_size_log2) - 1));
  }
};

}  // namespace tilesim::kernels::decode
