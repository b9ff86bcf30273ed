// The `layer:` half of graph_loader.hpp: the decoder-layer preset.

#include <fmt/format.h>

#include "workloads/attention/attention_variant.hpp"
#include "workloads/graph/graph_loader.hpp"

namespace tilesim::workloads {

using config::Param;
using config::Value;

namespace {

constexpr double kMaxTokens = double(std::int64_t{1} << 24);

config::Schema<LayerWorkload> layer_schema(const std::vector<std::string>& schedules) {
  using W = LayerWorkload;
  auto dim = [](std::int64_t DecoderLayerShape::*field) {
    return [field](W& workload, const Value& value) { workload.shape.*field = value.integer; };
  };
  config::Schema<LayerWorkload> s;
  s.add(Param::text("name").name_like().describe("Unique name, used in reports."),
        [](W& workload, const Value& value) { workload.name = value.text; });
  s.add(Param::choice("layer.phase", {"prefill", "decode"})
            .describe("`prefill`: `tokens` per sequence at once; `decode`: one new token per "
                      "sequence against `context` keys."),
        [](W& workload, const Value& value) {
          workload.shape.phase = value.text == "prefill" ? LayerPhase::prefill : LayerPhase::decode;
        });
  s.add(Param::integer("layer.hidden")
            .range(64, 65536)
            .multiple_of(64)
            .default_to("4096")
            .describe("Model width (Llama-3-8B: 4096)."),
        dim(&DecoderLayerShape::hidden));
  s.add(Param::integer("layer.heads").range(1, 1024).default_to("32").describe("Query heads."),
        dim(&DecoderLayerShape::heads));
  s.add(Param::integer("layer.kv_heads")
            .range(1, 1024)
            .default_to("8")
            .describe("K/V heads; `heads` must be a multiple."),
        dim(&DecoderLayerShape::kv_heads));
  s.add(Param::integer("layer.head_dim")
            .range(16, 256)
            .multiple_of(8)
            .default_to("128")
            .describe("Elements per head."),
        dim(&DecoderLayerShape::head_dim));
  s.add(Param::integer("layer.intermediate")
            .range(64, 262144)
            .multiple_of(64)
            .default_to("14336")
            .describe("MLP width (Llama-3-8B: 14336)."),
        dim(&DecoderLayerShape::intermediate));
  s.add(Param::integer("layer.batch").range(1, 65536).default_to("1").describe("Sequences."),
        dim(&DecoderLayerShape::batch));
  s.add(Param::integer("layer.tokens")
            .range(1, kMaxTokens)
            .optional()
            .describe("prefill: tokens per sequence (required for prefill)."),
        dim(&DecoderLayerShape::tokens));
  s.add(Param::integer("layer.context")
            .range(1, kMaxTokens)
            .optional()
            .describe("decode: keys per sequence, the new token's included (required for decode)."),
        dim(&DecoderLayerShape::context));
  s.add(Param::choice("layer.dtype", {"fp16", "bf16"})
            .default_to("bf16")
            .describe("Element type of weights and activations."),
        [](W& workload, const Value& value) {
          workload.shape.dtype = hw::parse_data_type(value.text).value_or(hw::DataType::bf16);
        });
  s.add(Param::integer("layer.layers")
            .range(1, 256)
            .default_to("1")
            .describe("Layers in a row, each reading the previous one's output."),
        [](W& workload, const Value& value) {
          workload.shape.layers = static_cast<int>(value.integer);
        });
  s.add(Param::choice("layer.fused", {"true", "false", "framework", "compare"})
            .default_to("true")
            .describe("`true`: RMSNorm in the next GEMM's prologue, residual adds and "
                      "SiLU-and-mul in GEMM epilogues; `false`: a kernel each; `framework`: op "
                      "per kernel as plain PyTorch launches it (fp32 RMSNorm as 8 kernels, RoPE "
                      "as 10, separate q/k/v and gate/up GEMMs, KV-cache copies; eager pays "
                      "`launch.framework_dispatch` per op); `compare`: `true` and `false`."),
        [](W& workload, const Value& value) { workload.fused = value.text; });
  s.add(Param::choice("layer.launch", {"eager", "cuda_graph", "compare"})
            .default_to("cuda_graph")
            .describe("`eager`, `cuda_graph`, or `compare` (both, one row each)."),
        [](W& workload, const Value& value) { workload.launch = value.text; });
  s.add(Param::choice("layer.attention", builtin_attention_variants().names())
            .default_computed("`flash` for prefill, `flash_decoding` for decode")
            .describe("Attention variant (docs/attention.md)."),
        [](W& workload, const Value& value) { workload.shape.attention_variant = value.text; });
  s.add(Param::choice("layer.schedule", schedules)
            .default_computed("`split_k` for decode (a few output tiles: a library kernel "
                              "splits K), `auto` for prefill (a library picks tile and schedule "
                              "per shape: each GEMM's candidates simulated alone, the fastest "
                              "kept)")
            .describe("Schedule of every GEMM of the layer; split-K adds its slices in a "
                      "separate reduction kernel."),
        [](W& workload, const Value& value) { workload.shape.gemm_schedule = value.text; });
  return s;
}

void check_layer(const config::Values& values, const config::ReadContext& context,
                 LayerWorkload& workload, config::Diagnostics& diagnostics) {
  const DecoderLayerShape& shape = workload.shape;
  const std::string prefix = config::join_keys(context.key_prefix, "layer.");
  if (shape.heads % shape.kv_heads != 0) {
    diagnostics.add(
        values.at("layer.kv_heads").where, prefix + "kv_heads",
        fmt::format("heads ({}) must be a multiple of kv_heads ({})", shape.heads, shape.kv_heads));
  }
  const bool prefill = shape.phase == LayerPhase::prefill;
  const char* needed = prefill ? "tokens" : "context";
  const char* other = prefill ? "context" : "tokens";
  if (!values.contains(fmt::format("layer.{}", needed))) {
    diagnostics.add(workload.where, prefix + needed,
                    fmt::format("missing: {} needs `{}`", prefill ? "prefill" : "decode", needed));
  }
  if (const auto found = values.find(fmt::format("layer.{}", other)); found != values.end()) {
    diagnostics.add(found->second.where, prefix + other,
                    fmt::format("`{}` applies to {} only; this layer is {}", other,
                                prefill ? "decode" : "prefill", prefill ? "prefill" : "decode"));
  }
  if (!values.contains("layer.attention")) {
    workload.shape.attention_variant = prefill ? "flash" : "flash_decoding";
  }
  if (!values.contains("layer.schedule")) {
    workload.shape.gemm_schedule = prefill ? "auto" : "split_k";
  }
}

}  // namespace

config::Values read_layer_workload(const YAML::Node& item, const config::ReadContext& context,
                                   const std::vector<std::string>& gemm_schedules,
                                   LayerWorkload& workload, config::Diagnostics& diagnostics) {
  workload.where = config::location_of(item.Mark(), context.file);
  const std::size_t problems = diagnostics.size();
  const config::Values values =
      layer_schema(gemm_schedules).read(item, context, workload, diagnostics);
  if (diagnostics.size() == problems) check_layer(values, context, workload, diagnostics);
  return values;
}

std::vector<config::Param> layer_workload_params() {
  return layer_schema({}).params();
}

}  // namespace tilesim::workloads
