#include "workloads/study_loader.hpp"

#include <fmt/format.h>

#include <map>

#include "hwmodels/attention_profile_loader.hpp"
#include "hwmodels/framework_profile_loader.hpp"
#include "hwmodels/guarded_read.hpp"
#include "hwmodels/hardware_schema.hpp"
#include "hwmodels/schema_markdown.hpp"
#include "hwmodels/yaml_file.hpp"
#include "hwmodels/yaml_schema.hpp"
#include "workloads/attention/attention_loader.hpp"
#include "workloads/gemm/split_k_reduction_key.hpp"
#include "workloads/graph/graph_loader.hpp"
#include "workloads/model/model_loader.hpp"
#include "workloads/sweep/sweep_loader.hpp"

namespace tilesim::workloads {

using config::into;
using config::Param;
using config::Value;

namespace {

constexpr std::int64_t kMaxGemmExtent = std::int64_t{1} << 31;

std::vector<std::string> data_type_names() {
  std::vector<std::string> names;
  for (const hw::DataType type : {hw::DataType::fp16, hw::DataType::bf16, hw::DataType::fp32,
                                  hw::DataType::tf32, hw::DataType::fp8}) {
    names.emplace_back(hw::to_string(type));
  }
  return names;
}

// Accumulation is fp32; an fp8 GEMM usually writes bf16, any other its input type.
hw::DataType default_output_type(hw::DataType input) {
  return input == hw::DataType::fp8 ? hw::DataType::bf16 : input;
}

config::Schema<Study> study_schema() {
  config::Schema<Study> s;
  s.add(Param::text("hardware")
            .describe("A name under configs/hw/ (`h100_sxm`) or a path to a hardware YAML file."),
        [](Study& study, const Value& value) {
          study.hardware = value.text;
          study.hardware_location = value.where;
        });
  s.add(Param::sequence("workloads")
            .not_empty()
            .describe("The workloads to simulate, in order (see below)."));
  return s;
}

Param gemm_extent(std::string key, std::string doc) {
  return Param::integer(std::move(key)).range(1, double(kMaxGemmExtent)).describe(std::move(doc));
}

// `gemm_schedules` empty: any name (the reference is rendered without a registry).
config::Schema<GemmWorkload> workload_schema(const std::vector<std::string>& gemm_schedules) {
  using W = GemmWorkload;
  const hw::TileParams tile = hw::tile_params();
  auto set_type = [](hw::DataType GemmProblem::*field) {
    return [field](W& workload, const Value& value) {
      workload.problem.*field = hw::parse_data_type(value.text).value_or(hw::DataType::bf16);
    };
  };
  auto set_tile = [](std::optional<int> TileOverride::*field) {
    return [field](W& workload, const Value& value) {
      workload.tile.*field = static_cast<int>(value.integer);
    };
  };
  auto set_cluster = [](int hw::ClusterShape::*field) {
    return [field](W& workload, const Value& value) {
      workload.tile.cluster = workload.tile.cluster.value_or(hw::ClusterShape{});
      (*workload.tile.cluster).*field = static_cast<int>(value.integer);
    };
  };
  config::Schema<GemmWorkload> s;
  s.add(Param::text("name").name_like().describe(
            "Unique name, used in reports and measurement CSVs."),
        into(&W::name));
  s.add(gemm_extent("gemm.m", "Rows of A and C."), into(&W::problem, &GemmProblem::m));
  s.add(gemm_extent("gemm.n", "Columns of B and C."), into(&W::problem, &GemmProblem::n));
  s.add(gemm_extent("gemm.k", "Columns of A, rows of B."), into(&W::problem, &GemmProblem::k));
  s.add(Param::choice("gemm.dtype", data_type_names()).describe("Element type of A and B."),
        set_type(&GemmProblem::input_type));
  s.add(Param::choice("gemm.out_dtype", data_type_names())
            .default_computed("`dtype` (`bf16` for fp8)")
            .describe("Element type of C; accumulation is fp32."),
        set_type(&GemmProblem::output_type));
  s.add(Param::choice("schedule", gemm_schedules)
            .default_to("data_parallel")
            .describe("GEMM schedule from the registry: data_parallel, split_k, stream_k, auto, "
                      "compare, ... (an unknown name is answered with the list)."),
        into(&W::schedule));
  s.add(Param::choice("persistent", {"true", "false"})
            .default_to("false")
            .describe("data_parallel only: `true` launches SMs x occupancy CTAs, CTA b computing "
                      "tiles b, b + grid, ... whole and back to back (each tile's loads overlap "
                      "the previous tile's epilogue); `false` launches one CTA per tile."),
        [](W& workload, const Value& value) { workload.persistent = value.text == "true"; });
  s.add(Param::text("kernel").name_like().default_to("library").describe(
            "Kernel profile, one the hardware file offers (`kernels:`): `library` "
            "(vendor-class), `tilesim_ref` (our mma.sync kernel), `tilesim_ref_wgmma` (our "
            "TMA + wgmma kernel, sm90), `tilesim_ref_wgmma_tma_store` (the same, C stored "
            "by TMA), `tilesim_ref_wgmma_multicast` (that, in 2-CTA clusters with B "
            "multicast), `tilesim_ref_wgmma_multicast_m192` (that with 192x192 tiles) or "
            "`tilesim_ref_wgmma_multicast_m192n96` (192x96 tiles; "
            "`tilesim_ref_wgmma_multicast_m192n96_c2n` with its cluster along n, A multicast)."),
        [](W& workload, const Value& value) {
          workload.kernel = value.text;
          workload.kernel_where = value.where;
        });
  s.add(tile.m.keyed("tile.m").optional(), set_tile(&TileOverride::m));
  s.add(tile.n.keyed("tile.n").optional(), set_tile(&TileOverride::n));
  s.add(tile.k.keyed("tile.k").optional(), set_tile(&TileOverride::k));
  s.add(tile.stages.keyed("tile.stages").optional(), set_tile(&TileOverride::stages));
  s.add(tile.warps.keyed("tile.warps").optional(), set_tile(&TileOverride::warps));
  s.add(tile.registers_per_thread.keyed("tile.registers_per_thread").optional(),
        set_tile(&TileOverride::registers_per_thread));
  s.add(tile.swizzle.keyed("tile.swizzle").optional(), set_tile(&TileOverride::swizzle));
  s.add(tile.cluster_m.keyed("tile.cluster.m").optional(), set_cluster(&hw::ClusterShape::m));
  s.add(tile.cluster_n.keyed("tile.cluster.n").optional(), set_cluster(&hw::ClusterShape::n));
  s.add(Param::integer("splits").range(1, 4096).optional().describe(
            "K-slices for split_k (and the split count of other schedules that take one); "
            "default for split_k: enough slices to give every SM a CTA."),
        [](W& workload, const Value& value) { workload.splits = static_cast<int>(value.integer); });
  s.add(split_k_reduction_key(
            "split_k: `serial` orders a tile's slices with a semaphore, each adding the previous "
            "partial; `parallel` writes fp32 partials and adds them in a separate reduction "
            "kernel."),
        [](W& workload, const Value& value) {
          workload.reduction = parse_split_k_reduction(value.text);
        });
  s.add(Param::choice("stream_k_mode", {"pure", "dp_one_tile", "two_tile", "wave_fit", "tile_fit"})
            .default_to("two_tile")
            .describe("stream_k: `pure` (all iterations over a persistent grid), `dp_one_tile` "
                      "(data-parallel full waves, Stream-K on the last partial wave), "
                      "`two_tile` (one fewer data-parallel wave; 1-2 tiles per Stream-K CTA) or "
                      "`wave_fit` (`two_tile`, but tiles that fit in one wave of the persistent "
                      "grid run whole, as a data-parallel kernel) or `tile_fit` (`wave_fit` "
                      "on the kernel profile's `one_wave_kernel` where its tiles fit in one "
                      "wave, on the profile itself elsewhere)."),
        [](W& workload, const Value& value) {
          workload.stream_k_mode = value.text == "pure"          ? StreamKMode::pure
                                   : value.text == "dp_one_tile" ? StreamKMode::dp_one_tile
                                   : value.text == "wave_fit"    ? StreamKMode::wave_fit
                                   : value.text == "tile_fit"    ? StreamKMode::tile_fit
                                                                 : StreamKMode::two_tile;
        });
  s.add(Param::choice("fixup", {"deterministic", "atomic"})
            .default_to("deterministic")
            .describe("stream_k: `deterministic` adds a tile's partials in k order (turnstile); "
                      "`atomic` adds them as they arrive."),
        [](W& workload, const Value& value) {
          workload.fixup = value.text == "atomic" ? FixupOrder::atomic : FixupOrder::deterministic;
        });
  return s;
}

// `persistent` changes only how data-parallel tiles are dealt out.
void check_persistent(const config::Values& values, const GemmWorkload& workload,
                      const config::ReadContext& context, config::Diagnostics& diagnostics) {
  const auto found = values.find("persistent");
  if (!workload.persistent || found == values.end() || workload.schedule == "data_parallel") {
    return;
  }
  diagnostics.add(
      found->second.where, config::join_keys(context.key_prefix, "persistent"),
      fmt::format("`persistent: true` applies to schedule data_parallel only, not `{}`; "
                  "drop it or set `schedule: data_parallel`",
                  workload.schedule));
}

// `schema`: workload_schema(gemm_schedules).
void read_workloads(const Value& list, const std::vector<std::string>& gemm_schedules,
                    const config::Schema<GemmWorkload>& schema, const std::string& file,
                    const std::filesystem::path& config_dir, Study& study,
                    config::Diagnostics& diagnostics) {
  std::map<std::string, int> first_line;  // workload name -> line it was first used on
  for (std::size_t i = 0; i < list.node.size(); ++i) {
    const YAML::Node item = list.node[i];
    config::ReadContext context;
    context.file = file;
    context.key_prefix = fmt::format("workloads[{}]", i);
    auto check_unique_name = [&](const config::Values& values, const std::string& name) {
      const auto found = values.find("name");
      if (found == values.end()) return;
      const int line = found->second.where.line;
      if (const auto [seen, inserted] = first_line.emplace(name, line); !inserted) {
        diagnostics.add(
            found->second.where, config::join_keys(context.key_prefix, "name"),
            fmt::format("duplicate workload name `{}`; first used on line {}", name, seen->second));
      }
    };
    if (item.IsMap() && item["attention"]) {
      AttentionWorkload attention;
      check_unique_name(read_attention_workload(item, context, attention, diagnostics),
                        attention.name);
      study.workloads.emplace_back(std::move(attention));
      continue;
    }
    if (item.IsMap() && item["graph"]) {
      GraphWorkload graph;
      check_unique_name(read_graph_workload(item, context, gemm_schedules, graph, diagnostics),
                        graph.name);
      study.workloads.emplace_back(std::move(graph));
      continue;
    }
    if (item.IsMap() && item["model"]) {
      ModelWorkload model;
      check_unique_name(
          read_model_workload(item, context, gemm_schedules, config_dir, model, diagnostics),
          model.name);
      study.workloads.emplace_back(std::move(model));
      continue;
    }
    if (item.IsMap() && item["layer"]) {
      LayerWorkload layer;
      check_unique_name(read_layer_workload(item, context, gemm_schedules, layer, diagnostics),
                        layer.name);
      study.workloads.emplace_back(std::move(layer));
      continue;
    }
    GemmWorkload workload;
    workload.where = config::location_of(item.Mark(), file);
    workload.kernel_where = workload.where;
    const config::Values values = schema.read(item, context, workload, diagnostics);
    if (!values.contains("gemm.out_dtype")) {
      workload.problem.output_type = default_output_type(workload.problem.input_type);
    }
    check_persistent(values, workload, context, diagnostics);
    check_unique_name(values, workload.name);
    study.workloads.emplace_back(std::move(workload));
  }
}

}  // namespace

namespace {

// `schema`: workload_schema(gemm_schedules).
config::Loaded<Study> read_study(const std::optional<YAML::Node>& root, const std::string& file,
                                 const std::vector<std::string>& gemm_schedules,
                                 const config::Schema<GemmWorkload>& schema,
                                 const std::filesystem::path& config_dir,
                                 config::Diagnostics diagnostics) {
  return config::guarded_read<Study>(
      file, std::move(diagnostics), [&](config::Diagnostics& problems) -> std::optional<Study> {
        if (!root) return std::nullopt;
        Study study;
        study.source_path = file;
        config::ReadContext context;
        context.file = file;
        const config::Values values = study_schema().read(*root, context, study, problems);
        if (const auto list = values.find("workloads"); list != values.end()) {
          read_workloads(list->second, gemm_schedules, schema, file, config_dir, study, problems);
        }
        return study;
      });
}

}  // namespace

config::Loaded<Study> load_study(const std::filesystem::path& path,
                                 const std::vector<std::string>& gemm_schedules,
                                 const std::filesystem::path& config_dir) {
  config::Diagnostics diagnostics;
  const std::optional<YAML::Node> root = config::load_yaml_file(path, diagnostics);
  return read_study(root, path.string(), gemm_schedules, workload_schema(gemm_schedules),
                    config_dir, std::move(diagnostics));
}

config::Loaded<Study> load_study_text(const std::string& text, const std::string& origin,
                                      const std::vector<std::string>& gemm_schedules,
                                      const std::filesystem::path& config_dir) {
  config::Diagnostics diagnostics;
  const std::optional<YAML::Node> root = config::load_yaml_text(text, origin, diagnostics);
  return read_study(root, origin, gemm_schedules, workload_schema(gemm_schedules), config_dir,
                    std::move(diagnostics));
}

struct StudyNodeReader::Schemas {
  config::Schema<GemmWorkload> workload;
};

StudyNodeReader::StudyNodeReader(std::vector<std::string> gemm_schedules,
                                 std::filesystem::path config_dir)
    : gemm_schedules_(std::move(gemm_schedules)),
      config_dir_(std::move(config_dir)),
      schemas_(std::make_unique<const Schemas>(Schemas{workload_schema(gemm_schedules_)})) {}

StudyNodeReader::~StudyNodeReader() = default;

config::Loaded<Study> StudyNodeReader::read(const YAML::Node& root,
                                            const std::string& origin) const {
  return read_study(root, origin, gemm_schedules_, schemas_->workload, config_dir_, {});
}

std::string render_config_reference_markdown() {
  std::vector<config::ReferenceSection> sections = {
      {"Hardware file (configs/hw/*.yaml)",
       "One GPU. Figures are per SM unless the description says otherwise; write the source "
       "of every value as a trailing comment.",
       "", hw::hardware_schema().params()},
      {"Kernel profile file (configs/kernels/*.yaml)",
       "One GEMM kernel implementation, defined once: its tile and how close its main loop "
       "gets to the tensor-core peak. Hardware files offer profiles under the names studies "
       "use (`kernels: {library: library_sm90, ...}`). Keys marked *per GPU* take a value or "
       "a map from GPU keys to values: an architecture (`sm90`) applies to every GPU of it, "
       "`sm90.measured` to its calibrated files (names ending in `.measured`, as "
       "`tilesim-measure calibrate` writes them), a hardware name (`h100_sxm.measured`) to "
       "that file only; the most specific wins, and a GPU the map does not cover is an error. A "
       "hardware file can offer the profile only if its "
       "`architecture` is listed, and the tile must fit the SM: threads, registers, and "
       "`stages x (m x k + n x k) x 2 B` of shared memory against "
       "`sm.shared_memory.per_cta_max`. `--set kernels.<name>.<key>=value` overrides a key "
       "of the profile offered as <name>, `--set kernels.<name>=<profile>` offers another "
       "profile.",
       "", hw::kernel_profile_schema().params()},
      {"Attention profile file (configs/attention/*.yaml)",
       "One attention implementation class, defined once: the mechanisms of a flash-class "
       "kernel (`kind: fused`: GEMM instruction rate, tile, softmax overlap, fixed cost per "
       "CTA, what runs at decode) or of an unfused path (`kind: unfused`: which passes it "
       "makes over the score matrix and what each costs). A study's `kernel:` names an "
       "implementation, which maps to these profiles through one table "
       "(workloads/attention/attention_implementations.cpp); a GPU has the profiles that list "
       "its `architecture`, read from the `attention/` folder beside its kernel profiles. Keys "
       "marked *per GPU* take a value or a map, as in kernel profiles. Keys of the other kind "
       "keep their defaults.",
       "", hw::attention_profile_schema().params()},
      {"Framework profile file (configs/frameworks/*.yaml)",
       "A framework's own small kernels, defined once: what each CTA of a kernel family pays "
       "before its first load (`fused: framework` layers and graph kernels with a `family:`). "
       "A GPU has the profiles that list its `architecture`, read from the `frameworks/` "
       "folder beside its kernel profiles; the layers use `pytorch`. Keys marked *per GPU* "
       "take a value or a map, as in kernel profiles.",
       "", hw::framework_profile_schema().params()},
      {"Study file (configs/studies/*.yaml)", "The hardware to run on and the workloads.", "",
       study_schema().params()},
      {"Workloads (`workloads:` of a study)",
       "One GEMM per entry: `C[m x n] = A[m x k] B[k x n]`. `tile:` fields override the kernel "
       "profile's.",
       "workloads[].", workload_schema({}).params()},
      {"Attention workloads (`attention:` in place of `gemm:`)",
       "softmax(Q K^T / sqrt(d)) V for a batch of sequences, computed by an attention variant; "
       "see docs/attention.md.",
       "workloads[].", attention_workload_params()},
      {"Kernel graphs (`graph:` in place of `gemm:`)",
       "A sequence or DAG of kernels on one or more streams, launched eagerly or as a CUDA "
       "graph; see docs/graphs.md.",
       "workloads[].", graph_workload_params()},
      {"Kernels of a graph (`graph.kernels:`)",
       "One kernel each; which keys apply depends on `op`.", "workloads[].graph.kernels[].",
       graph_kernel_params()},
      {"Decoder layer preset (`layer:` in place of `gemm:`)",
       "A Llama-style decoder layer from model dimensions (defaults: Llama-3-8B); see "
       "docs/graphs.md.",
       "workloads[].", layer_workload_params()},
      {"Model workloads (`model:` in place of `gemm:`)",
       "A decoder-only transformer: embedding, `layers` decoder layers, final RMSNorm and LM "
       "head; prefill (time to first token) and a decode step (time per output token), with "
       "weight and KV-cache bytes and the most sequences that fit in HBM. Dimensions default "
       "to the preset's, else Llama-3-8B's; see docs/models.md.",
       "workloads[].", model_workload_params()},
      {"Model preset file (configs/models/*.yaml)",
       "A model's published dimensions; write the source of every value as a trailing "
       "comment. A study's `model:` keys override them.",
       "", model_preset_params()},
  };
  for (auto& section : sweep_reference_sections()) sections.push_back(std::move(section));
  return config::render_reference_markdown(sections);
}

}  // namespace tilesim::workloads
