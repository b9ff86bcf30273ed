#pragma once
// Where token `token` of a pair's K (or V) row starts, in elements, for the
// two cache layouts of attention_problem.hpp:
//   contiguous: [total_kv, kv_heads, d], sequences back to back;
//   paged:      [pages, page_size, kv_heads, d]; the token's page comes from
//               the sequence's block_table row (page_size a power of two).
// Only tokens below the sequence's kv_len are ever addressed: the unused
// slots of a last page (and unused pages) hold NaN and are never read.

#include "kernels/attention/decode/decode_params.cuh"

namespace tilesim::kernels::decode {

template <bool kPaged, int kHeadDim, class Cursor>
__device__ __forceinline__ long long kv_row_offset(const DecodeParams& p, const Cursor& at,
                                                   int token) {
  long long row;
  if constexpr (kPaged) {
    const int page = __ldg(p.block_table + static_cast<long long>(at.sequence) * p.max_pages +
                           (token >> p.page_size_log2));
    row = (static_cast<long long>(page) << p.page_size_log2) |
          (token & ((1 << p.page_size_log2) - 1));
  } else {
    row = at.kv_start + token;
  }
  return (row * p.kv_heads + at.head) * kHeadDim;
}

}  // namespace tilesim::kernels::decode
