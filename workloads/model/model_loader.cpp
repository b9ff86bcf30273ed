#include "workloads/model/model_loader.hpp"

#include <fmt/format.h>

#include "hwmodels/config_file_path.hpp"
#include "hwmodels/yaml_file.hpp"
#include "workloads/attention/attention_variant.hpp"

namespace tilesim::workloads {

using config::Param;
using config::Value;

namespace {

using W = ModelWorkload;
constexpr double kMaxTokens = double(std::int64_t{1} << 24);

struct Declared {
  Param param;
  config::Assign<W> assign;
};

config::Assign<W> dim(std::int64_t DecoderLayerShape::*field) {
  return [field](W& workload, const Value& value) { workload.shape.*field = value.integer; };
}

// The model's own dimensions: what a preset holds and a study may override.
// Defaults: Llama-3-8B (configs/models/llama3_8b.yaml).
std::vector<Declared> dimensions() {
  return {
      {Param::integer("hidden").range(64, 65536).multiple_of(64).default_to("4096").describe(
           "Model width."),
       dim(&DecoderLayerShape::hidden)},
      {Param::integer("heads").range(1, 1024).default_to("32").describe("Query heads."),
       dim(&DecoderLayerShape::heads)},
      {Param::integer("kv_heads")
           .range(1, 1024)
           .default_to("8")
           .describe("K/V heads; `heads` must be a multiple."),
       dim(&DecoderLayerShape::kv_heads)},
      {Param::integer("head_dim")
           .range(16, 256)
           .multiple_of(8)
           .default_to("128")
           .describe("Elements per head."),
       dim(&DecoderLayerShape::head_dim)},
      {Param::integer("intermediate")
           .range(64, 262144)
           .multiple_of(64)
           .default_to("14336")
           .describe("MLP width."),
       dim(&DecoderLayerShape::intermediate)},
      {Param::integer("layers").range(1, 1024).default_to("32").describe(
           "Decoder layers (the model's depth)."),
       [](W& workload, const Value& value) {
         workload.shape.layers = static_cast<int>(value.integer);
       }},
      {Param::integer("vocab")
           .range(64, 4194304)
           .multiple_of(64)
           .default_to("128256")
           .describe("Vocabulary: rows of the embedding table and columns of the LM head."),
       [](W& workload, const Value& value) { workload.vocab = value.integer; }},
      {Param::choice("tied_embeddings", {"true", "false"})
           .default_to("false")
           .describe("The LM head shares the embedding table (counted once in the weights)."),
       [](W& workload, const Value& value) { workload.tied_embeddings = value.text == "true"; }},
      {Param::choice("dtype", {"fp16", "bf16"})
           .default_to("bf16")
           .describe("Element type of weights, activations and KV cache."),
       [](W& workload, const Value& value) {
         workload.shape.dtype = hw::parse_data_type(value.text).value_or(hw::DataType::bf16);
       }},
  };
}

config::Schema<W> preset_schema() {
  config::Schema<W> s;
  s.add(Param::text("name").name_like().describe("The preset's name (its file's stem)."));
  s.add(Param::text("description").describe("The model, as its publisher names it."));
  for (Declared& d : dimensions()) s.add(std::move(d.param), std::move(d.assign));
  return s;
}

// With a preset the dimensions keep the preset's values unless given.
config::Schema<W> model_schema(const std::vector<std::string>& schedules, bool preset) {
  config::Schema<W> s;
  s.add(Param::text("name").name_like().describe("Unique name, used in reports."),
        [](W& workload, const Value& value) { workload.name = value.text; });
  s.add(Param::text("model.preset")
            .optional()
            .describe("A name under configs/models/ (`llama3_8b`, `llama3_70b`, `mistral_7b`, "
                      "`qwen2_5_7b`) or a path to a preset file; the keys below override it."),
        [](W& workload, const Value& value) { workload.preset = value.text; });
  for (Declared& d : dimensions()) {
    Param param = d.param.keyed("model." + d.param.key);
    if (preset) param.optional();
    s.add(std::move(param), std::move(d.assign));
  }
  s.add(Param::choice("model.phase", {"both", "prefill", "decode"})
            .default_to("both")
            .describe("`prefill`: time to first token of one prompt of `tokens`; `decode`: one "
                      "step of `batch` sequences at `context` keys; `both`: a run each."),
        [](W& workload, const Value& value) {
          workload.prefill = value.text != "decode";
          workload.decode = value.text != "prefill";
        });
  s.add(Param::integer("model.tokens")
            .range(1, kMaxTokens)
            .optional()
            .describe("Prompt tokens of the prefill (batch 1; required unless `phase: decode`)."),
        [](W& workload, const Value& value) { workload.prompt_tokens = value.integer; });
  s.add(Param::integer("model.batch")
            .range(1, 65536)
            .default_to("1")
            .describe("Sequences of the decode step."),
        dim(&DecoderLayerShape::batch));
  s.add(Param::integer("model.context")
            .range(1, kMaxTokens)
            .optional()
            .describe("Keys per sequence at the decode step, the new token's included (required "
                      "unless `phase: prefill`); also the context of the maximum concurrency."),
        dim(&DecoderLayerShape::context));
  s.add(Param::choice("model.fused", {"true", "false", "framework", "compare"})
            .default_to("true")
            .describe("As `layer.fused`, for every layer, the final RMSNorm (into the LM head's "
                      "prologue when `true`) and the embedding gather."),
        [](W& workload, const Value& value) { workload.fused = value.text; });
  s.add(Param::choice("model.launch", {"eager", "cuda_graph", "compare"})
            .default_to("cuda_graph")
            .describe("`eager`, `cuda_graph` (the whole forward one graph), or `compare`."),
        [](W& workload, const Value& value) { workload.launch = value.text; });
  s.add(Param::choice("model.attention", builtin_attention_variants().names())
            .optional()
            .default_computed("`flash` for prefill, `flash_decoding` for decode")
            .describe("Attention variant of the decode step (prefill runs `flash`)."),
        [](W& workload, const Value& value) { workload.attention = value.text; });
  s.add(Param::choice("model.schedule", schedules)
            .optional()
            .default_computed("`auto` for prefill (as `layer.schedule`), `split_k` for decode")
            .describe("Schedule of every GEMM, both phases."),
        [](W& workload, const Value& value) { workload.schedule = value.text; });
  return s;
}

// Reads the preset file into `workload`; false when it has problems.
bool read_preset(const std::string& preset, const config::SourceLocation& where,
                 const std::string& key, const std::filesystem::path& config_dir,
                 ModelWorkload& workload, config::Diagnostics& diagnostics) {
  const config::Loaded<std::filesystem::path> path =
      config::resolve_config_file(preset, config_dir / "models", key, "model preset", where);
  diagnostics.append(path.diagnostics);
  if (!path.ok()) return false;
  const std::size_t problems = diagnostics.size();
  const std::optional<YAML::Node> root = config::load_yaml_file(*path.value, diagnostics);
  if (!root) return false;
  config::ReadContext context;
  context.file = path.value->string();
  preset_schema().read(*root, context, workload, diagnostics);
  return diagnostics.size() == problems;
}

void check_model(const config::Values& values, const config::ReadContext& context,
                 ModelWorkload& workload, config::Diagnostics& diagnostics) {
  const DecoderLayerShape& shape = workload.shape;
  const std::string prefix = config::join_keys(context.key_prefix, "model.");
  if (shape.heads % shape.kv_heads != 0) {
    const auto given = values.find("model.kv_heads");
    diagnostics.add(
        given != values.end() ? given->second.where : workload.where, prefix + "kv_heads",
        fmt::format("heads ({}) must be a multiple of kv_heads ({}){}", shape.heads, shape.kv_heads,
                    workload.preset.empty() ? "" : " (with the preset)"));
  }
  for (const auto& [needed, phase, wanted] : {std::tuple{"tokens", "prefill", workload.prefill},
                                              std::tuple{"context", "decode", workload.decode}}) {
    const std::string key = fmt::format("model.{}", needed);
    if (wanted && !values.contains(key)) {
      diagnostics.add(
          workload.where, prefix + needed,
          fmt::format("missing: the {} run needs `{}` (or set `phase`)", phase, needed));
    } else if (!wanted && values.contains(key)) {
      diagnostics.add(
          values.at(key).where, prefix + needed,
          fmt::format("`{}` applies to the {} run, which `phase` leaves out", needed, phase));
    }
  }
}

}  // namespace

config::Values read_model_workload(const YAML::Node& item, const config::ReadContext& context,
                                   const std::vector<std::string>& gemm_schedules,
                                   const std::filesystem::path& config_dir, ModelWorkload& workload,
                                   config::Diagnostics& diagnostics) {
  workload.where = config::location_of(item.Mark(), context.file);
  const std::size_t problems = diagnostics.size();
  const YAML::Node preset =
      item.IsMap() && item["model"].IsMap() ? item["model"]["preset"] : YAML::Node();
  const bool has_preset = preset.IsDefined() && preset.IsScalar();
  if (has_preset && !read_preset(preset.Scalar(), config::location_of(preset.Mark(), context.file),
                                 config::join_keys(context.key_prefix, "model.preset"), config_dir,
                                 workload, diagnostics)) {
    return {};
  }
  const config::Values values =
      model_schema(gemm_schedules, has_preset).read(item, context, workload, diagnostics);
  if (diagnostics.size() == problems) check_model(values, context, workload, diagnostics);
  return values;
}

std::vector<config::Param> model_workload_params() {
  return model_schema({}, false).params();
}

std::vector<config::Param> model_preset_params() {
  return preset_schema().params();
}

}  // namespace tilesim::workloads
