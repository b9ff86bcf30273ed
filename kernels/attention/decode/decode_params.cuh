#pragma once
// The arguments every decode kernel takes, and the cursor a CTA walks its KV
// blocks with. A (sequence, KV head) pair's keys are cut into blocks of
// kBlockKeys; pairs are ordered sequence-major, heads inside, which is the
// order Stream-K lays the batch's blocks end to end in.

namespace tilesim::kernels::decode {

struct DecodeParams {
  const void* q = nullptr;  // [total_q, heads, head_dim]
  const void* k =
      nullptr;  // contiguous [total_kv, kv_heads, d] or paged [pages, page_size, kv_heads, d]
  const void* v = nullptr;
  void* o = nullptr;                     // [total_q, heads, head_dim]
  const long long* kv_starts = nullptr;  // contiguous: first K/V row of each sequence
  const int* kv_lens = nullptr;
  const int* block_table = nullptr;  // paged: [batch, max_pages]
  int batch = 0;
  int heads = 0;
  int kv_heads = 0;
  int group_size = 0;  // heads / kv_heads
  int q_len = 1;
  int rows = 0;  // group_size * q_len: the packed query rows of one pair
  bool causal = false;
  float scale_log2 = 0;  // softmax scale times log2(e): scores are exponentiated with exp2
  int page_size_log2 = 0;
  int max_pages = 0;

  // Split kernels: CTA (split, head, sequence) takes blocks
  // [split * blocks_per_split, (split + 1) * blocks_per_split) of its pair.
  int blocks_per_split = 0;
  int splits = 1;
  bool write_partials = false;  // else the CTA owns its whole pair and writes O

  // Split partials: [pair][split][row][d] and [pair][split][row]; Stream-K
  // partials: [cta][row][d] and [cta][row] (decode_partials.cuh).
  // Split kernels: per pair, how many of its splits have written their
  // partial (the last one merges them and lowers it to 0 again).
  int* split_arrivals = nullptr;
  float* partial_o = nullptr;
  float* partial_lse = nullptr;

  // Stream-K: CTA u of the grid takes global blocks [u*T/G, (u+1)*T/G).
  long long total_blocks = 0;
  int* flags = nullptr;  // one per CTA: 1 while its peer partial waits for its owner
};

template <int kBlockKeys>
struct KvBlockCursor {
  int sequence = 0;
  int head = 0;         // KV head
  int block = 0;        // block index inside the pair
  int pair_blocks = 0;  // blocks of the pair (its sequence's keys, rounded up)
  int kv_len = 0;
  long long kv_start = 0;    // contiguous layout: the sequence's first K/V row
  long long pair_begin = 0;  // Stream-K: the pair's first block in the batch order

  __device__ static int blocks_of(int kv_len) { return (kv_len + kBlockKeys - 1) / kBlockKeys; }

  __device__ void enter_sequence(const DecodeParams& p, int s) {
    sequence = s;
    kv_len = p.kv_lens[s];
    kv_start = p.kv_starts != nullptr ? p.kv_starts[s] : 0;
    pair_blocks = blocks_of(kv_len);
  }

  // The next block in batch order: the next head of the sequence, then the
  // next sequence. Past the batch's last block the cursor is left as it is.
  __device__ void advance(const DecodeParams& p) {
    if (++block < pair_blocks) return;
    if (head + 1 < p.kv_heads) {
      ++head;
      pair_begin += pair_blocks;
    } else if (sequence + 1 < p.batch) {
      pair_begin += pair_blocks;
      enter_sequence(p, sequence + 1);
      head = 0;
    } else {
      return;
    }
    block = 0;
  }
  __device__ bool last_of_pair() const { return block == pair_blocks - 1; }
  __device__ int pair_index(const DecodeParams& p) const { return sequence * p.kv_heads + head; }
};

}  // namespace tilesim::kernels::decode
