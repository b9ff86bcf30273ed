#include "workloads/graph/graph_loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "workloads/attention/attention_variant.hpp"
#include "workloads/gemm/gemm_fusion.hpp"
#include "workloads/gemm/gemm_workload.hpp"
#include "workloads/gemm/split_k_reduction_key.hpp"
#include "workloads/graph/elementwise_kernel.hpp"

namespace tilesim::workloads {

using config::into;
using config::Param;
using config::Value;

namespace {

constexpr double kMaxExtent = double(std::int64_t{1} << 31);
// A row of a graph tensor is read as one L2 block per 256 columns, all in one
// CTA step: 4M columns are 16,384 blocks, a program that still builds in
// milliseconds (docs/limits.md).
constexpr double kMaxRowLength = double(std::int64_t{1} << 22);

const std::vector<std::string>& op_names() {
  static const std::vector<std::string> names = {"elementwise", "rmsnorm", "layernorm", "softmax",
                                                 "mean",        "gemm",    "attention"};
  return names;
}

const std::map<std::string, ElementwiseFunction>& function_names() {
  static const std::map<std::string, ElementwiseFunction> names = {
      {"add", ElementwiseFunction::add},           {"mul", ElementwiseFunction::mul},
      {"silu_mul", ElementwiseFunction::silu_mul}, {"rope", ElementwiseFunction::rope},
      {"silu", ElementwiseFunction::silu},         {"gelu", ElementwiseFunction::gelu},
      {"relu", ElementwiseFunction::relu},         {"copy", ElementwiseFunction::copy}};
  return names;
}

std::vector<std::string> keys_of(const std::map<std::string, ElementwiseFunction>& map) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : map) keys.push_back(key);
  return keys;
}

std::vector<std::string> dtype_names() {
  return {"fp16", "bf16", "fp32", "fp8"};
}

// One entry of `graph.kernels`, as written.
struct KernelEntry {
  std::string name;
  std::string op;
  int stream = 0;
  int repeat = 1;
  std::optional<hw::DataType> dtype;
  std::vector<std::pair<std::string, config::SourceLocation>> after;
  std::vector<std::pair<std::string, config::SourceLocation>> inputs;
  std::string function = "add";
  std::string family = "none";
  std::int64_t rows = 1, cols = 1, m = 1, n = 1, k = 1;
  std::string schedule = "data_parallel";
  SplitKReduction reduction = SplitKReduction::serial;
  bool bias = false;
  std::string activation = "none";
  AttentionShape attention;
  std::string variant = "flash";
  config::SourceLocation where;
};

Param extent(std::string key, std::string doc) {
  return Param::integer(std::move(key)).range(1, kMaxExtent).describe(std::move(doc));
}

void add_common_keys(config::Schema<KernelEntry>& s) {
  using E = KernelEntry;
  s.add(Param::text("name").name_like().describe("Unique within the graph; `after` and `inputs` "
                                                 "refer to it."),
        into(&E::name));
  s.add(Param::choice("op", op_names()).describe("What the kernel computes."), into(&E::op));
  s.add(Param::integer("stream").range(0, 63).default_to("0").describe(
            "Stream it is launched on; kernels of one stream run in order."),
        into(&E::stream));
  s.add(Param::sequence("after").optional().describe(
      "Kernels (of any stream) it waits for: a CUDA event, or a graph edge."));
  s.add(Param::sequence("inputs").optional().describe(
      "Kernels whose outputs it reads (it also waits for them); missing inputs are fresh "
      "tensors in HBM."));
  s.add(Param::integer("repeat").range(1, 100000).default_to("1").describe(
            "Launches of this kernel in a row, named name[0], name[1], ...; they read the same "
            "inputs and write the same output."),
        into(&E::repeat));
  s.add(Param::choice("dtype", dtype_names())
            .default_computed("the graph's `dtype`")
            .describe("Element type of its tensors."),
        [](E& entry, const Value& value) { entry.dtype = hw::parse_data_type(value.text); });
}

