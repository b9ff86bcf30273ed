#include "workloads/attention/score_pass_kernel.hpp"

#include <algorithm>
#include <memory>
#include <vector>

namespace tilesim::workloads {
namespace {

constexpr int kThreads = 256;
constexpr int kRegistersPerThread = 32;
constexpr double kBytesInFlight = kThreads * 4 * 16.0;
// A CTA per row loads its row once, one 16-byte access a thread (rows of up to
// 2048 two-byte keys in one round): at most this much of it in flight.
constexpr double kRowBytesInFlight = kThreads * 16.0;
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
    for (std::size_t sequence = 0; sequence < shape.kv_lens.size(); ++sequence) {
      PassMatrices m = matrices_of(pass_.elements, shape, sequence);
      if (pass_.only_sequence && *pass_.only_sequence != sequence) m.count = 0;
      matrices_.push_back(m);
      if (one_cta_per_row()) {
        // The grid's CTAs (one per row) go to resident slots as slots free, so each slot
        // runs an even share of the sequence's rows, across head boundaries: one chain of
        // rows per slot, no partial wave.
        const std::int64_t rows = m.count * m.rows;
        rows_per_cta_.push_back(rows / std::max<std::int64_t>(1, std::min(rows, pass_.row_slots)));
        ctas_per_matrix_.push_back(0);
        first_cta_.push_back(first_cta_.back() + std::min(rows, pass_.row_slots));
        continue;
      }
      const double row_bytes = static_cast<double>(m.columns) * element_bytes_;
      const auto rows_per_cta = static_cast<std::int64_t>(kMinBytesPerCta / row_bytes);
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
    const RowBlock block = row_block_of(sequence, local);
    const std::int64_t matrix = static_cast<std::int64_t>(sequence) * shape_.heads + block.matrix;
    const std::int64_t row_block = block.index;
    const std::int64_t rows = block.rows;
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
    load.bytes_in_flight =
        one_cta_per_row()
            ? std::min(kRowBytesInFlight, static_cast<double>(m.columns) * element_bytes_)
            : kBytesInFlight;
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
  // A CTA's rows: the matrix (head) its first row lies in, its index there and its row count.
  struct RowBlock {
    std::int64_t matrix = 0;
    std::int64_t index = 0;
    std::int64_t rows = 0;
  };

  bool one_cta_per_row() const { return pass_.row_latency_s > 0 && pass_.row_slots > 0; }

  RowBlock row_block_of(std::size_t sequence, std::int64_t local) const {
    const PassMatrices& m = matrices_[sequence];
    const std::int64_t share = rows_per_cta_[sequence];
    if (one_cta_per_row()) {
      // The first (rows mod slots) slots run one row more.
      const std::int64_t slots = first_cta_[sequence + 1] - first_cta_[sequence];
      const std::int64_t longer = m.count * m.rows - share * slots;
      const std::int64_t first_row = local * share + std::min(local, longer);
      return {first_row / m.rows, local, share + (local < longer ? 1 : 0)};
    }
    const std::int64_t index = local % ctas_per_matrix_[sequence];
    return {local / ctas_per_matrix_[sequence], index, std::min(share, m.rows - index * share)};
  }

  ScorePass pass_;
  AttentionShape shape_;
  double element_bytes_ = hw::bytes_per_element(shape_.dtype);
  std::vector<PassMatrices> matrices_;         // per sequence
  std::vector<std::int64_t> first_cta_;        // per sequence, and the total at the end
  std::vector<std::int64_t> rows_per_cta_;     // per sequence
  std::vector<std::int64_t> ctas_per_matrix_;  // per sequence (blocks of 64 KiB of rows)
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
