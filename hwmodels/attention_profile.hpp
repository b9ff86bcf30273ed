#pragma once
// An attention kernel profile: the mechanisms of one attention implementation
// class (configs/attention/<name>.yaml), read from its kernels' code or the
// library's known structure, plus the few values fitted on named calibration
// cases. A flash profile says how the fused kernel runs (GEMM instruction rate,
// tile, whether the softmax overlaps the GEMMs, fixed cost per CTA, what it
// runs at decode); an unfused profile says which passes the path makes over the
// score matrix and what each costs. Studies and measurement rows name an
// implementation (workloads/attention/attention_implementations.hpp), which
// maps to profiles of this kind.

#include <string>
#include <vector>

#include "hwmodels/mma_instruction.hpp"

namespace tilesim::hw {

// What a flash-class kernel runs for a decode-shaped problem (q_len <= 16).
enum class AttentionDecode {
  as_written,  // the study's variant (our kernels: the variant is our choice)
  split_kv,    // GQA group packed into one tile, KV split by FA2's num_splits_heuristic + combine
};

// In which order a causal flash kernel's CTAs take their query blocks.
enum class CausalBlockOrder {
  ascending,       // block m of head h at index m + h x blocks: lightest first (FA2's grid)
  heaviest_first,  // per group of 8 heads, every head's last block, then its second-to-last, ...
};

// How an unfused path launches its GEMMs and softmax.
enum class UnfusedLaunches {
  batched,       // one batched GEMM (and one softmax) over every sequence and head
  per_sequence,  // per sequence: a strided-batched GEMM per query head of a GQA group
                 // (over the KV heads) for Q K^T, one softmax, the same for P V
};

// How an unfused path applies the causal mask.
enum class UnfusedMask {
  in_softmax,     // the softmax kernel selects -inf for masked scores (no extra pass)
  additive_pass,  // a broadcast add of a -inf bias over S (an eager framework's attn_mask)
};

// Our decode CTA alone on its SM, per K/V block (`decode: as_written`
// profiles): a loop turn is a fixed part, its loads issued at a rate, each
// warp's tensor-core instructions, and for the paged kernels a fixed part per
// block and a wait per page it starts; 0 load rate: no per-turn limit. Under shared HBM, each page
// run the paged kernels read (a KV head's rows of one page) costs HBM the time of `page_hbm_bytes`
// more bytes.
struct DecodeTurn {
  double fixed_s = 0;
  double load_issue_bytes_per_s = 0;
  double per_hmma_s = 0;         // per mma instruction of one warp
  double per_paged_block_s = 0;  // a paged block's address path (page numbers, selects)
  double per_page_s = 0;
  double page_hbm_bytes = 0;
};

struct AttentionProfile {
  std::string name;  // file name without .yaml
  std::string source_path;
  std::string description;
  std::string kernel_class;  // e.g. "flash_mma_sync": reports group rows by it
  std::vector<std::string> architectures;
  bool fused = true;  // flash-class kernel; false: an unfused path

  // Flash class.
  MmaInstruction instruction = MmaInstruction::mma_sync;
  double tensor_efficiency = 0;  // of the SM's tensor-core peak, in the main loop
  int query_rows = 128;          // per CTA
  int key_rows_d64 = 128;        // keys per K/V block at head_dim <= 64
  int key_rows_d128 = 64;        // ... above 64
  int warps = 4;
  int stages = 1;  // K/V blocks held in shared memory
  int registers_per_thread = 255;
  bool softmax_overlap = false;  // softmax hidden under the GEMMs (FA3 ping-pong)
  // With softmax_overlap: a CTA's first block computes S alone, then its
  // softmax with no GEMM of its own in flight, so that block's softmax is not
  // hidden (our Hopper kernel's code; unknown for a library's).
  bool first_block_softmax_exposed = false;
  // With softmax_overlap: a warpgroup's softmax waits for its own Q K^T and its
  // next Q K^T waits for that softmax's P, the warpgroups in turn, so a block
  // costs at least its Q K^T GEMMs plus its softmax; only P V hides the
  // softmax (our Hopper kernel's code).
  bool softmax_waits_for_scores = false;
  double cta_overhead_s = 0;  // fixed time per CTA: prologue, Q load issue, epilogue
  // A CTA's work outside its K/V loop (Q load issue, pipeline start,
  // epilogue), in turns of the loop: issued on the SM's sub-partitions beside
  // the other resident CTA's turns, so it takes SM time as its blocks do,
  // where cta_overhead is a wait the other CTA's work covers.
  double cta_fixed_turns = 0;
  // Causal: what each of a CTA's masking steps (FlashAttention-2's unrolled
  // masked turns) costs in GEMM time, relative to an unmasked turn; 1: masked
  // blocks are the diagonal's and cost only their mask's instructions.
  double masking_step_cost = 1;
  double kernel_overhead_s = 0;  // fixed time a timed run pays once
  double ramp_and_drain_s = 0;   // fixed time every launch pays after its last CTA
  CausalBlockOrder causal_order = CausalBlockOrder::ascending;
  AttentionDecode decode = AttentionDecode::as_written;
  DecodeTurn decode_turn;

  // Unfused class.
  std::string gemm_kernel = "library";  // GEMM profile of the QK^T and PV GEMMs
  UnfusedLaunches launches = UnfusedLaunches::batched;
  // per_sequence: what each cuBLAS call costs the host before its launch.
  double gemm_call_host_s = 0;
  UnfusedMask mask = UnfusedMask::in_softmax;
  bool safe_softmax_passes = false;  // isneginf, all-reduce and where passes after the softmax
  bool gqa_kv_copy = false;          // K and V copied to every query head before the GEMMs
  double softmax_exps_per_score = 1;
  double softmax_instructions_per_score = 4;
  // When > 0, the softmax runs a CTA per row of S: each row waits for its
  // first read, this cross-thread reduction of its max and sum (SM clock
  // cycles) and its second read, one after another.
  double softmax_row_reduction_cycles = 0;
  // With the CTA per row: what the row's warps issue on the CUDA cores. Every
  // warp of the CTA issues softmax_warp_instructions whatever the row's length
  // (index arithmetic, the cross-thread reduction, the merges); each loop step
  // of a pass (a warp's 32 lanes take 8 keys each from 16-byte loads, 1 on
  // the one-element path) issues softmax_lane_instructions_per_key per key of
  // a lane, for the whole warp even where the row ends inside the step. When
  // > 0, replaces softmax_instructions_per_score for this kernel.
  double softmax_warp_instructions = 0;
  double softmax_lane_instructions_per_key = 0;
  // Rows of at most this many keys run a warp-per-row softmax at its own cost
  // (PyTorch's softmax_warp_forward); 0: one softmax kernel for every length.
  int warp_softmax_max_keys = 0;
  double warp_softmax_instructions_per_score = 4;
  double elementwise_instructions_per_score = 2;  // broadcast add and where passes
  double copy_instructions_per_element = 2;       // the GQA copies of K and V
};

}  // namespace tilesim::hw