std::vector<std::string> family_names() {
  std::vector<std::string> names = {"none"};
  for (const std::string_view name : hw::framework_kernel_family_names()) {
    names.emplace_back(name);
  }
  return names;
}

void add_rows_cols(config::Schema<KernelEntry>& s) {
  using E = KernelEntry;
  s.add(Param::choice("family", family_names())
            .default_to("none")
            .describe("elementwise and row reductions: `none`, a tuned kernel; or the PyTorch "
                      "kernel family it is (configs/frameworks/pytorch.yaml), whose CTAs each "
                      "pay the family's setup first."),
        into(&E::family));
  s.add(extent("rows", "Rows of the tensor (elementwise and row reductions).").default_to("1"),
        into(&E::rows));
  s.add(extent("cols", "Columns (row length) of the tensor (elementwise and row reductions).")
            .range(1, kMaxRowLength),
        into(&E::cols));
}

void add_gemm_keys(config::Schema<KernelEntry>& s, const std::vector<std::string>& schedules) {
  using E = KernelEntry;
  s.add(extent("m", "gemm: rows of A and C."), into(&E::m));
  s.add(extent("n", "gemm: columns of B and C."), into(&E::n));
  s.add(extent("k", "gemm: columns of A, rows of B.").range(1, kMaxRowLength), into(&E::k));
  s.add(Param::choice("schedule", schedules)
            .default_to("data_parallel")
            .describe("gemm: schedule from the registry (data_parallel, split_k, stream_k)."),
        into(&E::schedule));
  s.add(
      split_k_reduction_key("gemm, split_k: `serial` adds a tile's slices in turn through a "
                            "semaphore; `parallel` writes fp32 partials and adds them in a "
                            "separate reduction kernel (a library's decode GEMM)."),
      [](E& entry, const Value& value) { entry.reduction = parse_split_k_reduction(value.text); });
  s.add(Param::choice("bias", {"false", "true"})
            .default_to("false")
            .describe("gemm: a bias row added in the epilogue (fused)."),
        [](E& entry, const Value& value) { entry.bias = value.text == "true"; });
  s.add(Param::choice("activation", {"none", "relu", "gelu", "silu"})
            .default_to("none")
            .describe("gemm: activation applied in the epilogue (fused)."),
        into(&E::activation));
}

void add_attention_keys(config::Schema<KernelEntry>& s) {
  using E = KernelEntry;
  auto shape = [](std::int64_t AttentionShape::*field) {
    return [field](E& entry, const Value& value) { entry.attention.*field = value.integer; };
  };
  s.add(Param::integer("batch").range(1, 65536).default_to("1").describe("attention: sequences."),
        shape(&AttentionShape::batch));
  s.add(Param::integer("heads").range(1, 1024).describe("attention: query heads."),
        shape(&AttentionShape::heads));
  s.add(Param::integer("kv_heads")
            .range(1, 1024)
            .describe("attention: K/V heads; `heads` must be a multiple."),
        shape(&AttentionShape::kv_heads));
  s.add(extent("q_len", "attention: queries per sequence."), shape(&AttentionShape::q_len));
  s.add(extent("kv_len", "attention: keys per sequence."),
        [](E& entry, const Value& value) { entry.attention.kv_lens.assign(1, value.integer); });
  s.add(Param::integer("head_dim")
            .range(16, 256)
            .multiple_of(8)
            .default_to("128")
            .describe("attention: elements per head."),
        shape(&AttentionShape::head_dim));
  s.add(Param::choice("causal", {"false", "true"})
            .default_to("false")
            .describe("attention: causal mask."),
        [](E& entry, const Value& value) { entry.attention.causal = value.text == "true"; });
  s.add(Param::choice("variant", builtin_attention_variants().names())
            .default_to("flash")
            .describe("attention: the variant (docs/attention.md)."),
        into(&E::variant));
}

