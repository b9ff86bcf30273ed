#include "workloads/attention/score_pass_kernel.hpp"

#include <algorithm>
#include <memory>
#include <vector>

namespace tilesim::workloads {
namespace {

constexpr int kThreads = 256;
constexpr int kRegistersPerThread = 32;
constexpr double kBytesInFlight = kThreads * 4 * 16.0;
constexpr double kMinBytesPerCta = 64 * 1024;
constexpr double kFlopsPerInstruction = 2;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

class ScorePassPrograms final : public gpu::CtaProgramSource {
 public:
  ScorePassPrograms(ScorePass pass, const AttentionShape& shape)
      : pass_(std::move(pass)), shape_(shape) {
    first_cta_.push_back(0);
    for (const std::int64_t kv_len : shape.kv_lens) {
      const double row_bytes = static_cast<double>(kv_len) * hw::bytes_per_element(shape.dtype);
      rows_per_cta_.push_back(std::clamp<std::int64_t>(
          static_cast<std::int64_t>(kMinBytesPerCta / row_bytes), 1, shape.q_len));
      ctas_per_head_.push_back(ceil_div(shape.q_len, rows_per_cta_.back()));
      first_cta_.push_back(first_cta_.back() + shape.heads * ctas_per_head_.back());
    }
  }

  std::int64_t cta_count() const { return first_cta_.back(); }

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    const auto sequence = static_cast<std::size_t>(
        std::upper_bound(first_cta_.begin(), first_cta_.end(), cta_index) - first_cta_.begin() - 1);
    const std::int64_t local = cta_index - first_cta_[sequence];
    const std::int64_t matrix =
        static_cast<std::int64_t>(sequence) * shape_.heads + local / ctas_per_head_[sequence];
    const std::int64_t row_block = local % ctas_per_head_[sequence];
    const std::int64_t rows =
        std::min(rows_per_cta_[sequence], shape_.q_len - row_block * rows_per_cta_[sequence]);
    const double scores = static_cast<double>(rows * shape_.kv_lens[sequence]);
    const double bytes = scores * hw::bytes_per_element(shape_.dtype);

    gpu::CtaProgram program;
    program.segments.push_back({matrix, row_block, 0, shape_.kv_lens[sequence]});
    gpu::CtaStep load;
    load.reads = {
        {{attention_tensor_id(pass_.input, matrix), static_cast<std::uint32_t>(row_block), 0},
         bytes,
         1,
         0,
         1}};
    load.bytes_in_flight = kBytesInFlight;
    load.waits_for_first_data = true;
    gpu::CtaStep store;
    store.write_bytes = bytes;
    // In place: a later pass over the same rows hits if L2 still holds them.
    if (pass_.output == pass_.input) store.write_key = load.reads.front().key;
    store.unit = gpu::ExecutionUnit::fp32;
    store.flops = kFlopsPerInstruction * pass_.fp32_instructions_per_score * scores;
    if (pass_.exps_per_score > 0) {
      load.unit = gpu::ExecutionUnit::sfu;
      load.flops = pass_.exps_per_score * scores;
      program.steps.push_back(std::move(load));
      program.steps.push_back(store);
    } else {
      // Loads, arithmetic and stores of one pass overlap.
      store.reads = std::move(load.reads);
      store.bytes_in_flight = load.bytes_in_flight;
      store.waits_for_first_data = true;
      program.steps.push_back(std::move(store));
    }
    return program;
  }

 private:
  ScorePass pass_;
  AttentionShape shape_;
  std::vector<std::int64_t> first_cta_;  // per sequence, and the total at the end
  std::vector<std::int64_t> rows_per_cta_;
  std::vector<std::int64_t> ctas_per_head_;
};

}  // namespace

gpu::KernelLaunch score_pass_kernel(const ScorePass& pass, const AttentionShape& shape) {
  auto programs = std::make_shared<ScorePassPrograms>(pass, shape);
  gpu::KernelLaunch launch;
  launch.name = pass.name;
  launch.cta_count = programs->cta_count();
  launch.footprint = {kThreads, kRegistersPerThread, 0};
  launch.programs = std::move(programs);
  return launch;
}

}  // namespace tilesim::workloads
