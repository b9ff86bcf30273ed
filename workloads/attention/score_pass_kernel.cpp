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

// Matrices, rows and columns of the pass over one sequence.
struct PassMatrices {
  std::int64_t count = 0;
  std::int64_t rows = 0;
  std::int64_t columns = 0;
};

PassMatrices matrices_of(ScorePassElements elements, const AttentionShape& shape,
                         std::size_t sequence) {
  const std::int64_t kv_len = shape.kv_lens[sequence];
  switch (elements) {
    case ScorePassElements::scores:
      return {shape.heads, shape.q_len, kv_len};
    case ScorePassElements::mask:
      return {sequence == 0 ? 1 : 0, shape.q_len, shape.kv_lens.front()};
    case ScorePassElements::keys:
      return {shape.heads, kv_len, shape.head_dim};
    case ScorePassElements::queries:
      return {shape.heads, shape.q_len, shape.head_dim};
  }
  return {};
}

class ScorePassPrograms final : public gpu::CtaProgramSource {
 public:
  ScorePassPrograms(ScorePass pass, const AttentionShape& shape)
      : pass_(std::move(pass)), shape_(shape) {
    first_cta_.push_back(0);
    const double element_bytes = hw::bytes_per_element(shape.dtype);
    for (std::size_t sequence = 0; sequence < shape.kv_lens.size(); ++sequence) {
      PassMatrices m = matrices_of(pass_.elements, shape, sequence);
      if (pass_.only_sequence && *pass_.only_sequence != sequence) m.count = 0;
      const double row_bytes = static_cast<double>(m.columns) * element_bytes;
      matrices_.push_back(m);
      std::int64_t rows_per_cta = static_cast<std::int64_t>(kMinBytesPerCta / row_bytes);
      if (pass_.row_latency_s > 0 && pass_.row_slots > 0) {
        rows_per_cta = std::min(rows_per_cta, ceil_div(m.count * m.rows, pass_.row_slots));
      }
      rows_per_cta_.push_back(
          std::clamp<std::int64_t>(rows_per_cta, 1, std::max<std::int64_t>(1, m.rows)));
      ctas_per_matrix_.push_back(ceil_div(m.rows, rows_per_cta_.back()));
      first_cta_.push_back(first_cta_.back() + m.count * ctas_per_matrix_.back());
    }
  }

  std::int64_t cta_count() const { return first_cta_.back(); }

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    const auto sequence = static_cast<std::size_t>(
        std::upper_bound(first_cta_.begin(), first_cta_.end(), cta_index) - first_cta_.begin() - 1);
    const PassMatrices& m = matrices_[sequence];
    const std::int64_t local = cta_index - first_cta_[sequence];
    const std::int64_t matrix =
        static_cast<std::int64_t>(sequence) * shape_.heads + local / ctas_per_matrix_[sequence];
    const std::int64_t row_block = local % ctas_per_matrix_[sequence];
    const std::int64_t rows =
        std::min(rows_per_cta_[sequence], m.rows - row_block * rows_per_cta_[sequence]);
    const double elements = static_cast<double>(rows * m.columns);

    gpu::CtaProgram program;
    program.segments.push_back({matrix, row_block, 0, m.columns});
    gpu::CtaStep load;
    load.reads = {
        {{attention_tensor_id(pass_.input, matrix), static_cast<std::uint32_t>(row_block), 0},
         elements * pass_.read_bytes_per_element,
         1,
         0,
         1}};
    load.bytes_in_flight = kBytesInFlight;
    load.first_data_waits = 1;
    gpu::CtaStep store;
    store.write_bytes = elements * pass_.write_bytes_per_element;
    // In place: a later pass over the same rows hits if L2 still holds them.
    if (pass_.output == pass_.input) store.write_key = load.reads.front().key;
    store.unit = gpu::ExecutionUnit::fp32;
    store.flops = kFlopsPerInstruction * pass_.fp32_instructions_per_element * elements;
    if (pass_.exps_per_element > 0) {
      load.unit = gpu::ExecutionUnit::sfu;
      load.flops = pass_.exps_per_element * elements;
      store.setup_s = static_cast<double>(rows) * pass_.row_latency_s;
      program.steps.push_back(std::move(load));
      program.steps.push_back(store);
    } else {
      // Loads, arithmetic and stores of one pass overlap.
      store.reads = std::move(load.reads);
      store.bytes_in_flight = load.bytes_in_flight;
      store.first_data_waits = 1;
      program.steps.push_back(std::move(store));
    }
    return program;
  }

 private:
  ScorePass pass_;
  AttentionShape shape_;
  std::vector<PassMatrices> matrices_;         // per sequence
  std::vector<std::int64_t> first_cta_;        // per sequence, and the total at the end
  std::vector<std::int64_t> rows_per_cta_;     // per sequence
  std::vector<std::int64_t> ctas_per_matrix_;  // per sequence
};

}  // namespace

gpu::KernelLaunch score_pass_kernel(const ScorePass& pass, const AttentionShape& shape) {
  auto programs = std::make_shared<ScorePassPrograms>(pass, shape);
  gpu::KernelLaunch launch;
  launch.name = pass.name;
  launch.cta_count = programs->cta_count();
  launch.footprint = score_pass_footprint();
  launch.programs = std::move(programs);
  return launch;
}

gpu::CtaFootprint score_pass_footprint() {
  return {kThreads, kRegistersPerThread, 0};
}

}  // namespace tilesim::workloads
