#include "workloads/graph/row_reduction_kernel.hpp"

#include <algorithm>

#include "workloads/graph/memory_bound_kernel.hpp"

namespace tilesim::workloads {
namespace {

constexpr std::int64_t kRowsForOneRowPerCta = 512;

// A power of two, so a CTA's rows never straddle two blocks.
std::int64_t rows_per_cta(std::int64_t rows) {
  std::int64_t per_cta = 1;
  while (per_cta < TensorBlocks::kBlockRows && per_cta * kRowsForOneRowPerCta < rows) {
    per_cta *= 2;
  }
  return per_cta;
}

class RowReductionPrograms final : public gpu::CtaProgramSource {
 public:
  RowReductionPrograms(const RowReductionOp& op, const KernelGraph& graph, double cta_setup_s)
      : op_(op),
        input_(graph.tensor(op.input.tensor)),
        output_(graph.tensor(op.output.tensor)),
        cost_(row_reduction_cost(op.kind)),
        rows_per_cta_(rows_per_cta(op.rows)),
        cta_setup_s_(cta_setup_s) {}

  std::int64_t cta_count() const { return (op_.rows + rows_per_cta_ - 1) / rows_per_cta_; }

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    const std::int64_t row_begin = cta_index * rows_per_cta_;
    const TensorRegion region{row_begin, std::min(op_.rows, row_begin + rows_per_cta_), 0,
                              op_.cols};
    const auto rows = static_cast<double>(region.row_end - region.row_begin);
    gpu::CtaProgram program;
    gpu::CtaStep load;
    load.reads = input_.reads(region.shifted(op_.input.col_offset));
    load.unit = gpu::ExecutionUnit::fp32;
    load.flops = cost_.per_element.fp32_flops * region.elements();
    load.bytes_in_flight = kMemoryBoundBytesInFlight;
    load.waits_for_first_data = true;
    load.setup_s = cta_setup_s_;
    program.steps.push_back(std::move(load));
    add_compute_step(program, gpu::ExecutionUnit::sfu,
                     cost_.per_element.sfu_ops * region.elements() + cost_.sfu_ops_per_row * rows);
    add_block_stores(program, output_, region.shifted(op_.output.col_offset));
    return program;
  }

 private:
  RowReductionOp op_;
  TensorBlocks input_;
  TensorBlocks output_;
  RowReductionCost cost_;
  std::int64_t rows_per_cta_;
  double cta_setup_s_;
};

}  // namespace

// Per element: RMSNorm squares and sums, then scales by 1/rms and the gain;
// LayerNorm also subtracts the mean and adds the bias; softmax takes the max,
// exponentiates, sums and divides; a mean only sums.
RowReductionCost row_reduction_cost(RowReduction kind) {
  switch (kind) {
    case RowReduction::rmsnorm:
      return {{4, 0}, 1};
    case RowReduction::layernorm:
      return {{8, 0}, 1};
    case RowReduction::softmax:
      return {{4, 1}, 1};
    case RowReduction::mean:
      return {{1, 0}, 0};
  }
  return {};
}

gpu::KernelLaunch row_reduction_kernel(std::string name, const RowReductionOp& op,
                                       const KernelGraph& graph, double cta_setup_s) {
  auto programs = std::make_shared<RowReductionPrograms>(op, graph, cta_setup_s);
  const std::int64_t ctas = programs->cta_count();
  return memory_bound_launch(std::move(name), ctas, std::move(programs));
}

}  // namespace tilesim::workloads
