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
// them, so the table's round trip runs under a block's compute instead of
// holding the copies back. Every thread loads the same entries (a
// broadcast).
//
// One block ahead covers an L2 hit, not an HBM miss: a 32-byte sector of the
// table holds 8 page numbers (two blocks at page 16), and a miss queued
// behind the CTAs' own K/V traffic outlasts a block's turn and stalls the
// next copies (round 4: page 16 1.2-1.4x split-KV, page 128 1.02-1.05x). So
// the table is also prefetched into L2 kPrefetchBlocks blocks ahead of the
// loads.
template <int kBlockKeys>
struct BlockPages {
  static constexpr int kMaxPages = kBlockKeys / 16;
  static constexpr int kPrefetchBlocks = 16;
  int first = 0;  // the block's first page, an index into the sequence's table row
  int number[kMaxPages] = {};

  // At a run's start: the table entries of blocks [block, block +
  // kPrefetchBlocks), one block per thread; later loads keep the window moving.
  __device__ static void prefetch_window(const DecodeParams& p, int sequence, int block,
                                         int kv_len) {
    if (threadIdx.x < kPrefetchBlocks) {
      prefetch_entry(p, sequence, block + static_cast<int>(threadIdx.x), kv_len);
    }
  }

  // Entries past the sequence's last page are not read (left 0, never used).
  __device__ void load(const DecodeParams& p, int sequence, int block, int kv_len) {
    first = (block * kBlockKeys) >> p.page_size_log2;
    if (threadIdx.x == 0) prefetch_entry(p, sequence, block + kPrefetchBlocks, kv_len);
    const int* table = p.block_table + static_cast<long long>(sequence) * p.max_pages;
#pragma unroll
    for (int i = 0; i < kMaxPages; ++i) {
      const int page = first + i;
      number[i] = (page << p.page_size_log2) < kv_len ? __ldg(table + page) : 0;
    }
  }

  // Into L2: the table line holding the first page number of `block` (none
  // past the sequence's last page).
  __device__ static void prefetch_entry(const DecodeParams& p, int sequence, int block,
                                        int kv_len) {
    const int page = (block * kBlockKeys) >> p.page_size_log2;
    if ((page << p.page_size_log2) >= kv_len) return;
    const int* entry = p.block_table + static_cast<long long>(sequence) * p.max_pages + page;
    asm volatile("prefetch.global.L2 [%0];\n" ::"l"(entry));
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