config::Schema<KernelEntry> kernel_schema(const std::string& op,
                                          const std::vector<std::string>& schedules) {
  config::Schema<KernelEntry> s;
  add_common_keys(s);
  if (op == "gemm") {
    add_gemm_keys(s, schedules);
  } else if (op == "attention") {
    add_attention_keys(s);
  } else {
    if (op == "elementwise") {
      s.add(Param::choice("function", keys_of(function_names()))
                .default_to("add")
                .describe("elementwise: add and mul take two inputs, silu_mul gate and up (two "
                          "inputs, or one of twice the columns), the rest one."),
            into(&KernelEntry::function));
    }
    add_rows_cols(s);
  }
  return s;
}

// Every key of every op, once, for the reference.
config::Schema<KernelEntry> any_kernel_schema(const std::vector<std::string>& schedules) {
  config::Schema<KernelEntry> all;
  std::set<std::string> seen;
  for (const std::string& op : op_names()) {
    for (const Param& param : kernel_schema(op, schedules).params()) {
      if (seen.insert(param.key).second) all.add(param);
    }
  }
  return all;
}

// For a kernel whose op is missing or unknown: every key of every op, none
// required but `name` and `op`, so that only the op and misspelt keys are
// reported, not the keys of ops it is not.
config::Schema<KernelEntry> unknown_op_schema(const std::vector<std::string>& schedules) {
  config::Schema<KernelEntry> schema;
  for (Param param : any_kernel_schema(schedules).params()) {
    if (param.key != "name" && param.key != "op") param.optional();
    schema.add(std::move(param));
  }
  return schema;
}

std::vector<std::pair<std::string, config::SourceLocation>> names_in(
    const config::Values& values, const std::string& key, const std::string& file,
    const std::string& key_path, config::Diagnostics& diagnostics) {
  std::vector<std::pair<std::string, config::SourceLocation>> names;
  const auto found = values.find(key);
  if (found == values.end()) return names;
  for (const YAML::Node& item : found->second.node) {
    const config::SourceLocation where = config::location_of(item.Mark(), file);
    if (!item.IsScalar()) {
      diagnostics.add(where, key_path, "must be a list of kernel names");
      continue;
    }
    names.emplace_back(item.Scalar(), where);
  }
  return names;
}

// What a kernel already in the graph offers to later ones.
struct BuiltKernel {
  int last_node = 0;
  int output = -1;  // tensor index
  std::int64_t rows = 0;
  std::int64_t cols = 0;
};

// Builds the graph from the entries, checking names and shapes.
class GraphBuilder {
 public:
  GraphBuilder(GraphWorkload& workload, hw::DataType dtype, std::string file,
               config::Diagnostics& diagnostics)
      : workload_(workload), dtype_(dtype), file_(std::move(file)), diagnostics_(diagnostics) {}

  void add(const KernelEntry& entry, const std::string& key_path) {
    key_path_ = key_path;
    if (built_.contains(entry.name)) {
      diagnostics_.add(entry.where, key_path + ".name",
                       fmt::format("duplicate kernel name `{}` in this graph", entry.name));
      return;
    }
    std::vector<int> after = resolve(entry.after, ".after");
    std::vector<const BuiltKernel*> inputs;
    for (const auto& [name, where] : entry.inputs) {
      const BuiltKernel* input = find(name, where, ".inputs");
      if (input == nullptr) continue;
      inputs.push_back(input);
      after.push_back(input->last_node);
    }
    const hw::DataType dtype = entry.dtype.value_or(dtype_);
    std::optional<Op> op = make_op(entry, inputs, dtype);
    if (!op) return;
    BuiltKernel built{0, op->output, op->rows, op->cols};
    for (int copy = 0; copy < entry.repeat; ++copy) {
      GraphNode node;
      node.name = entry.repeat > 1 ? fmt::format("{}[{}]", entry.name, copy) : entry.name;
      node.where = entry.where;
      node.stream = entry.stream;
      node.after = copy == 0 ? after : std::vector<int>{};
      node.op = op->node_op;
      if (auto* gemm = std::get_if<GemmOp>(&node.op)) gemm->gemm.name = node.name;
      if (auto* attention = std::get_if<AttentionOp>(&node.op)) {
        attention->attention.name = node.name;
      }
      built.last_node = workload_.graph.add_node(std::move(node));
    }
    built_.emplace(entry.name, built);
    workload_.streams = std::max(workload_.streams, entry.stream + 1);
  }

