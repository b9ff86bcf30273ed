#pragma once
// A kernel graph before lowering: activation tensors, and nodes -- each one
// kernel (or the few kernels of a GEMM schedule or attention variant) on a
// stream, after the nodes it names. The YAML `graph:` form and the decoder
// layer preset both build one; graph_lowering turns it into a KernelPlan.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "hwmodels/framework_profile.hpp"
#include "workloads/attention/attention_workload.hpp"
#include "workloads/gemm/gemm_workload.hpp"
#include "workloads/graph/tensor_blocks.hpp"

namespace tilesim::workloads {

// Columns [col_offset, col_offset + cols of the op) of graph tensor `tensor`.
struct TensorSlice {
  int tensor = 0;
  std::int64_t col_offset = 0;
};

// rsqrt: only framework-granularity layers launch it (1/sqrt of RMSNorm's mean).
enum class ElementwiseFunction { add, mul, silu_mul, rope, silu, gelu, relu, copy, rsqrt };

// out[r][c] = f(inputs at [r][c]); silu_mul reads gate and up as two inputs.
struct ElementwiseOp {
  ElementwiseFunction function = ElementwiseFunction::add;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<TensorSlice> inputs;
  TensorSlice output;
  // A framework's kernel (configs/frameworks): each CTA pays its family's setup.
  std::optional<hw::FrameworkKernelFamily> family;
};

// `mean` writes one value per row (its output tensor has one column).
enum class RowReduction { rmsnorm, layernorm, softmax, mean };

// A reduction over each row, then the row rescaled: out = f(in).
struct RowReductionOp {
  RowReduction kind = RowReduction::rmsnorm;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  TensorSlice input;
  TensorSlice output;
  std::optional<hw::FrameworkKernelFamily> family;  // as ElementwiseOp's
};

// A GEMM through the schedule registry; its `fusion` names the graph tensors
// it reads and writes and the work fused into it.
struct GemmOp {
  GemmWorkload gemm;
};

// An attention variant's kernels; they read and write their own arrays.
struct AttentionOp {
  AttentionWorkload attention;
};

struct GraphNode {
  std::string name;
  config::SourceLocation where;  // the study entry it came from, for lowering's problems
  int stream = 0;
  std::vector<int> after;  // earlier nodes it waits for, beyond its stream predecessor
  // An op a framework dispatches from the host: eagerly launched, its first
  // kernel waits for the hardware's launch.framework_dispatch.
  bool framework_op = false;
  std::variant<ElementwiseOp, RowReductionOp, GemmOp, AttentionOp> op;
};

class KernelGraph {
 public:
  // A new activation tensor; returns its index for TensorSlice::tensor.
  int add_tensor(std::int64_t rows, std::int64_t cols, hw::DataType dtype);
  // A block-key id for a tensor only one kernel touches (weights, workspaces).
  std::uint32_t new_tensor_id() { return kFirstTensorId + next_id_++; }
  // Appends a node; returns its index for GraphNode::after.
  int add_node(GraphNode node);

  const std::vector<TensorBlocks>& tensors() const { return tensors_; }
  const TensorBlocks& tensor(int index) const { return tensors_.at(index); }
  const std::vector<GraphNode>& nodes() const { return nodes_; }
  // A node to change in place, e.g. a GEMM whose `auto` was chosen.
  GraphNode& node(std::size_t index) { return nodes_.at(index); }

 private:
  // Above the GEMM's own ids (0-3) and attention's (array << 24, arrays 1-7).
  static constexpr std::uint32_t kFirstTensorId = std::uint32_t{64} << 24;
  std::uint32_t next_id_ = 0;
  std::vector<TensorBlocks> tensors_;
  std::vector<GraphNode> nodes_;
};

}  // namespace tilesim::workloads
