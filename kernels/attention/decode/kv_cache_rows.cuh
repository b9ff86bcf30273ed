#pragma once
// Where a thread's K (or V) rows of one KV block lie, for the two cache
// layouts of attention_problem.hpp:
//   contiguous: [total_kv, kv_heads, d], sequences back to back;
//   paged:      [pages, page_size, kv_heads, d]; the token's page comes from
//               the sequence's block_table row (page_size a power of two,
//               16 to 128).
// Only tokens below the sequence's kv_len are ever addressed: the unused
// slots of a last page (and unused pages) hold NaN and are never read.
//
// A thread copies the same 16-byte chunk of rows first_row + j * kRowsPerPass
// of every block. `load` runs once per block,
// one block ahead of the copies (so a page-table miss runs under a block's
// compute): it turns the block's page numbers into one element offset per
// page the thread's rows fall in. `offset(j)` is then that base plus a
// compile-time number of rows: the page a row falls in is known at compile
// time because pages of kPageKeys (16 or 32) keys start at whole multiples of
// kRowsPerPass rows, and a page of 64 keys or more holds the whole block. The
// per-copy page select, shift and 64-bit index math of round 5 (34% more
// instructions than the contiguous CTA, ncu) is gone.

#include "kernels/attention/decode/decode_params.cuh"

namespace tilesim::kernels::decode {

// kPageKeys: 0 for the contiguous cache; 16 or 32 for pages of that size;
// kBlockKeys for pages of a block or more (64, 128: the page size stays a
// runtime value).
template <int kBlockKeys, int kRowsPerPass, int kHeadDim, int kPageKeys>
class BlockRows {
  static_assert(kPageKeys == 0 || kPageKeys == 16 || kPageKeys == 32 || kPageKeys == kBlockKeys,
                "contiguous, pages of 16 or 32 keys, or pages of a block or more");
  static_assert(kPageKeys == 0 || kPageKeys % kRowsPerPass == 0,
                "a thread's rows must not straddle a page");
  static constexpr int kPages = kPageKeys == 0 ? 1 : kBlockKeys / kPageKeys;

 public:
  // The block `block` of the cursor's pair (sequence, KV head); column chunk
  // `chunk` of rows first_row + j * kRowsPerPass.
  template <class Cursor>
  __device__ void load(const DecodeParams& p, const Cursor& at, int first_row, int chunk) {
    const long long row_elements = static_cast<long long>(p.kv_heads) * kHeadDim;
    const long long thread_offset = first_row * row_elements + at.head * kHeadDim + chunk * 8;
    const int first_key = at.block * kBlockKeys;
    if constexpr (kPageKeys == 0) {
      base_[0] = (at.kv_start + first_key) * row_elements + thread_offset;
    } else {
      const int* table = p.block_table + static_cast<long long>(at.sequence) * p.max_pages;
      const int first_page = first_key >> p.page_size_log2;
      // Rows of the block before this one in its page (pages of 128 keys).
      const int in_page = first_key & ((1 << p.page_size_log2) - 1);
#pragma unroll
      for (int i = 0; i < kPages; ++i) {
        const int page = first_page + i;
        // Pages past the sequence's last are not read (their rows are never copied).
        const long long number = (page << p.page_size_log2) < at.kv_len ? __ldg(table + page) : 0;
        base_[i] = ((number << p.page_size_log2) + in_page) * row_elements + thread_offset;
      }
    }
    row_elements_ = row_elements;
  }

  // Element offset of the thread's chunk of row first_row + j * kRowsPerPass.
  // Called from fully unrolled loops: j, the page index and the rows into the
  // page are constants there, so base_ stays in registers.
  __device__ __forceinline__ long long offset(int j) const {
    const int row = j * kRowsPerPass;
    const int page = kPageKeys == 0 ? 0 : row / kPageKeys;
    const int in_page = kPageKeys == 0 ? row : row % kPageKeys;
    return base_[page] + in_page * row_elements_;
  }

 private:
  long long base_[kPages] = {};
  long long row_elements_ = 0;
};

}  // namespace tilesim::kernels::decode
