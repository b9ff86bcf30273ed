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

}  // namespace

LayerOps parse_layer_ops(const std::string& fused) {
  if (fused == "true") return LayerOps::fused;
  return fused == "framework" ? LayerOps::framework : LayerOps::unfused;
}

const char* layer_ops_value(LayerOps ops) {
  switch (ops) {
    case LayerOps::fused:
      return "true";
    case LayerOps::unfused:
      return "false";
    case LayerOps::framework:
      return "framework";
  }
  return "?";
}

const char* to_string(LayerOps ops) {
  switch (ops) {
    case LayerOps::fused:
      return "fused";
    case LayerOps::unfused:
      return "unfused";
    case LayerOps::framework:
      return "framework";
  }
  return "?";
}

DecoderGraphBuilder::DecoderGraphBuilder(const DecoderLayerShape& shape, LayerOps ops,
                                         const config::SourceLocation& where)
    : shape_(shape), ops_(ops), where_(where), rows_(shape.rows()) {}

std::int64_t DecoderGraphBuilder::q_cols() const {
  return shape_.heads * shape_.head_dim;
}
std::int64_t DecoderGraphBuilder::kv_cols() const {
  return shape_.kv_heads * shape_.head_dim;
}
std::int64_t DecoderGraphBuilder::qkv_cols() const {
  return q_cols() + 2 * kv_cols();
}

int DecoderGraphBuilder::tensor(std::int64_t rows, std::int64_t cols, hw::DataType dtype) {
  return graph_.add_tensor(rows, cols, dtype);
}

int DecoderGraphBuilder::activation(std::int64_t cols) {
  return tensor(rows_, cols, shape_.dtype);
}

int DecoderGraphBuilder::input() {
  return activation(shape_.hidden);
}

void DecoderGraphBuilder::add_node(const std::string& name, decltype(GraphNode::op) op) {
  GraphNode node;
  node.name = prefix_ + name;
  node.where = where_;
  node.op = std::move(op);
  node.framework_op = ops_ == LayerOps::framework;
  graph_.add_node(std::move(node));
}

void DecoderGraphBuilder::add_rmsnorm(const std::string& name, int in, int out) {
  add_node(name,
           RowReductionOp{RowReduction::rmsnorm, rows_, shape_.hidden, {in}, {out}, std::nullopt});
}

void DecoderGraphBuilder::add_elementwise(const std::string& name, ElementwiseFunction function,
                                          std::vector<TensorSlice> inputs, TensorSlice output,
                                          std::optional<hw::FrameworkKernelFamily> family) {
  const std::int64_t cols = graph_.tensor(output.tensor).cols();
  add_node(name, ElementwiseOp{function, rows_, cols, std::move(inputs), output, family});
}

