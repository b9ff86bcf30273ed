#include "workloads/attention/attention_loader.hpp"

#include <fmt/format.h>

#include "workloads/attention/attention_tensors.hpp"
#include "workloads/attention/attention_variant.hpp"

namespace tilesim::workloads {

using config::into;
using config::Param;
using config::Value;

namespace {

constexpr std::int64_t kMaxTokens = std::int64_t{1} << 31;

std::vector<std::string> variant_names() {
  std::vector<std::string> names = builtin_attention_variants().names();
  names.emplace_back("compare");
  return names;
}

Param token_count(std::string key) {
  return Param::integer(std::move(key)).range(1, double(kMaxTokens));
}

config::Schema<AttentionWorkload> attention_schema() {
  using W = AttentionWorkload;
  auto shape_field = [](std::int64_t AttentionShape::*field) {
    return [field](W& workload, const Value& value) { workload.shape.*field = value.integer; };
  };
  config::Schema<AttentionWorkload> s;
  s.add(Param::text("name").name_like().describe(
            "Unique name, used in reports and measurement CSVs."),
        into(&W::name));
  s.add(Param::integer("attention.batch")
            .range(1, 65536)
            .default_computed("the length of `kv_lens`, else 1")
            .describe("Sequences in the batch."),
        shape_field(&AttentionShape::batch));
  s.add(Param::integer("attention.heads").range(1, 1024).describe("Query heads."),
        shape_field(&AttentionShape::heads));
  s.add(Param::integer("attention.kv_heads")
            .range(1, 1024)
            .default_computed("`heads`")
            .describe("K/V heads (GQA: `heads` must be a multiple; 1 is MQA)."),
        shape_field(&AttentionShape::kv_heads));
  s.add(token_count("attention.q_len")
            .describe("Queries per sequence: the prompt for prefill, 1 (or a few) for decode."),
        shape_field(&AttentionShape::q_len));
  s.add(token_count("attention.kv_len")
            .optional()
            .describe("Keys of every sequence; give this or `kv_lens`."),
        [](W& workload, const Value& value) { workload.shape.kv_lens.assign(1, value.integer); });
  s.add(Param::sequence("attention.kv_lens")
            .optional()
            .not_empty()
            .describe("Keys of each sequence of a variable-length batch, e.g. [131072, 1024]."));
  s.add(Param::integer("attention.head_dim")
            .range(16, 256)
            .multiple_of(8)
            .describe("Elements per head."),
        shape_field(&AttentionShape::head_dim));
  s.add(Param::choice("attention.causal", {"false", "true"})
            .default_to("false")
            .describe("Causal mask, bottom-right aligned: query i sees keys up to "
                      "kv_len - q_len + i."),
        [](W& workload, const Value& value) { workload.shape.causal = value.text == "true"; });
  s.add(Param::choice("attention.dtype", {"fp16", "bf16", "fp8"})
            .default_to("bf16")
            .describe("Element type of Q, K, V, O (and of the unfused scores); accumulation "
                      "is fp32."),
        [](W& workload, const Value& value) {
          workload.shape.dtype = hw::parse_data_type(value.text).value_or(hw::DataType::bf16);
        });
  s.add(Param::integer("attention.page_size")
            .range(1, 512)
            .default_to("16")
            .describe("Tokens per KV-cache page (paged_v1, paged_v2)."),
        shape_field(&AttentionShape::page_size));
  s.add(Param::choice("variant", variant_names())
            .default_to("flash")
            .describe("Attention variant from the registry: unfused, flash, flash_decoding, "
                      "paged_v1, paged_v2, stream_k_decode, or compare (every variant that "
                      "applies)."),
        [](W& workload, const Value& value) {
          workload.variant = value.text;
          workload.variant_where = value.where;
        });
  s.add(Param::integer("splits").range(1, 1024).optional().describe(
            "flash_decoding: KV splits per sequence and KV head; default: "
            "FlashAttention-2's heuristic (docs/attention.md)."),
        [](W& workload, const Value& value) { workload.splits = static_cast<int>(value.integer); });
  s.add(Param::text("kernel").name_like().default_to("library").describe(
            "Attention implementation, which picks its attention profile (configs/attention/): "
            "`library` (the GPU's vendor-class kernels), `tilesim_ref` (ours), "
            "`tilesim_ref_wgmma`, or a PyTorch SDPA backend (`sdpa_flash`, `sdpa_cudnn`, "
            "`sdpa_efficient`, `sdpa_math`)."),
        into(&W::kernel));
  return s;
}

void read_kv_lens(const Value& list, const config::ReadContext& context,
                  AttentionWorkload& workload, config::Diagnostics& diagnostics) {
  config::ReadContext items = context;
  items.key_prefix = config::join_keys(context.key_prefix, "attention");
  for (std::size_t i = 0; i < list.node.size(); ++i) {
    const std::string key = fmt::format("kv_lens[{}]", i);
    YAML::Node wrapper(YAML::NodeType::Map);
    wrapper[key] = list.node[i];
    const Param param = token_count(key);
    const config::Values values = config::read_map(wrapper, {&param, 1}, items, diagnostics);
    if (const auto found = values.find(key); found != values.end()) {
      workload.shape.kv_lens.push_back(found->second.integer);
    }
  }
}

// Rules between fields; each problem is laid at the field it names.
void check_fields(const config::Values& values, const YAML::Node& item,
                  const config::ReadContext& context, AttentionWorkload& workload,
                  config::Diagnostics& diagnostics) {
  AttentionShape& shape = workload.shape;
  auto where = [&](const std::string& key) {
    const auto found = values.find(key);
    return found != values.end() ? found->second.where : workload.where;
  };
  auto problem = [&](const std::string& key, std::string message) {
    diagnostics.add(where(key), config::join_keys(context.key_prefix, key), std::move(message));
  };
  const YAML::Node attention = item["attention"];
  const bool wrote_kv_len = attention.IsMap() && attention["kv_len"];
  const bool wrote_kv_lens = attention.IsMap() && attention["kv_lens"];
  if (attention.IsMap() && !wrote_kv_len && !wrote_kv_lens) {
    problem("attention",
            "missing key `kv_len`; give `kv_len` (every sequence) or `kv_lens` "
            "(one per sequence)");
  } else if (wrote_kv_len && wrote_kv_lens) {
    problem("attention.kv_lens", "give `kv_len` or `kv_lens`, not both");
  }
  const bool has_kv_len = values.contains("attention.kv_len");
  const bool has_kv_lens = values.contains("attention.kv_lens");
  if (!values.contains("attention.kv_heads")) shape.kv_heads = shape.heads;
  if (shape.kv_heads > 0 && shape.heads % shape.kv_heads != 0) {
    problem("attention.kv_heads", fmt::format("heads ({}) must be a multiple of kv_heads ({})",
                                              shape.heads, shape.kv_heads));
  }
  if (has_kv_lens && values.contains("attention.batch") &&
      shape.batch != static_cast<std::int64_t>(shape.kv_lens.size())) {
    problem("attention.batch", fmt::format("batch is {} but kv_lens has {} entries", shape.batch,
                                           shape.kv_lens.size()));
  }
  if (has_kv_len) shape.kv_lens.assign(static_cast<std::size_t>(shape.batch), shape.kv_lens[0]);
  if (has_kv_lens) shape.batch = static_cast<std::int64_t>(shape.kv_lens.size());
  for (const std::int64_t kv_len : shape.kv_lens) {
    if (shape.causal && shape.q_len > kv_len) {
      problem("attention.q_len",
              fmt::format("causal attention needs q_len <= kv_len of every sequence; q_len {} > "
                          "kv_len {}",
                          shape.q_len, kv_len));
      break;
    }
  }
  if (shape.batch * shape.heads >= (std::int64_t{1} << kMatrixIndexBits)) {
    problem("attention.batch",
            fmt::format("batch x heads must be below {}", std::int64_t{1} << kMatrixIndexBits));
  }
  if (workload.splits && workload.variant != "flash_decoding" && workload.variant != "compare") {
    problem("splits", fmt::format("`splits` applies to flash_decoding (and compare), not {}",
                                  workload.variant));
  }
}

}  // namespace

config::Values read_attention_workload(const YAML::Node& item, const config::ReadContext& context,
                                       AttentionWorkload& workload,
                                       config::Diagnostics& diagnostics) {
  workload.where = config::location_of(item.Mark(), context.file);
  workload.variant_where = workload.where;
  workload.shape.kv_lens.clear();
  const config::Values values = attention_schema().read(item, context, workload, diagnostics);
  if (const auto list = values.find("attention.kv_lens"); list != values.end()) {
    read_kv_lens(list->second, context, workload, diagnostics);
  }
  check_fields(values, item, context, workload, diagnostics);
  return values;
}

std::vector<config::Param> attention_workload_params() {
  return attention_schema().params();
}

}  // namespace tilesim::workloads
