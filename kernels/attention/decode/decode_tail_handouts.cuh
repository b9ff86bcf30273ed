#pragma once
// The split-KV decode CTA with other handouts of a pair's blocks and other
// merge protocols, measured against production's by tilesim-decode-tail-study
// (issue 12, round 12; bench/measurements/h100_sxm_2026-11-28_attention_round12_tail_NOTES.md):
// per-block tickets (not deterministic), an arrival counted as the last block
// begins, and a deterministic cut into main splits and drawn tail chunks; and
// round 13's release/acquire arrival
// (bench/measurements/h100_sxm_2026-11-28_attention_round13_NOTES.md).
// Contiguous cache, bf16, d 128, one row tile: the 1 x 32k launch's tile.

#include <cuda_bf16.h>

#include "kernels/attention/decode/decode_cta.cuh"
#include "kernels/attention/decode/decode_cta_trace.cuh"
#include "kernels/attention/decode/decode_partials.cuh"
#include "kernels/attention/decode/decode_split_epilogue.cuh"

namespace tilesim::kernels::decode::study {

using Cfg = DecodeTileConfig<__nv_bfloat16, 128, 1>;
// Ticket slots: > kStages, so a slot is rewritten only after its block's compute.
constexpr int kTicketRing = 8;
constexpr int kMainSplitsStudy = 16;  // tail cut: main segments per pair (one per CTA)

// Round 13's candidate arrival (CUTLASS's semaphore arrive): fence.acq_rel.gpu
// and a relaxed add, so the barrier before it puts every thread's partial
// first (the fence is cumulative); the acquire fence only in the CTA that
// arrives last. Production (SeqCstArrival) has a sequentially consistent
// fence on both sides in every CTA.
struct ReleaseArrival {
  __device__ int arrive(int* counters, int pair) const {
    int* counter = counters + pair;
    int before;
    asm volatile(
        "fence.acq_rel.gpu;\n"
        "atom.relaxed.gpu.global.add.s32 %0, [%1], 1;\n"
        : "=r"(before)
        : "l"(counter)
        : "memory");
    return before;
  }
  __device__ void acquire() const { asm volatile("fence.acq_rel.gpu;\n" ::: "memory"); }
  __device__ void mark(int /*step*/) const {}
};

// The ticket handout's end: every CTA of the pair (also one that drew no
// block: lse -inf) writes its partial; the last to arrive merges all splits
// and lowers the arrival and ticket counters for the next launch.
struct TicketEpilogue {
  int split;
  int* tickets;
  template <class Cta, class Cursor>
  __device__ void operator()(const Cta& cta, const DecodeParams& p, const Cursor& at) const {
    const int pair = at.pair_index(p);
    const long long first_slot = static_cast<long long>(pair) * p.splits;
    store_partial(cta, p, first_slot + split);
    __syncthreads();
    int arrived = 0;
    if (threadIdx.x == 0) {
      __threadfence();
      arrived = atomicAdd(p.split_arrivals + pair, 1);
      __threadfence();
    }
    if (!__syncthreads_or(threadIdx.x == 0 && arrived == p.splits - 1)) return;
    if (threadIdx.x == 0) {
      p.split_arrivals[pair] = 0;
      tickets[pair] = 0;
    }
    const int items = p.rows * Cta::kColumnGroups;
    for (int item = static_cast<int>(threadIdx.x); item < items; item += Cfg::kThreads) {
      const int row = item / Cta::kColumnGroups;
      const int group = item % Cta::kColumnGroups;
      const auto stored = [&](int first, int u, float& lse, float4& o) {
        SplitEpilogue<Cfg>::load_partial(p, first_slot + first + u, row, group, lse, o);
      };
      store_output<Cfg::Element, Cfg::kHeadDim>(p, at.sequence, at.head, row, group,
                                                SplitEpilogue<Cfg>::combine(p.splits, stored));
    }
  }
};

// The early arrival's end. `arrival` is this CTA's place in the pair's count
// (taken as its last block's compute began). Not last: publish the partial,
// then raise its ready flag (release). Last: wait for the other splits'
// flags (acquire; they reached their last block before this one did, so they
// are resident and finish without waiting), lower them and the count, and
// merge every split's partial in split order -- its own from shared memory,
// never stored -- loading kMergeUnroll splits at once.
constexpr int kMergeUnroll = 16;

struct AnnounceEpilogue {
  int split;
  int* ready;  // [pair][split], zero between launches
  template <class Cta, class Cursor>
  __device__ void operator()(const Cta& cta, const DecodeParams& p, const Cursor& at,
                             int arrival) const {
    const int pair = at.pair_index(p);
    const long long first_slot = static_cast<long long>(pair) * p.splits;
    if (!__syncthreads_or(threadIdx.x == 0 && arrival == p.splits - 1)) {
      store_partial(cta, p, first_slot + split);
      __syncthreads();  // the whole partial is written before thread 0 raises the flag
      if (threadIdx.x == 0) {
        __threadfence();
        gemm::store_release_gpu(ready + first_slot + split, 1);
      }
      return;
    }
    const int t = static_cast<int>(threadIdx.x);
    if (t == 0) p.split_arrivals[pair] = 0;
    if (t < p.splits && t != split) {
      take_flag(ready + first_slot + t);
      __threadfence();
    }
    __syncthreads();
    const int items = p.rows * Cta::kColumnGroups;
    for (int item = t; item < items; item += Cfg::kThreads) {
      const int row = item / Cta::kColumnGroups;
      const int group = item % Cta::kColumnGroups;
      const auto partial = [&](int first, int u, float& lse, float4& o) {
        const int s = first + u;
        if (s == split) {
          lse = cta.merged_lse(row);
          o = cta.merged_output(row, group);
        } else {
          SplitEpilogue<Cfg>::load_partial(p, first_slot + s, row, group, lse, o);
        }
      };
      store_output<Cfg::Element, Cfg::kHeadDim>(
          p, at.sequence, at.head, row, group,
          SplitEpilogue<Cfg, kMergeUnroll>::combine(p.splits, partial));
    }
  }
};

// DecodeCta::run for one split's segment (contiguous cache), but the pair's
// arrival is counted when the last block's compute begins, so the atomic's
// round trip hides under that block, and the partial is published after.
class AnnounceCta : public DecodeCta<Cfg, 0> {
 public:
  __device__ explicit AnnounceCta(unsigned char* smem) : DecodeCta<Cfg, 0>(smem) {}

