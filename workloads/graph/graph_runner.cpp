#include "workloads/graph/graph_runner.hpp"

#include <fmt/format.h>

#include "hwmodels/data_type.hpp"
#include "workloads/graph/graph_gemm_choice.hpp"
#include "workloads/graph/graph_lowering.hpp"

namespace tilesim::workloads {
namespace {

std::vector<std::string> choices(const std::string& value, std::vector<std::string> both) {
  return value == "compare" ? both : std::vector<std::string>{value};
}

gpu::LaunchMode launch_mode(const std::string& name) {
  return name == "cuda_graph" ? gpu::LaunchMode::cuda_graph : gpu::LaunchMode::eager;
}

// `parts` name the compared choices: "<name>/fused/eager".
std::string run_name(const std::string& name, const std::vector<std::string>& parts) {
  std::string full = name;
  for (const std::string& part : parts) full += "/" + part;
  return full;
}

config::Loaded<WorkloadRun> simulate_graph(const KernelGraph& graph, const std::string& launch,
                                           const hw::HardwareSpec& spec,
                                           const GemmScheduleRegistry& schedules,
                                           const gpu::SimulationOptions& options) {
  config::Loaded<LoweredGraph> lowered =
      lower_kernel_graph(graph, launch_mode(launch), spec, schedules);
  if (!lowered.ok()) return {std::nullopt, std::move(lowered.diagnostics)};
  WorkloadRun run;
  run.kernel = "library";
  run.useful_flops = lowered.value->useful_flops;
  run.result = gpu::simulate(lowered.value->plan, spec, options);
  return {std::move(run), {}};
}

std::vector<WorkloadParameter> layer_parameters(const LayerWorkload& workload, LayerOps ops,
                                                const std::string& launch) {
  const DecoderLayerShape& shape = workload.shape;
  const bool prefill = shape.phase == LayerPhase::prefill;
  std::vector<WorkloadParameter> parameters = {
      {"phase", std::string(prefill ? "prefill" : "decode")},
      {"hidden", shape.hidden},
      {"heads", shape.heads},
      {"kv_heads", shape.kv_heads},
      {"head_dim", shape.head_dim},
      {"intermediate", shape.intermediate},
      {"batch", shape.batch},
  };
  parameters.push_back(prefill ? WorkloadParameter{"tokens", shape.tokens}
                               : WorkloadParameter{"context", shape.context});
  parameters.push_back({"dtype", std::string(hw::to_string(shape.dtype))});
  parameters.push_back({"layers", std::int64_t{shape.layers}});
  parameters.push_back({"fused", std::string(layer_ops_value(ops))});
  parameters.push_back({"launch", launch});
  parameters.push_back({"attention", shape.attention_variant});
  parameters.push_back({"gemm_schedule", shape.gemm_schedule});
  return parameters;
}

}  // namespace

config::Loaded<std::vector<WorkloadRun>> run_graph_workload(const GraphWorkload& workload,
                                                            const hw::HardwareSpec& spec,
                                                            const GemmScheduleRegistry& schedules,
                                                            const gpu::SimulationOptions& options) {
  std::vector<WorkloadRun> runs;
  const config::Loaded<KernelGraph> graph =
      with_chosen_gemms(workload.graph, spec, schedules, options);
  if (!graph.ok()) return {std::nullopt, graph.diagnostics};
  for (const std::string& launch : choices(workload.launch, {"eager", "cuda_graph"})) {
    config::Loaded<WorkloadRun> run =
        simulate_graph(*graph.value, launch, spec, schedules, options);
    if (!run.ok()) return {std::nullopt, std::move(run.diagnostics)};
    run.value->name =
        workload.launch == "compare" ? run_name(workload.name, {launch}) : workload.name;
    run.value->kind = "graph";
    run.value->schedule = launch;
    run.value->parameters = {{"launch", launch},
                             {"nodes", static_cast<std::int64_t>(workload.graph.nodes().size())},
                             {"streams", std::int64_t{workload.streams}}};
    runs.push_back(std::move(*run.value));
  }
  return {std::move(runs), {}};
}

config::Loaded<std::vector<WorkloadRun>> run_layer_workload(const LayerWorkload& workload,
                                                            const hw::HardwareSpec& spec,
                                                            const GemmScheduleRegistry& schedules,
                                                            const gpu::SimulationOptions& options) {
  std::vector<WorkloadRun> runs;
  for (const std::string& fused : choices(workload.fused, {"true", "false"})) {
    const LayerOps ops = parse_layer_ops(fused);
    const config::Loaded<KernelGraph> graph = with_chosen_gemms(
        decoder_layer_graph(workload.shape, ops, workload.where), spec, schedules, options);
    if (!graph.ok()) return {std::nullopt, graph.diagnostics};
    for (const std::string& launch : choices(workload.launch, {"eager", "cuda_graph"})) {
      config::Loaded<WorkloadRun> run =
          simulate_graph(*graph.value, launch, spec, schedules, options);
      if (!run.ok()) return {std::nullopt, std::move(run.diagnostics)};
      std::vector<std::string> parts;
      if (workload.fused == "compare") parts.emplace_back(to_string(ops));
      if (workload.launch == "compare") parts.push_back(launch);
      run.value->name = run_name(workload.name, parts);
      run.value->kind = "layer";
      run.value->schedule = fmt::format("{}:{}", to_string(ops), launch);
      run.value->parameters = layer_parameters(workload, ops, launch);
      runs.push_back(std::move(*run.value));
    }
  }
  return {std::move(runs), {}};
}

namespace {

// The same kernels whatever the launch mode: one plan's cost per launch run.
config::Loaded<gpu::PlanCost> estimate_graph_runs(const KernelGraph& graph,
                                                  const std::string& launch,
                                                  const hw::HardwareSpec& spec,
                                                  const GemmScheduleRegistry& schedules) {
  config::Loaded<LoweredGraph> lowered = lower_kernel_graph(
      with_auto_gemms_as_data_parallel(graph), gpu::LaunchMode::eager, spec, schedules);
  if (!lowered.ok()) return {std::nullopt, std::move(lowered.diagnostics)};
  config::Loaded<gpu::PlanCost> choosing = gemm_choice_cost(graph, spec, schedules);
  if (!choosing.ok()) return choosing;
  const auto runs = static_cast<double>(choices(launch, {"eager", "cuda_graph"}).size());
  gpu::PlanCost cost = gpu::estimate_plan_cost(lowered.value->plan, spec).scaled(runs);
  cost += *choosing.value;
  return {cost, {}};
}

}  // namespace

config::Loaded<gpu::PlanCost> estimate_graph_cost(const GraphWorkload& workload,
                                                  const hw::HardwareSpec& spec,
                                                  const GemmScheduleRegistry& schedules) {
  return estimate_graph_runs(workload.graph, workload.launch, spec, schedules);
}

config::Loaded<gpu::PlanCost> estimate_layer_cost(const LayerWorkload& workload,
                                                  const hw::HardwareSpec& spec,
                                                  const GemmScheduleRegistry& schedules) {
  gpu::PlanCost cost;
  for (const std::string& fused : choices(workload.fused, {"true", "false"})) {
    const KernelGraph graph =
        decoder_layer_graph(workload.shape, parse_layer_ops(fused), workload.where);
    config::Loaded<gpu::PlanCost> runs =
        estimate_graph_runs(graph, workload.launch, spec, schedules);
    if (!runs.ok()) return runs;
    cost += *runs.value;
  }
  return {cost, {}};
}

}  // namespace tilesim::workloads
