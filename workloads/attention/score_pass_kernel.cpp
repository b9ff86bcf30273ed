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
constexpr int kWarpLanes = 32;
// A CTA-per-row kernel is simulated with at most this many CTAs a launch
// (about 16 waves of 8 resident rows on 132 SMs): validation 3's 8 x 2048-key
// row has 65536 rows a launch, whose exact grid costs 2.5e7 events, over the
// budget (docs/limits.md). Packed rows keep their costs (SoftmaxRowCost); what
// packing changes is only the granularity of the last wave, at most one
// packed CTA of a slot's ~16.
constexpr std::int64_t kMaxRowCtas = 16384;

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
      const std::int64_t rows_per_cta =
          pass_.row_cost ? ceil_div(m.count * m.rows, kMaxRowCtas)
                         : static_cast<std::int64_t>(kMinBytesPerCta / row_bytes);
      rows_per_cta_.push_back(
          std::clamp<std::int64_t>(rows_per_cta, 1, std::max<std::int64_t>(1, m.rows)));
      ctas_per_matrix_.push_back(ceil_div(m.rows, rows_per_cta_.back()));
      first_cta_.push_back(first_cta_.back() + m.count * ctas_per_matrix_.back());
    }
  }

  std::int64_t cta_count() const { return first_cta_.back(); }

  // Rows `first_query`.. of a CTA-per-row kernel, one after another: their
  // warps' instructions on the CUDA cores (each pass walks a row in steps of
  // 32 lanes' keys; the step a row ends in is issued whole), and the part of
  // each row's chain of waits that the SM's other resident rows' instructions
  // do not cover; every row after the first also its own CTA's start.
  void cost_rows(const SoftmaxRowCost& cost, std::int64_t first_query, std::int64_t rows,
                 const PassMatrices& m, gpu::CtaStep& store) const {
    const std::int64_t step_keys = std::int64_t{kWarpLanes} * cost.keys_per_lane;
    double flops = 0;
    double setup_s = static_cast<double>(rows - 1) * cost.row_start_s;
    for (std::int64_t query = first_query; query < first_query + rows; ++query) {
      const std::int64_t visible =
          shape_.causal ? std::min(m.columns, m.columns - m.rows + query + 1) : m.columns;
      const auto steps =
          static_cast<double>(ceil_div(visible, step_keys) + ceil_div(m.columns, step_keys));
      const double row_flops = kFlopsPerInstruction * kWarpLanes *
                               (cost.warps * cost.warp_instructions +
                                steps * cost.keys_per_lane * cost.lane_instructions_per_key);
      flops += row_flops;
      const double shared_issue_s = cost.ctas_per_sm * row_flops / cost.sm_fp32_flops_per_s;
      setup_s += std::max(0.0, cost.chain_s - shared_issue_s);
    }
    if (flops > 0) store.flops = flops;
    store.setup_s = setup_s;
  }

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
      if (pass_.row_cost) {
        cost_rows(*pass_.row_cost, row_block * rows_per_cta_[sequence], rows, m, store);
      }
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