  template <class Epilogue>
  __device__ void run_announce(const DecodeParams& p, Cursor at, long long blocks,
                               Epilogue& epilogue) {
    constexpr int kStages = Cfg::kStages;
    Cursor load = at;
    locate_rows(p, load);
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
      if (s < blocks) {
        issue_block(p, load, s);
        advance_load(p, load, true);
      }
      gemm::cp_async_commit();
    }
    begin_segment(p, at);
    int arrival = 0;
    for (long long i = 0; i < blocks; ++i) {
      gemm::cp_async_wait<kStages - 2>();
      __syncthreads();
      if (i + kStages - 1 < blocks) {
        issue_block(p, load, static_cast<int>((i + kStages - 1) % kStages));
        advance_load(p, load, true);
      }
      gemm::cp_async_commit();
      if (i == blocks - 1 && threadIdx.x == 0) {
        arrival = atomicAdd(p.split_arrivals + at.pair_index(p), 1);
      }
      compute_block(at, static_cast<int>(i % kStages), p.scale_log2);
      if (i < blocks - 1) at.advance(p);
    }
    merge_slices(p);
    epilogue(*this, p, at, arrival);
  }
};

// DecodeCta with a second main loop: the CTA's j-th block is ticket j of its
// pair's counter. Thread 0 draws tickets two iterations before the loader
// needs them (the atomic's return is waited for an iteration later, by the
// store into the ring), so no warp waits on the counter in the loop.
class TicketCta : public DecodeCta<Cfg, 0> {
 public:
  __device__ explicit TicketCta(unsigned char* smem) : DecodeCta<Cfg, 0>(smem) {}

