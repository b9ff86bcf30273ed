#pragma once
// The decoder-layer preset: a Llama-style layer (RMSNorm, QKV projection,
// RoPE, attention, O projection, residual add, RMSNorm, gate/up projection,
// SiLU-and-mul, down projection, residual add) built as a kernel graph from
// the model's dimensions, for prefill (`tokens` per sequence) or one decode
// step (`context` keys per sequence); and, for a whole model
// (workloads/model/), the embedding before the layers and the final RMSNorm
// and LM head after them.
//
// Three ways to cut a layer into kernels (LayerOps):
// - fused: five kernels plus attention's: each RMSNorm moves into the next
//   GEMM's prologue (the gain folded into its weights), the residual adds into
//   the O and down projections' epilogues, SiLU-and-mul into the gate/up
//   projection's epilogue. RoPE stays a kernel of its own.
// - unfused: a kernel per step (11 plus attention's and split-K reductions).
// - framework: what a plain PyTorch (Hugging Face-style) layer launches, op by
//   op (kernels/model/torch_llama_forward.py): RMSNorm in fp32 as 8 kernels,
//   separate q/k/v and gate/up projections, RoPE as rotate_half (10 kernels),
//   the new K and V copied into the cache, SiLU and the multiply apart. Every
//   op is a framework op: eagerly launched, it pays launch.framework_dispatch.

#include <cstdint>
#include <string>

#include "hwmodels/data_type.hpp"
#include "hwmodels/diagnostics.hpp"
#include "workloads/graph/kernel_graph.hpp"

namespace tilesim::workloads {

enum class LayerPhase { prefill, decode };
enum class LayerOps { fused, unfused, framework };

struct DecoderLayerShape {
  LayerPhase phase = LayerPhase::decode;
  std::int64_t hidden = 4096;
  std::int64_t heads = 32;
  std::int64_t kv_heads = 8;
  std::int64_t head_dim = 128;
  std::int64_t intermediate = 14336;
  std::int64_t batch = 1;
  std::int64_t tokens = 1;   // prefill: tokens per sequence
  std::int64_t context = 1;  // decode: keys per sequence, the new one included
  hw::DataType dtype = hw::DataType::bf16;
  int layers = 1;  // layers in a row, each reading the previous one's output
  std::string attention_variant = "flash";  // a variant of workloads/attention
  std::string gemm_schedule = "data_parallel";
  std::string kernel = "library";

  // Rows of the activations: every token of the batch.
  std::int64_t rows() const { return phase == LayerPhase::prefill ? batch * tokens : batch; }
};

// "true", "false", "framework" (a layer's or model's `fused:` value) and back.
LayerOps parse_layer_ops(const std::string& fused);
const char* layer_ops_value(LayerOps ops);
// "fused", "unfused", "framework": in run names and schedules.
const char* to_string(LayerOps ops);

// Builds layers, and a model's embedding and head, into one kernel graph.
// `where` locates the workload's entry, for problems found while lowering.
class DecoderGraphBuilder {
 public:
  DecoderGraphBuilder(const DecoderLayerShape& shape, LayerOps ops,
                      const config::SourceLocation& where);

  // Activations entering the first layer, from nowhere (a layer alone).
  int input();
  // The rows of the embedding table gathered for every token.
  int add_embedding();
  // One layer reading `x`, its kernels named `prefix` + step; returns its output.
  int add_layer(int x, const std::string& prefix);
  // Final RMSNorm and the LM head on each sequence's last token. Reads a
  // tensor of `batch` rows: in prefill the last token's row of `x` (the L2
  // model does not follow that slice; its bytes are small).
  void add_head(std::int64_t vocab);

  KernelGraph take() { return std::move(graph_); }

 private:
  std::int64_t qkv_cols() const;
  std::int64_t q_cols() const;
  std::int64_t kv_cols() const;
  int activation(std::int64_t cols);
  int tensor(std::int64_t rows, std::int64_t cols, hw::DataType dtype);
  void add_node(const std::string& name, decltype(GraphNode::op) op);
  void add_rmsnorm(const std::string& name, int in, int out);
  // `family`: the framework kernel family a framework layer's op launches.
  void add_elementwise(const std::string& name, ElementwiseFunction function,
                       std::vector<TensorSlice> inputs, TensorSlice output,
                       std::optional<hw::FrameworkKernelFamily> family = std::nullopt);
  struct FusedWork {
    bool norm_prologue = false;
    std::optional<int> residual;  // tensor added in the epilogue
    bool silu_mul = false;
  };
  void add_gemm(const std::string& name, std::int64_t n, std::int64_t k, int a, int out,
                const FusedWork& work);
  void add_attention();
  void add_rope(int qkv);
  int add_fused_layer(int x);
  int add_unfused_layer(int x);
  // Framework granularity: RMSNorm as a framework computes it in fp32.
  int add_framework_rmsnorm(const std::string& name, int x);
  // q or k rotated by rotate_half: x * cos + cat(-x2, x1) * sin.
  int add_framework_rope(const std::string& name, int x, std::int64_t cols);
  int add_framework_layer(int x);

  DecoderLayerShape shape_;
  LayerOps ops_;
  config::SourceLocation where_;
  KernelGraph graph_;
  std::string prefix_;
  std::int64_t rows_;  // of the activations being built: every token, or the head's batch
};

// `shape.layers` layers in a row, from input().
KernelGraph decoder_layer_graph(const DecoderLayerShape& shape, LayerOps ops,
                                const config::SourceLocation& where);

}  // namespace tilesim::workloads