void DecoderGraphBuilder::add_gemm(const std::string& name, std::int64_t n, std::int64_t k, int a,
                                   int out, const FusedWork& work) {
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
  gemm.problem = {rows_, n, k, shape_.dtype, shape_.dtype};
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

void DecoderGraphBuilder::add_attention() {
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
void DecoderGraphBuilder::add_rope(int qkv) {
  add_node("rope", ElementwiseOp{ElementwiseFunction::rope,
                                 rows_,
                                 (shape_.heads + shape_.kv_heads) * shape_.head_dim,
                                 {{qkv}},
                                 {qkv},
                                 std::nullopt});
}

int DecoderGraphBuilder::add_layer(int x, const std::string& prefix) {
  prefix_ = prefix;
  switch (ops_) {
    case LayerOps::fused:
      return add_fused_layer(x);
    case LayerOps::unfused:
      return add_unfused_layer(x);
    case LayerOps::framework:
      return add_framework_layer(x);
  }
  return x;
}

int DecoderGraphBuilder::add_unfused_layer(int x) {
  const std::int64_t hidden = shape_.hidden;
  const std::int64_t intermediate = shape_.intermediate;
  const int x_norm = activation(hidden);
  add_rmsnorm("rmsnorm_attn", x, x_norm);
  const int qkv = activation(qkv_cols());
  add_gemm("qkv_proj", qkv_cols(), hidden, x_norm, qkv, {});
  add_rope(qkv);
  add_attention();
  const int attended = activation(q_cols());
  const int projected = activation(hidden);
  add_gemm("o_proj", hidden, q_cols(), attended, projected, {});
  const int h = activation(hidden);
  add_elementwise("residual_attn", ElementwiseFunction::add, {{x}, {projected}}, {h});
  const int h_norm = activation(hidden);
  add_rmsnorm("rmsnorm_mlp", h, h_norm);
  const int gate_up = activation(2 * intermediate);
  add_gemm("gate_up_proj", 2 * intermediate, hidden, h_norm, gate_up, {});
  const int act = activation(intermediate);
  add_elementwise("silu_mul", ElementwiseFunction::silu_mul, {{gate_up}, {gate_up, intermediate}},
                  {act});
  const int down = activation(hidden);
  add_gemm("down_proj", hidden, intermediate, act, down, {});
  const int out = activation(hidden);
  add_elementwise("residual_mlp", ElementwiseFunction::add, {{h}, {down}}, {out});
  return out;
}

int DecoderGraphBuilder::add_fused_layer(int x) {
  const std::int64_t hidden = shape_.hidden;
  const std::int64_t intermediate = shape_.intermediate;
  const int qkv = activation(qkv_cols());
  add_gemm("qkv_proj+rmsnorm", qkv_cols(), hidden, x, qkv,
           {.norm_prologue = true, .residual = std::nullopt, .silu_mul = false});
  add_rope(qkv);
  add_attention();
  const int attended = activation(q_cols());
  const int h = activation(hidden);
  add_gemm("o_proj+residual", hidden, q_cols(), attended, h,
           {.norm_prologue = false, .residual = x, .silu_mul = false});
  const int act = activation(intermediate);
  add_gemm("gate_up_proj+rmsnorm+silu_mul", 2 * intermediate, hidden, h, act,
           {.norm_prologue = true, .residual = std::nullopt, .silu_mul = true});
  const int out = activation(hidden);
  add_gemm("down_proj+residual", hidden, intermediate, act, out,
           {.norm_prologue = false, .residual = h, .silu_mul = false});
  return out;
}

// x.to(fp32); pow(2); mean(-1); + eps; rsqrt; x * rstd; .to(bf16); * weight.
// The per-row rstd read by the broadcast multiply and the weight vector are
// counted as the one column and nothing: both are tiny and stay in L2.
int DecoderGraphBuilder::add_framework_rmsnorm(const std::string& name, int x) {
  using F = ElementwiseFunction;
  using K = hw::FrameworkKernelFamily;
  const std::int64_t hidden = shape_.hidden;
  const int x32 = tensor(rows_, hidden, hw::DataType::fp32);
  add_elementwise(name + ".to_fp32", F::copy, {{x}}, {x32}, K::upcast_copy);
  const int squared = tensor(rows_, hidden, hw::DataType::fp32);
  add_elementwise(name + ".pow", F::mul, {{x32}}, {squared}, K::vectorized);
  const int mean = tensor(rows_, 1, hw::DataType::fp32);
  add_node(name + ".mean",
           RowReductionOp{RowReduction::mean, rows_, hidden, {squared}, {mean}, K::reduction});
  const int shifted = tensor(rows_, 1, hw::DataType::fp32);
  add_elementwise(name + ".add_eps", F::add, {{mean}}, {shifted}, K::vectorized);
  const int rstd = tensor(rows_, 1, hw::DataType::fp32);
  add_elementwise(name + ".rsqrt", F::rsqrt, {{shifted}}, {rstd}, K::vectorized);
  const int scaled = tensor(rows_, hidden, hw::DataType::fp32);
  add_elementwise(name + ".mul_rstd", F::mul, {{x32}, {rstd}}, {scaled}, K::generic);
  const int narrowed = activation(hidden);
  add_elementwise(name + ".to_bf16", F::copy, {{scaled}}, {narrowed}, K::vectorized);
  const int out = activation(hidden);
  // One row is no broadcast: ATen drops the size-1 dim and vectorizes.
  add_elementwise(name + ".mul_weight", F::mul, {{narrowed}}, {out},
                  rows_ == 1 ? K::vectorized : K::generic);
  return out;
}

// neg writes the negated second half; cat reads it and the first half (a
// tensor's worth) and writes the rotated copy. cos and sin are per position
// and head-independent: small, counted as nothing.
int DecoderGraphBuilder::add_framework_rope(const std::string& name, int x, std::int64_t cols) {
  using F = ElementwiseFunction;
  using K = hw::FrameworkKernelFamily;
  const int times_cos = activation(cols);
  add_elementwise(name + ".mul_cos", F::mul, {{x}}, {times_cos}, K::generic);
  const int negated = activation(cols / 2);
  add_elementwise(name + ".neg", F::mul, {{x, cols / 2}}, {negated}, K::generic);
  const int rotated = activation(cols);
  add_elementwise(name + ".cat", F::copy, {{x}}, {rotated}, K::cat);
  const int times_sin = activation(cols);
  add_elementwise(name + ".mul_sin", F::mul, {{rotated}}, {times_sin}, K::generic);
  const int out = activation(cols);
  add_elementwise(name + ".add", F::add, {{times_cos}, {times_sin}}, {out}, K::vectorized);
  return out;
}

int DecoderGraphBuilder::add_framework_layer(int x) {
  using F = ElementwiseFunction;
  using K = hw::FrameworkKernelFamily;
  const std::int64_t hidden = shape_.hidden;
  const std::int64_t intermediate = shape_.intermediate;
  const int x_norm = add_framework_rmsnorm("rmsnorm_attn", x);
  const int q = activation(q_cols());
  add_gemm("q_proj", q_cols(), hidden, x_norm, q, {});
  const int k = activation(kv_cols());
  add_gemm("k_proj", kv_cols(), hidden, x_norm, k, {});
  const int v = activation(kv_cols());
  add_gemm("v_proj", kv_cols(), hidden, x_norm, v, {});
  add_framework_rope("rope_q", q, q_cols());
  const int k_rotated = add_framework_rope("rope_k", k, kv_cols());
  const int k_cache = activation(kv_cols());
  add_elementwise("k_cache_write", F::copy, {{k_rotated}}, {k_cache}, K::generic);
  const int v_cache = activation(kv_cols());
  add_elementwise("v_cache_write", F::copy, {{v}}, {v_cache}, K::generic);
  add_attention();
  const int attended = activation(q_cols());
  const int projected = activation(hidden);
  add_gemm("o_proj", hidden, q_cols(), attended, projected, {});
  const int h = activation(hidden);
  add_elementwise("residual_attn", F::add, {{x}, {projected}}, {h}, K::vectorized);
  const int h_norm = add_framework_rmsnorm("rmsnorm_mlp", h);
  const int gate = activation(intermediate);
  add_gemm("gate_proj", intermediate, hidden, h_norm, gate, {});
  const int gate_silu = activation(intermediate);
  add_elementwise("silu", F::silu, {{gate}}, {gate_silu}, K::vectorized);
  const int up = activation(intermediate);
  add_gemm("up_proj", intermediate, hidden, h_norm, up, {});
  const int act = activation(intermediate);
  add_elementwise("mul", F::mul, {{gate_silu}, {up}}, {act}, K::vectorized);
  const int down = activation(hidden);
  add_gemm("down_proj", hidden, intermediate, act, down, {});
  const int out = activation(hidden);
  add_elementwise("residual_mlp", F::add, {{h}, {down}}, {out}, K::vectorized);
  return out;
}

int DecoderGraphBuilder::add_embedding() {
  prefix_.clear();
  // The rows a gather reads: one table row per token, none of them in L2.
  const int table_rows = activation(shape_.hidden);
  const int x = activation(shape_.hidden);
  add_elementwise("embedding", ElementwiseFunction::copy, {{table_rows}}, {x});
  return x;
}

void DecoderGraphBuilder::add_head(std::int64_t vocab) {
  prefix_.clear();
  rows_ = shape_.batch;
  const int last = activation(shape_.hidden);
  const int logits = activation(vocab);
  switch (ops_) {
    case LayerOps::fused:
      add_gemm("lm_head+rmsnorm", vocab, shape_.hidden, last, logits,
               {.norm_prologue = true, .residual = std::nullopt, .silu_mul = false});
      break;
    case LayerOps::unfused: {
      const int normed = activation(shape_.hidden);
      add_rmsnorm("final_rmsnorm", last, normed);
      add_gemm("lm_head", vocab, shape_.hidden, normed, logits, {});
      break;
    }
    case LayerOps::framework:
      add_gemm("lm_head", vocab, shape_.hidden, add_framework_rmsnorm("final_rmsnorm", last),
               logits, {});
      break;
  }
  rows_ = shape_.rows();
}

KernelGraph decoder_layer_graph(const DecoderLayerShape& shape, LayerOps ops,
                                const config::SourceLocation& where) {
  DecoderGraphBuilder builder(shape, ops, where);
  int x = builder.input();
  for (int layer = 0; layer < shape.layers; ++layer) {
    x = builder.add_layer(x, shape.layers > 1 ? fmt::format("L{}.", layer) : "");
  }
  return builder.take();
}

}  // namespace tilesim::workloads
