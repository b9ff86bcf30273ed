#include "workloads/graph/elementwise_kernel.hpp"

#include "workloads/graph/memory_bound_kernel.hpp"

namespace tilesim::workloads {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

class ElementwisePrograms final : public gpu::CtaProgramSource {
 public:
  ElementwisePrograms(const ElementwiseOp& op, const KernelGraph& graph)
      : op_(op),
        output_(graph.tensor(op.output.tensor)),
        cost_(elementwise_cost(op.function)),
        chunks_(ceil_div(op.cols, TensorBlocks::kBlockCols)) {
    for (const TensorSlice& input : op.inputs) inputs_.push_back(graph.tensor(input.tensor));
  }

  std::int64_t cta_count() const { return ceil_div(op_.rows, TensorBlocks::kBlockRows) * chunks_; }

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    const std::int64_t band = cta_index / chunks_;
    const std::int64_t chunk = cta_index % chunks_;
    const TensorRegion region{band * TensorBlocks::kBlockRows,
                              std::min(op_.rows, (band + 1) * TensorBlocks::kBlockRows),
                              chunk * TensorBlocks::kBlockCols,
                              std::min(op_.cols, (chunk + 1) * TensorBlocks::kBlockCols)};
    gpu::CtaProgram program;
    gpu::CtaStep load;
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
      for (const gpu::BlockRead& read :
           inputs_[i].reads(region.shifted(op_.inputs[i].col_offset))) {
        load.reads.push_back(read);
      }
    }
    load.unit = gpu::ExecutionUnit::fp32;
    load.flops = cost_.fp32_flops * region.elements();
    load.bytes_in_flight = kMemoryBoundBytesInFlight;
    load.waits_for_first_data = true;
    program.steps.push_back(std::move(load));
    add_compute_step(program, gpu::ExecutionUnit::sfu, cost_.sfu_ops * region.elements());
    add_block_stores(program, output_, region.shifted(op_.output.col_offset));
    return program;
  }

 private:
  ElementwiseOp op_;
  TensorBlocks output_;
  std::vector<TensorBlocks> inputs_;
  ElementwiseCost cost_;
  std::int64_t chunks_;
};

}  // namespace

// Per element, as a CUDA kernel computes it: SiLU is x / (1 + exp(-x)) (an
// exp and a reciprocal); RoPE rotates pairs with a sin and a cos per pair;
// GELU's tanh form is one tanh and seven flops.
ElementwiseCost elementwise_cost(ElementwiseFunction function) {
  switch (function) {
    case ElementwiseFunction::add:
    case ElementwiseFunction::mul:
    case ElementwiseFunction::relu:
      return {1, 0};
    case ElementwiseFunction::silu_mul:
      return {3, 2};
    case ElementwiseFunction::silu:
      return {2, 2};
    case ElementwiseFunction::rope:
      return {3, 1};
    case ElementwiseFunction::gelu:
      return {7, 1};
    case ElementwiseFunction::copy:
      return {0, 0};
    case ElementwiseFunction::rsqrt:
      return {0, 1};
  }
  return {};
}

gpu::KernelLaunch elementwise_kernel(std::string name, const ElementwiseOp& op,
                                     const KernelGraph& graph) {
  auto programs = std::make_shared<ElementwisePrograms>(op, graph);
  const std::int64_t ctas = programs->cta_count();
  return memory_bound_launch(std::move(name), ctas, std::move(programs));
}

}  // namespace tilesim::workloads
