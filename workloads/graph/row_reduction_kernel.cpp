#include "workloads/graph/row_reduction_kernel.hpp"

#include <algorithm>

#include "workloads/graph/aten_reduce_geometry.hpp"
#include "workloads/graph/memory_bound_kernel.hpp"

namespace tilesim::workloads {
namespace {

constexpr std::int64_t kRowsForOneRowPerCta = 512;

// A tuned kernel: a row a CTA up to 512 rows, then more (a power of two, so a
// CTA's rows never straddle two blocks), every load of a row in flight at once.
RowReductionGeometry tuned_geometry(std::int64_t rows) {
  RowReductionGeometry geometry;
  while (geometry.rows_per_cta < TensorBlocks::kBlockRows &&
         geometry.rows_per_cta * kRowsForOneRowPerCta < rows) {
    geometry.rows_per_cta *= 2;
  }
  geometry.threads = kMemoryBoundThreads;
  geometry.bytes_in_flight = kMemoryBoundBytesInFlight;
  return geometry;
}

// PyTorch's reduce_kernel lays the reduction out its own way; every other
// kernel as a tuned one.
RowReductionGeometry geometry_of(const RowReductionOp& op, const TensorBlocks& input,
                                 const hw::SmSpec& sm) {
  if (op.family == hw::FrameworkKernelFamily::reduction) {
    return aten_reduce_geometry(op.rows, op.cols, input.element_bytes(), sm.count, sm.max_threads);
  }
  return tuned_geometry(op.rows);
}

class RowReductionPrograms final : public gpu::CtaProgramSource {
 public:
  RowReductionPrograms(const RowReductionOp& op, const KernelGraph& graph, const hw::SmSpec& sm,
                       double cta_setup_s)
      : op_(op),
        input_(graph.tensor(op.input.tensor)),
        output_(graph.tensor(op.output.tensor)),
        cost_(row_reduction_cost(op.kind)),
        geometry_(geometry_of(op, input_, sm)),
        cta_setup_s_(cta_setup_s) {}

  std::int64_t cta_count() const { return geometry_.cta_count(op_.rows); }
  int threads() const { return static_cast<int>(geometry_.threads); }

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    const std::int64_t band = cta_index / geometry_.ctas_per_row;
    const std::int64_t part = cta_index % geometry_.ctas_per_row;
    const std::int64_t row_begin = band * geometry_.rows_per_cta;
    const std::int64_t cols_per_part =
        (op_.cols + geometry_.ctas_per_row - 1) / geometry_.ctas_per_row;
    const TensorRegion region{row_begin, std::min(op_.rows, row_begin + geometry_.rows_per_cta),
                              std::min(op_.cols, part * cols_per_part),
                              std::min(op_.cols, (part + 1) * cols_per_part)};
    const auto rows = static_cast<double>(region.row_end - region.row_begin);
    gpu::CtaProgram program;
    gpu::CtaStep load;
    load.reads = input_.reads(region.shifted(op_.input.col_offset));
    load.unit = gpu::ExecutionUnit::fp32;
    load.flops = cost_.per_element.fp32_flops * region.elements();
    load.bytes_in_flight = geometry_.bytes_in_flight;
    load.first_data_waits = 1;
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
  RowReductionGeometry geometry_;
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
                                       const KernelGraph& graph, const hw::SmSpec& sm,
                                       double cta_setup_s) {
  auto programs = std::make_shared<RowReductionPrograms>(op, graph, sm, cta_setup_s);
  const std::int64_t ctas = programs->cta_count();
  const int threads = programs->threads();
  return memory_bound_launch(std::move(name), ctas, std::move(programs), threads);
}

}  // namespace tilesim::workloads