  template <class Epilogue>
  __device__ void run_tickets(const DecodeParams& p, Cursor at, int* counter, int* ring,
                              CtaTrace* trace, Epilogue& epilogue) {
    constexpr int kStages = Cfg::kStages;
    const int n = at.pair_blocks;
    int pending = 0;
    if (threadIdx.x == 0) {
      for (int j = 0; j < kStages; ++j) ring[j] = atomicAdd(counter, 1);
      pending = atomicAdd(counter, 1);
    }
    __syncthreads();
    Cursor load = at;
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
      const int b = ring[s];
      if (b < n) {
        load.block = b;
        locate_rows(p, load);
        issue_block(p, load, s);
      }
      gemm::cp_async_commit();
    }
    begin_segment(p, at);
    int done = 0;
    for (int i = 0;; ++i) {
      gemm::cp_async_wait<kStages - 2>();
      __syncthreads();
      const int b = ring[i % kTicketRing];
      if (b >= n) break;
      if (i == 0 && threadIdx.x == 0) trace->first_ns = global_ns();
      const int ahead = ring[(i + kStages - 1) % kTicketRing];
      if (ahead < n) {
        load.block = ahead;
        locate_rows(p, load);
        issue_block(p, load, (i + kStages - 1) % kStages);
      }
      gemm::cp_async_commit();
      if (threadIdx.x == 0) {
        ring[(i + kStages) % kTicketRing] = pending;
        pending = atomicAdd(counter, 1);
      }
      at.block = b;
      compute_block(at, i % kStages, p.scale_log2);
      ++done;
    }
    if (threadIdx.x == 0) trace->blocks = done;
    merge_slices(p);
    epilogue(*this, p, at);
  }
};

// Tail chunks: a fixed cut of each pair's blocks into kMainSplits main
// segments of `main_blocks` (one per CTA, in place, as production's splits)
// and `tail_chunks` chunks of `chunk_blocks` after them, which the pair's
// CTAs draw from a counter once their main segment is issued, so CTAs on
// fast SMs take more. Every segment (main or chunk) is its own partial, in a
// slot fixed by its blocks, and the last segment to begin its last block
// merges all of them in slot order: the result does not depend on which CTA
// ran which chunk (deterministic), unlike `tickets`.
struct TailCut {
  int main_blocks;
  int chunk_blocks;  // >= 2: a draw is stored two iterations before its first load
  int tail_chunks;
  int* counter;  // [pair]: chunks drawn (each CTA stops at its first miss), zero between launches
  int* ready;    // [pair][slot]: partial written, zero between launches
  __device__ int tail_first() const { return kMainSplitsStudy * main_blocks; }
  __device__ int slot_of(int b) const {
    return b < tail_first() ? b / main_blocks
                            : kMainSplitsStudy + (b - tail_first()) / chunk_blocks;
  }
  __device__ bool ends_segment(int b) const {
    return b < tail_first() ? b % main_blocks == main_blocks - 1
                            : (b - tail_first()) % chunk_blocks == chunk_blocks - 1;
  }
};

class TailCta : public DecodeCta<Cfg, 0> {
 public:
  __device__ explicit TailCta(unsigned char* smem) : DecodeCta<Cfg, 0>(smem) {}

  // Block of the CTA's j-th load (-1: none), from its main segment, then
  // from the chunks drawn (draws[k % 4] holds its k-th draw).
  __device__ int block_of(const TailCut& cut, int split, const int* draws, int j) const {
    if (j < cut.main_blocks) return split * cut.main_blocks + j;
    const int k = (j - cut.main_blocks) / cut.chunk_blocks;
    const int chunk = draws[k % 4];
    return chunk < cut.tail_chunks ? cut.tail_first() + chunk * cut.chunk_blocks +
                                         (j - cut.main_blocks) % cut.chunk_blocks
                                   : -1;
  }

