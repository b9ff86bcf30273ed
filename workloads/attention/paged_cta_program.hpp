#pragma once
// Builds the programs of vLLM-style PagedAttention decode CTAs (paged_v1,
// paged_v2): one query head of one sequence against a range of its keys, read
// from a KV cache of `page_size`-token pages through the sequence's page table.
//
// As in vLLM's kernel (128 threads, 4 warps, dot products on the CUDA cores):
//   1. per chunk of pages: read the page numbers and the K pages, Q K^T on the
//      CUDA cores (the logits go to shared memory);
//   2. the softmax over all logits: exps on the SFUs, then max and sum on the
//      CUDA cores;
//   3. per chunk of pages: read the page numbers again and the V pages, P V on
//      the CUDA cores.
// Small pages cost bandwidth: a warp loads one page at a time, after the load
// of its page number, so a CTA has warps x page bytes in flight per round trip
// of an L2 hit (the page table) plus an HBM access. Little's law with that
// longer round trip is modelled as proportionally fewer bytes in flight.

#include <cstdint>

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "workloads/attention/attention_workload.hpp"

namespace tilesim::workloads {

struct PagedWorkItem {
  std::int64_t sequence = 0;
  std::int64_t head = 0;
  std::int64_t key_begin = 0;  // a multiple of page_size
  std::int64_t key_end = 0;
};

class PagedCtaProgramBuilder {
 public:
  PagedCtaProgramBuilder(const AttentionShape& shape, const hw::HardwareSpec& spec);

  static constexpr int kThreads = 128;
  static constexpr int kWarps = 4;

  void add_attention(gpu::CtaProgram& program, const PagedWorkItem& item) const;
  // Normalizes and stores O in the input type.
  void add_output_store(gpu::CtaProgram& program, const PagedWorkItem& item) const;
  // Stores the unnormalized O in the input type plus the max logit and exp
  // sum (vLLM v2's tmp_out, max_logits, exp_sums) to workspace slot `slot`.
  void add_partial_store(gpu::CtaProgram& program, const PagedWorkItem& item,
                         std::uint32_t slot) const;
  double partial_bytes_per_row() const;

 private:
  enum class Pass { keys, values };
  void add_pass(gpu::CtaProgram& program, const PagedWorkItem& item, Pass pass) const;
  void add_softmax(gpu::CtaProgram& program, const PagedWorkItem& item) const;
  std::int64_t query_matrix(const PagedWorkItem& item) const;

  AttentionShape shape_;
  double bytes_in_flight_;
  std::int64_t chunk_pages_;
};

}  // namespace tilesim::workloads
