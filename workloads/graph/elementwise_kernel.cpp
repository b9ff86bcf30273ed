#include "workloads/graph/elementwise_kernel.hpp"

#include "workloads/graph/memory_bound_kernel.hpp"

namespace tilesim::workloads {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// A framework's elementwise kernel launches a CTA per few hundred elements (ATen:
// 128 threads x 4), so a small tensor is spread over many SMs: its CTAs take
// single rows of a block while that keeps the grid within a few waves, then
// more rows (a power of two, so a CTA never straddles two blocks). A tuned
// kernel takes whole 64-row blocks.
constexpr std::int64_t kFrameworkCtasMax = 2048;

std::int64_t rows_per_cta(const ElementwiseOp& op, std::int64_t chunks) {
  if (!op.family) return TensorBlocks::kBlockRows;
  std::int64_t per_cta = 1;
  while (per_cta < TensorBlocks::kBlockRows &&
         ceil_div(op.rows, per_cta) * chunks > kFrameworkCtasMax) {
    per_cta *= 2;
  }
  return per_cta;
}

// The loads each thread waits for one after another, as ATen's kernels are
// written: elementwise_kernel<128, 4> loads, computes and stores one element
// at a time (a store may alias the next load, so the compiler keeps them in
// order), and unrolled_elementwise_kernel's casting loads go through a switch
// on the dtype, element by element; the vectorized and cat kernels, and tuned
// kernels, issue a thread's loads together.
constexpr std::uint8_t kAtenThreadElements = 4;

std::uint8_t loads_in_sequence(std::optional<hw::FrameworkKernelFamily> family) {
  using F = hw::FrameworkKernelFamily;
  return family == F::generic || family == F::upcast_copy ? kAtenThreadElements : 1;
}

class ElementwisePrograms final : public gpu::CtaProgramSource {
 public:
  ElementwisePrograms(const ElementwiseOp& op, const KernelGraph& graph, double cta_setup_s)
      : op_(op),
        output_(graph.tensor(op.output.tensor)),
        cost_(elementwise_cost(op.function)),
        chunks_(ceil_div(op.cols, TensorBlocks::kBlockCols)),
        rows_per_cta_(rows_per_cta(op, chunks_)),
        cta_setup_s_(cta_setup_s) {
    for (const TensorSlice& input : op.inputs) inputs_.push_back(graph.tensor(input.tensor));
  }

  std::int64_t cta_count() const { return ceil_div(op_.rows, rows_per_cta_) * chunks_; }

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    const std::int64_t band = cta_index / chunks_;
    const std::int64_t chunk = cta_index % chunks_;
    const TensorRegion region{band * rows_per_cta_, std::min(op_.rows, (band + 1) * rows_per_cta_),
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
    load.first_data_waits = loads_in_sequence(op_.family);
    load.setup_s = cta_setup_s_;
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
  std::int64_t rows_per_cta_;
  double cta_setup_s_;
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
                                     const KernelGraph& graph, double cta_setup_s) {
  auto programs = std::make_shared<ElementwisePrograms>(op, graph, cta_setup_s);
  const std::int64_t ctas = programs->cta_count();
  return memory_bound_launch(std::move(name), ctas, std::move(programs));
}

}  // namespace tilesim::workloads