 private:
  struct Op {
    decltype(GraphNode::op) node_op;
    int output = -1;
    std::int64_t rows = 0;
    std::int64_t cols = 0;
  };

  const BuiltKernel* find(const std::string& name, const config::SourceLocation& where,
                          const std::string& key) {
    const auto found = built_.find(name);
    if (found != built_.end()) return &found->second;
    std::vector<std::string> known;
    for (const auto& [known_name, kernel] : built_) known.push_back(known_name);
    diagnostics_.add(
        where, key_path_ + key,
        fmt::format("no earlier kernel named `{}`; earlier kernels: {}", name,
                    known.empty() ? "(none)" : fmt::format("{}", fmt::join(known, ", "))));
    return nullptr;
  }

  std::vector<int> resolve(const std::vector<std::pair<std::string, config::SourceLocation>>& names,
                           const std::string& key) {
    std::vector<int> nodes;
    for (const auto& [name, where] : names) {
      if (const BuiltKernel* kernel = find(name, where, key)) nodes.push_back(kernel->last_node);
    }
    return nodes;
  }

  bool check_shape(const KernelEntry& entry, const BuiltKernel& input, std::int64_t rows,
                   std::int64_t cols) {
    if (input.rows == rows && input.cols == cols) return true;
    diagnostics_.add(entry.where, key_path_ + ".inputs",
                     fmt::format("`{}` reads a {}x{} tensor, but its input has {}x{}", entry.name,
                                 rows, cols, input.rows, input.cols));
    return false;
  }

  int input_tensor(const BuiltKernel* input, std::int64_t rows, std::int64_t cols,
                   hw::DataType dtype) {
    return input != nullptr ? input->output : workload_.graph.add_tensor(rows, cols, dtype);
  }

  std::optional<Op> make_op(const KernelEntry& entry, const std::vector<const BuiltKernel*>& inputs,
                            hw::DataType dtype) {
    if (entry.op == "elementwise") return make_elementwise(entry, inputs, dtype);
    if (entry.op == "gemm") return make_gemm(entry, inputs, dtype);
    if (entry.op == "attention") return make_attention(entry, inputs, dtype);
    return make_row_reduction(entry, inputs, dtype);
  }

  bool too_many_inputs(const KernelEntry& entry, std::size_t given, std::size_t allowed) {
    if (given <= allowed) return false;
    diagnostics_.add(
        entry.where, key_path_ + ".inputs",
        fmt::format("`{}` takes at most {} input(s), got {}", entry.name, allowed, given));
    return true;
  }

  std::optional<Op> make_elementwise(const KernelEntry& entry,
                                     const std::vector<const BuiltKernel*>& inputs,
                                     hw::DataType dtype) {
    ElementwiseOp op;
    op.function = function_names().at(entry.function);
    op.rows = entry.rows;
    op.cols = entry.cols;
    const bool two = op.function == ElementwiseFunction::add ||
                     op.function == ElementwiseFunction::mul ||
                     op.function == ElementwiseFunction::silu_mul;
    const std::size_t arity = two ? 2 : 1;
    if (too_many_inputs(entry, inputs.size(), arity)) return std::nullopt;
    if (op.function == ElementwiseFunction::silu_mul && inputs.size() == 1 &&
        inputs[0]->cols == 2 * entry.cols && inputs[0]->rows == entry.rows) {
      op.inputs = {{inputs[0]->output, 0}, {inputs[0]->output, entry.cols}};  // gate | up
    } else {
      for (std::size_t i = 0; i < arity; ++i) {
        const BuiltKernel* input = i < inputs.size() ? inputs[i] : nullptr;
        if (input != nullptr && !check_shape(entry, *input, entry.rows, entry.cols)) {
          return std::nullopt;
        }
        op.inputs.push_back({input_tensor(input, entry.rows, entry.cols, dtype)});
      }
    }
    op.output = {workload_.graph.add_tensor(entry.rows, entry.cols, dtype)};
    op.family = hw::parse_framework_kernel_family(entry.family);
    return Op{op, op.output.tensor, entry.rows, entry.cols};
  }

