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
// of every block. `load` runs once per block, one block ahead of the copies:
// paged, it only fetches the block's page numbers (one aligned 16- or 8-byte
// load for the 4 or 2 pages of 16 or 32 keys: the table's rows are padded to
// kBlockTableAlign entries) and keeps them as 32-bit registers; nothing uses
// them until the next issue_block, a block's compute later, so the warp does
// not wait for the table there. `offset(j)` then turns the page of row j
// (known at compile time: pages of kPageKeys (16 or 32) keys start at whole
// multiples of kRowsPerPass rows, a page of 64 keys or more holds the whole
// block) into an element offset with one 32-bit multiply-add and one widening
// multiply-add. Round 6's version computed a 64-bit base per page inside
// `load` (a page select, shifts and 64-bit products for each of 4 pages, and
// a dependent wait on each table entry): 18% more instructions than the
// contiguous CTA at page 16 (ncu), whose warps issue once every ~6 cycles.

#include "kernels/attention/attention_problem.hpp"  // kBlockTableAlign
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
  static_assert(kBlockTableAlign % kPages == 0, "a block's pages are one aligned vector load");

 public:
  // The block `block` of the cursor's pair (sequence, KV head); column chunk
  // `chunk` of rows first_row + j * kRowsPerPass.
  template <class Cursor>
  __device__ void load(const DecodeParams& p, const Cursor& at, int first_row, int chunk) {
    const int first_key = at.block * kBlockKeys;
    if constexpr (kPageKeys == 0) {
      const long long row_elements = static_cast<long long>(p.kv_heads) * kHeadDim;
      const long long thread_offset = first_row * row_elements + at.head * kHeadDim + chunk * 8;
      base_ = (at.kv_start + first_key) * row_elements + thread_offset;
      row_elements_ = row_elements;
    } else {
      page_row_elements_ = static_cast<unsigned>(p.kv_heads) * kHeadDim;
      thread_offset_ =
          static_cast<unsigned>(first_row) * page_row_elements_ + at.head * kHeadDim + chunk * 8;
      // The block's first page: a multiple of kPages, in a row of a multiple
      // of kBlockTableAlign entries, so the vector loads below are aligned.
      const int* table = p.block_table + static_cast<long long>(at.sequence) * p.max_pages +
                         (first_key >> p.page_size_log2);
      // Entries past the sequence's last page are loaded (inside its row) but
      // never used: their rows are never copied. Past the batch's last block
      // the loader's cursor stands one block on (KvBlockCursor::advance),
      // which may be past the table's end: it loads nothing there
      // (compute-sanitizer memcheck found that read in round 9's first build).
      const bool in_sequence = first_key < at.kv_len;
      if constexpr (kPages == 4) {
        const int4 pages =
            in_sequence ? __ldg(reinterpret_cast<const int4*>(table)) : make_int4(0, 0, 0, 0);
        pages_[0] = pages.x;
        pages_[1] = pages.y;
        pages_[2] = pages.z;
        pages_[3] = pages.w;
      } else if constexpr (kPages == 2) {
        const int2 pages =
            in_sequence ? __ldg(reinterpret_cast<const int2*>(table)) : make_int2(0, 0);
        pages_[0] = pages.x;
        pages_[1] = pages.y;
      } else {
        pages_[0] = in_sequence ? __ldg(table) : 0;
        // Rows of the block before this one in its page (pages of 128 keys).
        in_page_ = first_key & ((1 << p.page_size_log2) - 1);
        page_size_log2_ = p.page_size_log2;
      }
    }
  }

  // Paged: thread 0 copies the page numbers of block `block` of the cursor's
  // sequence into shared `slot` (kPages ints) with a cp.async committed with
  // the caller's current group, so they land with that group's K/V rows and
  // no register scoreboard waits for them (a register load of them shared
  // scoreboard 5 with the Q fragments, and every block's first HMMA waited
  // for it: round 11's SASS). Past the sequence the slot is zero-filled.
  template <class Cursor>
  __device__ static void copy_pages(const DecodeParams& p, const Cursor& at, long long block,
                                    unsigned slot) {
    static_assert(kPageKeys != 0, "the contiguous cache has no page numbers");
    if (threadIdx.x != 0) return;
    constexpr int kBytes = kPages * 4;
    const long long first_key = block * kBlockKeys;
    const bool in_sequence = first_key < at.kv_len;
    const int* entry = p.block_table + static_cast<long long>(at.sequence) * p.max_pages +
                       (in_sequence ? (first_key >> p.page_size_log2) : 0);
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(slot), "l"(entry),
                 "n"(kBytes), "r"(in_sequence ? kBytes : 0));
  }

  // Paged: as `load`, the page numbers read from shared `slot` (copy_pages,
  // landed and published by the caller's wait and barrier).
  template <class Cursor>
  __device__ void load_from(const DecodeParams& p, const Cursor& at, int first_row, int chunk,
                            const int* slot) {
    static_assert(kPageKeys != 0, "the contiguous cache has no page numbers");
    const int first_key = at.block * kBlockKeys;
    page_row_elements_ = static_cast<unsigned>(p.kv_heads) * kHeadDim;
    thread_offset_ =
        static_cast<unsigned>(first_row) * page_row_elements_ + at.head * kHeadDim + chunk * 8;
#pragma unroll
    for (int i = 0; i < kPages; ++i) pages_[i] = slot[i];
    if constexpr (kPages == 1) {
      in_page_ = first_key & ((1 << p.page_size_log2) - 1);
      page_size_log2_ = p.page_size_log2;
    }
  }

  // Element offset of the thread's chunk of row first_row + j * kRowsPerPass.
  // Called from fully unrolled loops: j, the page index and the rows into the
  // page are constants there, so the page numbers stay in registers.
  __device__ __forceinline__ long long offset(int j) const {
    const int row = j * kRowsPerPass;
    if constexpr (kPageKeys == 0) {
      return base_ + row * row_elements_;
    } else {
      // The row's place in the pool, in rows (below 2^32: pages * page_size).
      unsigned pool_row = 0;
      if constexpr (kPages == 1) {
        pool_row = (static_cast<unsigned>(pages_[0]) << page_size_log2_) + in_page_ + row;
      } else {
        pool_row = static_cast<unsigned>(pages_[row / kPageKeys]) * kPageKeys + row % kPageKeys;
      }
      return static_cast<long long>(static_cast<unsigned long long>(pool_row) * page_row_elements_ +
                                    thread_offset_);
    }
  }

 private:
  // Contiguous: the element offset of the thread's first row, and a row's elements.
  long long base_ = 0;
  long long row_elements_ = 0;
  // Paged: the block's page numbers, the rows before it in its page (pages
  // of a block or more), a row's elements and the thread's offset in a row.
  int pages_[kPages] = {};
  unsigned page_row_elements_ = 0;
  unsigned in_page_ = 0;
  int page_size_log2_ = 0;
  unsigned long long thread_offset_ = 0;
};

}  // namespace tilesim::kernels::decode
