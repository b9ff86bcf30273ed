#include "workloads/graph/decoder_layer.hpp"

#include <fmt/format.h>

#include <memory>

#include "workloads/gemm/gemm_fusion.hpp"

namespace tilesim::workloads {
namespace {

// Per element of the accumulator: RMSNorm's square and add over A (prologue)
// and its 1/rms scale of the output row (epilogue); a residual add; SiLU on
// the gate half (an exp and a reciprocal) times the up half.
constexpr double kNormPrologueFlops = 2;
constexpr double kNormScaleFlops = 1;
constexpr double kResidualAddFlops = 1;
constexpr double kSiluMulSfuOps = 1;
constexpr double kSiluMulFlops = 1.5;

struct FusedWork {
  bool norm_prologue = false;
  std::optional<int> residual;  // tensor added in the epilogue
  bool silu_mul = false;
};

class DecoderLayerBuilder {
 public:
  DecoderLayerBuilder(const DecoderLayerShape& shape, const config::SourceLocation& where)
      : shape_(shape), where_(where) {}

  int input() { return activation(shape_.hidden); }

  // Adds one layer reading `x`; returns the tensor it writes.
  int add_layer(int x, const std::string& prefix, bool fused) {
    prefix_ = prefix;
    return fused ? add_fused_layer(x) : add_unfused_layer(x);
  }

  KernelGraph take() { return std::move(graph_); }

 private:
  std::int64_t qkv_cols() const { return (shape_.heads + 2 * shape_.kv_heads) * shape_.head_dim; }
  std::int64_t attention_cols() const { return shape_.heads * shape_.head_dim; }

  int activation(std::int64_t cols) { return graph_.add_tensor(shape_.rows(), cols, shape_.dtype); }

  void add_node(const std::string& name, decltype(GraphNode::op) op) {
    GraphNode node;
    node.name = prefix_ + name;
    node.op = std::move(op);
    graph_.add_node(std::move(node));
  }

  void add_rmsnorm(const std::string& name, int in, int out) {
    add_node(name,
             RowReductionOp{RowReduction::rmsnorm, shape_.rows(), shape_.hidden, {in}, {out}});
  }

  void add_elementwise(const std::string& name, ElementwiseFunction function,
                       std::vector<TensorSlice> inputs, TensorSlice output, std::int64_t cols) {
    add_node(name, ElementwiseOp{function, shape_.rows(), cols, std::move(inputs), output});
  }

  void add_gemm(const std::string& name, std::int64_t n, std::int64_t k, int a, int out,
                const FusedWork& work) {
    auto fusion = std::make_shared<GemmFusion>();
    fusion->tensors = {graph_.new_tensor_id(), graph_.new_tensor_id(), graph_.new_tensor_id(),
                       graph_.new_tensor_id()};
    fusion->a = graph_.tensor(a);
    fusion->output = graph_.tensor(out);
    if (work.norm_prologue) {
      fusion->prologue_flops_per_a_element = kNormPrologueFlops;
      fusion->epilogue_flops_per_element += kNormScaleFlops;
    }
    if (work.residual) {
      fusion->residual = graph_.tensor(*work.residual);
      fusion->epilogue_flops_per_element += kResidualAddFlops;
    }
    if (work.silu_mul) {
      fusion->epilogue_sfu_ops_per_element = kSiluMulSfuOps;
      fusion->epilogue_flops_per_element += kSiluMulFlops;
      fusion->output_column_divisor = 2;
    }
    GemmWorkload gemm;
    gemm.name = prefix_ + name;
    gemm.problem = {shape_.rows(), n, k, shape_.dtype, shape_.dtype};
    gemm.schedule = shape_.gemm_schedule;
    // Library decode GEMMs add their K slices in a separate pass rather than
    // through a serial fixup chain of whole accumulator tiles.
    gemm.reduction = SplitKReduction::parallel;
    gemm.kernel = shape_.kernel;
    gemm.fusion = std::move(fusion);
    gemm.where = where_;
    gemm.kernel_where = where_;
    add_node(name, GemmOp{std::move(gemm)});
  }

