#pragma once
// The decoder-layer preset: a Llama-style layer (RMSNorm, QKV projection,
// RoPE, attention, O projection, residual add, RMSNorm, gate/up projection,
// SiLU-and-mul, down projection, residual add) built as a kernel graph from
// the model's dimensions, for prefill (`tokens` per sequence) or one decode
// step (`context` keys per sequence), unfused or fused.
//
// Fused, the layer is five kernels plus attention's: each RMSNorm moves into
// the next GEMM's prologue (the gain folded into its weights), the residual
// adds into the O and down projections' epilogues, SiLU-and-mul into the
// gate/up projection's epilogue. RoPE stays a kernel of its own.

#include <cstdint>
#include <string>

#include "hwmodels/data_type.hpp"
#include "hwmodels/diagnostics.hpp"
#include "workloads/graph/kernel_graph.hpp"

namespace tilesim::workloads {

enum class LayerPhase { prefill, decode };

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

// `where` locates the preset's entry, for problems found while lowering.
KernelGraph decoder_layer_graph(const DecoderLayerShape& shape, bool fused,
                                const config::SourceLocation& where);

}  // namespace tilesim::workloads