  __device__ void run_tail(const DecodeParams& p, Cursor at, const TailCut& cut, int split,
                           int* draws, CtaTrace* trace) {
    constexpr int kStages = Cfg::kStages;
    const int pair = at.pair_index(p);
    const int slots = p.splits;  // kMainSplitsStudy + tail_chunks
    const long long first_slot = static_cast<long long>(pair) * slots;
    int* const counter = cut.counter + pair;
    int* const ready = cut.ready + first_slot;
    int pending_draw = 0;
    int publish = -1;  // thread 0: a slot written, its flag not yet raised
    if (threadIdx.x == 0) pending_draw = atomicAdd(counter, 1);
    Cursor load = at;
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
      load.block = split * cut.main_blocks + s;  // main_blocks >= kStages
      locate_rows(p, load);
      issue_block(p, load, s);
      gemm::cp_async_commit();
    }
    begin_segment(p, at);
    const int draw_from = cut.main_blocks - 4;  // iteration storing draw 0
    int done = 0;
    for (int i = 0;; ++i) {
      gemm::cp_async_wait<kStages - 2>();
      __syncthreads();
      if (threadIdx.x == 0 && publish >= 0) {
        __threadfence();  // the partial (written before this barrier) before its flag
        gemm::store_release_gpu(ready + publish, 1);
        publish = -1;
      }
      const int b = block_of(cut, split, draws, i);
      if (b < 0) break;
      if (i == 0 && threadIdx.x == 0) trace->first_ns = global_ns();
      const int ahead = block_of(cut, split, draws, i + kStages - 1);
      if (ahead >= 0) {
        load.block = ahead;
        locate_rows(p, load);
        issue_block(p, load, (i + kStages - 1) % kStages);
      }
      gemm::cp_async_commit();
      const bool ends = cut.ends_segment(b);
      int arrival = 0;
      if (threadIdx.x == 0) {
        if (i >= draw_from && (i - draw_from) % cut.chunk_blocks == 0) {
          draws[((i - draw_from) / cut.chunk_blocks) % 4] = pending_draw;
          if (pending_draw < cut.tail_chunks) {
            pending_draw = atomicAdd(counter, 1);
          } else if (pending_draw == cut.tail_chunks + kMainSplitsStudy - 1) {
            // Each CTA draws until its one miss: this is the pair's last draw.
            *counter = 0;
            pending_draw = cut.tail_chunks;
          }
        }
        if (ends) {
          arrival = atomicAdd(p.split_arrivals + pair, 1);
        }
      }
      at.block = b;
      compute_block(at, i % kStages, p.scale_log2);
      ++done;
      if (!ends) continue;
      merge_slices(p);
      const int slot = cut.slot_of(b);
      if (__syncthreads_or(threadIdx.x == 0 && arrival == slots - 1)) {
        if (threadIdx.x == 0) trace->loop_end_ns = global_ns();
        merge_all(p, at, first_slot, slot, publish, ready);
        if (threadIdx.x == 0) trace->end_ns = global_ns();
        break;
      }
      store_partial(*this, p, first_slot + slot);
      if (threadIdx.x == 0) publish = slot;
      reset_softmax();
    }
    gemm::cp_async_wait<0>();
    // The merger may leave with its miss drawn but not yet looked at.
    if (threadIdx.x == 0 && pending_draw == cut.tail_chunks + kMainSplitsStudy - 1) *counter = 0;
    if (threadIdx.x == 0) trace->blocks = done;
    if (threadIdx.x == 0 && trace->end_ns == 0) {
      trace->loop_end_ns = global_ns();
      trace->end_ns = trace->loop_end_ns;
    }
  }

 private:
  // The last segment's CTA: its own earlier flag raised, the others' awaited
  // (their CTAs began their last block before this one: resident, and they
  // wait for nothing), every partial merged in slot order (its own from
  // shared memory), the arrival count lowered for the next launch (the draw
  // counter is lowered by the pair's last draw).
  __device__ void merge_all(const DecodeParams& p, const Cursor& at, long long first_slot, int own,
                            int publish, int* ready) const {
    const int t = static_cast<int>(threadIdx.x);
    const int slots = p.splits;
    __syncthreads();  // this CTA's earlier partial written by all
    if (t == 0) {
      if (publish >= 0) {
        __threadfence();
        gemm::store_release_gpu(ready + publish, 1);
      }
      p.split_arrivals[at.pair_index(p)] = 0;
    }
    for (int s = t; s < slots; s += Cfg::kThreads) {
      if (s == own) continue;
      take_flag(ready + s);
      __threadfence();
    }
    __syncthreads();
    const int items = p.rows * kColumnGroups;
    for (int item = t; item < items; item += Cfg::kThreads) {
      const int row = item / kColumnGroups;
      const int group = item % kColumnGroups;
      const auto partial = [&](int first, int u, float& lse, float4& o) {
        const int s = first + u;
        if (s == own) {
          lse = merged_lse(row);
          o = merged_output(row, group);
        } else {
          SplitEpilogue<Cfg>::load_partial(p, first_slot + s, row, group, lse, o);
        }
      };
      store_output<Cfg::Element, Cfg::kHeadDim>(
          p, at.sequence, at.head, row, group,
          SplitEpilogue<Cfg, kMergeUnroll>::combine(slots, partial));
    }
  }
};

}  // namespace tilesim::kernels::decode::study
