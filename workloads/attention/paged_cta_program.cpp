#include "workloads/attention/paged_cta_program.hpp"

#include <algorithm>

#include "workloads/attention/attention_kernel_launch.hpp"
#include "workloads/attention/attention_tensors.hpp"

namespace tilesim::workloads {
namespace {

constexpr double kFp32Bytes = 4;
constexpr double kPageNumberBytes = 4;  // int32 entries of the page table
constexpr double kFlopsPerInstruction = 2;
// Per logit: running max and exp sum (FMNMX, FADD) around the exp.
constexpr double kSoftmaxInstructionsPerLogit = 2;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

}  // namespace

PagedCtaProgramBuilder::PagedCtaProgramBuilder(const AttentionShape& shape,
                                               const hw::HardwareSpec& spec)
    : shape_(shape), chunk_pages_(key_chunk_blocks(shape, shape.page_size)) {
  const double page_bytes =
      static_cast<double>(shape.page_size * shape.head_dim) * hw::bytes_per_element(shape.dtype);
  const double round_trip_s = spec.hbm.latency_s + spec.l2.latency_s;
  bytes_in_flight_ = kWarps * page_bytes * spec.hbm.latency_s / round_trip_s;
}

std::int64_t PagedCtaProgramBuilder::query_matrix(const PagedWorkItem& item) const {
  return item.sequence * shape_.heads + item.head;
}

double PagedCtaProgramBuilder::partial_bytes_per_row() const {
  return static_cast<double>(shape_.head_dim) * hw::bytes_per_element(shape_.dtype) +
         2 * kFp32Bytes;
}

void PagedCtaProgramBuilder::add_attention(gpu::CtaProgram& program,
                                           const PagedWorkItem& item) const {
  program.segments.push_back({query_matrix(item), 0, item.key_begin, item.key_end});
  if (item.key_end <= item.key_begin) return;
  add_pass(program, item, Pass::keys);
  add_softmax(program, item);
  add_pass(program, item, Pass::values);
}

void PagedCtaProgramBuilder::add_pass(gpu::CtaProgram& program, const PagedWorkItem& item,
                                      Pass pass) const {
  const double element_bytes = hw::bytes_per_element(shape_.dtype);
  const double d = static_cast<double>(shape_.head_dim);
  const std::int64_t kv_matrix = item.sequence * shape_.kv_heads + item.head / shape_.group_size();
  const AttentionArray array = pass == Pass::keys ? AttentionArray::key : AttentionArray::value;
  const std::int64_t first_page = item.key_begin / shape_.page_size;
  const std::int64_t end_page = ceil_div(item.key_end, shape_.page_size);
  for (std::int64_t begin = first_page; begin < end_page;) {
    const std::int64_t end = std::min(end_page, (begin / chunk_pages_ + 1) * chunk_pages_);
    const auto chunk = static_cast<std::uint32_t>(begin / chunk_pages_);
    const std::int64_t keys =
        std::min(item.key_end, end * shape_.page_size) - begin * shape_.page_size;
    gpu::CtaStep step;
    step.reads = {
        {{attention_tensor_id(AttentionArray::page_table, item.sequence), 0, chunk},
         static_cast<double>(end - begin) * kPageNumberBytes,
         1,
         begin,
         end},
        {{attention_tensor_id(array, kv_matrix), 0, chunk},
         static_cast<double>(keys) * d * element_bytes,
         1,
         begin,
         end},
    };
    const bool first = pass == Pass::keys && begin == first_page;
    if (first) {
      step.reads.push_back({{attention_tensor_id(AttentionArray::query, query_matrix(item)), 0, 0},
                            d * element_bytes,
                            1,
                            0,
                            1});
    }
    step.bytes_in_flight = bytes_in_flight_;
    step.first_data_waits = first ? 1 : 0;
    // One FMA per key and head-dim element, for Q K^T and for P V alike.
    step.unit = gpu::ExecutionUnit::fp32;
    step.flops = 2 * static_cast<double>(keys) * d;
    step.segment = 0;
    program.steps.push_back(std::move(step));
    begin = end;
  }
}

void PagedCtaProgramBuilder::add_softmax(gpu::CtaProgram& program,
                                         const PagedWorkItem& item) const {
  const auto logits = static_cast<double>(item.key_end - item.key_begin);
  gpu::CtaStep exponentials;
  exponentials.unit = gpu::ExecutionUnit::sfu;
  exponentials.flops = logits;
  program.steps.push_back(exponentials);
  gpu::CtaStep reductions;
  reductions.unit = gpu::ExecutionUnit::fp32;
  reductions.flops = kFlopsPerInstruction * kSoftmaxInstructionsPerLogit * logits;
  program.steps.push_back(reductions);
}

void PagedCtaProgramBuilder::add_output_store(gpu::CtaProgram& program,
                                              const PagedWorkItem& /*item*/) const {
  gpu::CtaStep store;
  store.unit = gpu::ExecutionUnit::fp32;
  store.flops = kFlopsPerInstruction * static_cast<double>(shape_.head_dim);
  store.write_bytes = static_cast<double>(shape_.head_dim) * hw::bytes_per_element(shape_.dtype);
  program.steps.push_back(store);
}

void PagedCtaProgramBuilder::add_partial_store(gpu::CtaProgram& program, const PagedWorkItem& item,
                                               std::uint32_t slot) const {
  gpu::CtaStep store;
  store.write_bytes = partial_bytes_per_row();
  store.write_key =
      gpu::BlockKey{attention_tensor_id(AttentionArray::partial, query_matrix(item)), 0, slot};
  program.steps.push_back(store);
}

}  // namespace tilesim::workloads