  void add_attention() {
    AttentionWorkload attention;
    attention.name = prefix_ + "attention";
    AttentionShape& s = attention.shape;
    s.batch = shape_.batch;
    s.heads = shape_.heads;
    s.kv_heads = shape_.kv_heads;
    s.head_dim = shape_.head_dim;
    s.dtype = shape_.dtype;
    const bool prefill = shape_.phase == LayerPhase::prefill;
    s.q_len = prefill ? shape_.tokens : 1;
    s.kv_lens.assign(static_cast<std::size_t>(shape_.batch),
                     prefill ? shape_.tokens : shape_.context);
    s.causal = prefill;
    attention.variant = shape_.attention_variant;
    attention.kernel = shape_.kernel;
    attention.where = where_;
    attention.variant_where = where_;
    add_node("attention", AttentionOp{std::move(attention)});
  }

  // Q and K rotated in place, in the QKV projection's output.
  void add_rope(int qkv) {
    add_elementwise("rope", ElementwiseFunction::rope, {{qkv}}, {qkv},
                    (shape_.heads + shape_.kv_heads) * shape_.head_dim);
  }

  int add_unfused_layer(int x) {
    const std::int64_t hidden = shape_.hidden;
    const std::int64_t intermediate = shape_.intermediate;
    const int x_norm = activation(hidden);
    add_rmsnorm("rmsnorm_attn", x, x_norm);
    const int qkv = activation(qkv_cols());
    add_gemm("qkv_proj", qkv_cols(), hidden, x_norm, qkv, {});
    add_rope(qkv);
    add_attention();
    const int attended = activation(attention_cols());
    const int projected = activation(hidden);
    add_gemm("o_proj", hidden, attention_cols(), attended, projected, {});
    const int h = activation(hidden);
    add_elementwise("residual_attn", ElementwiseFunction::add, {{x}, {projected}}, {h}, hidden);
    const int h_norm = activation(hidden);
    add_rmsnorm("rmsnorm_mlp", h, h_norm);
    const int gate_up = activation(2 * intermediate);
    add_gemm("gate_up_proj", 2 * intermediate, hidden, h_norm, gate_up, {});
    const int act = activation(intermediate);
    add_elementwise("silu_mul", ElementwiseFunction::silu_mul, {{gate_up}, {gate_up, intermediate}},
                    {act}, intermediate);
    const int down = activation(hidden);
    add_gemm("down_proj", hidden, intermediate, act, down, {});
    const int out = activation(hidden);
    add_elementwise("residual_mlp", ElementwiseFunction::add, {{h}, {down}}, {out}, hidden);
    return out;
  }

  int add_fused_layer(int x) {
    const std::int64_t hidden = shape_.hidden;
    const std::int64_t intermediate = shape_.intermediate;
    const int qkv = activation(qkv_cols());
    add_gemm("qkv_proj+rmsnorm", qkv_cols(), hidden, x, qkv,
             {.norm_prologue = true, .residual = std::nullopt, .silu_mul = false});
    add_rope(qkv);
    add_attention();
    const int attended = activation(attention_cols());
    const int h = activation(hidden);
    add_gemm("o_proj+residual", hidden, attention_cols(), attended, h,
             {.norm_prologue = false, .residual = x, .silu_mul = false});
    const int act = activation(intermediate);
    add_gemm("gate_up_proj+rmsnorm+silu_mul", 2 * intermediate, hidden, h, act,
             {.norm_prologue = true, .residual = std::nullopt, .silu_mul = true});
    const int out = activation(hidden);
    add_gemm("down_proj+residual", hidden, intermediate, act, out,
             {.norm_prologue = false, .residual = h, .silu_mul = false});
    return out;
  }

  DecoderLayerShape shape_;
  config::SourceLocation where_;
  KernelGraph graph_;
  std::string prefix_;
};

}  // namespace

KernelGraph decoder_layer_graph(const DecoderLayerShape& shape, bool fused,
                                const config::SourceLocation& where) {
  DecoderLayerBuilder builder(shape, where);
  int x = builder.input();
  for (int layer = 0; layer < shape.layers; ++layer) {
    const std::string prefix = shape.layers > 1 ? fmt::format("L{}.", layer) : "";
    x = builder.add_layer(x, prefix, fused);
  }
  return builder.take();
}

}  // namespace tilesim::workloads