  std::optional<Op> make_row_reduction(const KernelEntry& entry,
                                       const std::vector<const BuiltKernel*>& inputs,
                                       hw::DataType dtype) {
    if (too_many_inputs(entry, inputs.size(), 1)) return std::nullopt;
    const BuiltKernel* input = inputs.empty() ? nullptr : inputs[0];
    if (input != nullptr && !check_shape(entry, *input, entry.rows, entry.cols)) {
      return std::nullopt;
    }
    RowReductionOp op;
    op.kind = entry.op == "rmsnorm"     ? RowReduction::rmsnorm
              : entry.op == "layernorm" ? RowReduction::layernorm
              : entry.op == "mean"      ? RowReduction::mean
                                        : RowReduction::softmax;
    op.rows = entry.rows;
    op.cols = entry.cols;
    op.input = {input_tensor(input, entry.rows, entry.cols, dtype)};
    // A mean writes one value per row.
    const std::int64_t out_cols = op.kind == RowReduction::mean ? 1 : entry.cols;
    op.output = {workload_.graph.add_tensor(entry.rows, out_cols, dtype)};
    op.family = hw::parse_framework_kernel_family(entry.family);
    return Op{op, op.output.tensor, entry.rows, out_cols};
  }

  std::optional<Op> make_gemm(const KernelEntry& entry,
                              const std::vector<const BuiltKernel*>& inputs, hw::DataType dtype) {
    if (too_many_inputs(entry, inputs.size(), 1)) return std::nullopt;
    const BuiltKernel* input = inputs.empty() ? nullptr : inputs[0];
    if (input != nullptr && !check_shape(entry, *input, entry.m, entry.k)) return std::nullopt;
    KernelGraph& graph = workload_.graph;
    auto fusion = std::make_shared<GemmFusion>();
    fusion->tensors = {graph.new_tensor_id(), graph.new_tensor_id(), graph.new_tensor_id(),
                       graph.new_tensor_id()};
    fusion->a = graph.tensor(input_tensor(input, entry.m, entry.k, dtype));
    const int output = graph.add_tensor(entry.m, entry.n, dtype);
    fusion->output = graph.tensor(output);
    fusion->bias = entry.bias;
    const ElementwiseCost activation =
        entry.activation == "none" ? ElementwiseCost{}
                                   : elementwise_cost(function_names().at(entry.activation));
    fusion->epilogue_flops_per_element = (entry.bias ? 1 : 0) + activation.fp32_flops;
    fusion->epilogue_sfu_ops_per_element = activation.sfu_ops;
    GemmWorkload gemm;
    gemm.problem = {entry.m, entry.n, entry.k, dtype, dtype};
    gemm.schedule = entry.schedule;
    gemm.reduction = entry.reduction;
    gemm.fusion = std::move(fusion);
    gemm.where = entry.where;
    gemm.kernel_where = entry.where;
    return Op{GemmOp{std::move(gemm)}, output, entry.m, entry.n};
  }

  // Attention reads and writes its own arrays; its output is a tensor later
  // kernels may read (from HBM: the variants do not store it under graph keys).
  std::optional<Op> make_attention(const KernelEntry& entry,
                                   const std::vector<const BuiltKernel*>& inputs,
                                   hw::DataType dtype) {
    if (too_many_inputs(entry, inputs.size(), 0)) return std::nullopt;
    AttentionWorkload attention;
    attention.shape = entry.attention;
    attention.shape.dtype = dtype;
    attention.shape.kv_lens.assign(static_cast<std::size_t>(attention.shape.batch),
                                   entry.attention.kv_lens.at(0));
    if (attention.shape.heads % attention.shape.kv_heads != 0) {
      diagnostics_.add(entry.where, key_path_ + ".heads",
                       fmt::format("heads ({}) must be a multiple of kv_heads ({})",
                                   attention.shape.heads, attention.shape.kv_heads));
      return std::nullopt;
    }
    attention.variant = entry.variant;
    attention.where = entry.where;
    attention.variant_where = entry.where;
    const std::int64_t rows = attention.shape.batch * attention.shape.q_len;
    const std::int64_t cols = attention.shape.heads * attention.shape.head_dim;
    const int output = workload_.graph.add_tensor(rows, cols, dtype);
    return Op{AttentionOp{std::move(attention)}, output, rows, cols};
  }

  GraphWorkload& workload_;
  hw::DataType dtype_;
  std::string file_;
  config::Diagnostics& diagnostics_;
  std::string key_path_;
  std::map<std::string, BuiltKernel> built_;
};

config::Schema<GraphWorkload> graph_schema() {
  using W = GraphWorkload;
  config::Schema<GraphWorkload> s;
  s.add(Param::text("name").name_like().describe("Unique name, used in reports."), into(&W::name));
  s.add(Param::choice("graph.launch", {"eager", "cuda_graph", "compare"})
            .default_to("eager")
            .describe("`eager`: one host launch per kernel; `cuda_graph`: one launch of the "
                      "whole graph; `compare`: both, one row each."),
        into(&W::launch));
  s.add(Param::choice("graph.dtype", dtype_names())
            .default_to("bf16")
            .describe("Element type of the kernels' tensors unless a kernel sets its own."));
  s.add(Param::sequence("graph.kernels")
            .not_empty()
            .describe("The kernels in launch order (see the kernel keys below)."));
  return s;
}

void read_kernels(const Value& list, const config::ReadContext& context, hw::DataType dtype,
                  const std::vector<std::string>& schedules, GraphWorkload& workload,
                  config::Diagnostics& diagnostics) {
  GraphBuilder builder(workload, dtype, context.file, diagnostics);
  for (std::size_t i = 0; i < list.node.size(); ++i) {
    const YAML::Node item = list.node[i];
    config::ReadContext kernel_context = context;
    kernel_context.key_prefix =
        config::join_keys(context.key_prefix, fmt::format("graph.kernels[{}]", i));
    const std::string op =
        item.IsMap() && item["op"] && item["op"].IsScalar() ? item["op"].Scalar() : std::string();
    const bool known = std::find(op_names().begin(), op_names().end(), op) != op_names().end();
    const config::Schema<KernelEntry> schema =
        known ? kernel_schema(op, schedules) : unknown_op_schema(schedules);
    const std::size_t problems = diagnostics.size();
    KernelEntry entry;
    entry.where = config::location_of(item.Mark(), context.file);
    const config::Values values = schema.read(item, kernel_context, entry, diagnostics);
    entry.after =
        names_in(values, "after", context.file, kernel_context.key_prefix + ".after", diagnostics);
    entry.inputs = names_in(values, "inputs", context.file, kernel_context.key_prefix + ".inputs",
                            diagnostics);
    if (diagnostics.size() == problems) builder.add(entry, kernel_context.key_prefix);
  }
}

}  // namespace

config::Values read_graph_workload(const YAML::Node& item, const config::ReadContext& context,
                                   const std::vector<std::string>& gemm_schedules,
                                   GraphWorkload& workload, config::Diagnostics& diagnostics) {
  workload.where = config::location_of(item.Mark(), context.file);
  const config::Values values = graph_schema().read(item, context, workload, diagnostics);
  hw::DataType dtype = hw::DataType::bf16;
  if (const auto found = values.find("graph.dtype"); found != values.end()) {
    dtype = hw::parse_data_type(found->second.text).value_or(dtype);
  }
  if (const auto list = values.find("graph.kernels"); list != values.end()) {
    read_kernels(list->second, context, dtype, gemm_schedules, workload, diagnostics);
  }
  return values;
}

std::vector<config::Param> graph_workload_params() {
  return graph_schema().params();
}

std::vector<config::Param> graph_kernel_params() {
  return any_kernel_schema({}).params();
}

}  // namespace tilesim::workloads
