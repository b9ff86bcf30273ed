#include "workloads/model/model_runner.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "workloads/graph/graph_gemm_choice.hpp"
#include "workloads/graph/graph_lowering.hpp"
#include "workloads/model/layer_repetition.hpp"
#include "workloads/model/model_memory.hpp"

namespace tilesim::workloads {
namespace {

std::vector<std::string> choices(const std::string& value, std::vector<std::string> both) {
  return value == "compare" ? both : std::vector<std::string>{value};
}

std::vector<LayerPhase> phases(const ModelWorkload& workload) {
  std::vector<LayerPhase> list;
  if (workload.prefill) list.push_back(LayerPhase::prefill);
  if (workload.decode) list.push_back(LayerPhase::decode);
  return list;
}

// The prefill is one prompt (batch 1); the decode step the workload's batch.
DecoderLayerShape phase_shape(const ModelWorkload& workload, LayerPhase phase, int layers) {
  DecoderLayerShape shape = workload.shape;
  const bool prefill = phase == LayerPhase::prefill;
  shape.phase = phase;
  shape.layers = layers;
  if (prefill) {
    shape.batch = 1;
    shape.tokens = workload.prompt_tokens;
  }
  shape.attention_variant =
      prefill ? "flash" : (workload.attention.empty() ? "flash_decoding" : workload.attention);
  shape.gemm_schedule = !workload.schedule.empty() ? workload.schedule
                        : prefill                  ? "auto"
                                                   : "split_k";
  return shape;
}

int simulated_layers(const ModelWorkload& workload) {
  return std::min(workload.shape.layers, kSimulatedLayers);
}

gpu::LaunchMode launch_mode(const std::string& name) {
  return name == "cuda_graph" ? gpu::LaunchMode::cuda_graph : gpu::LaunchMode::eager;
}

// Useful flops of the layer that repeats: its GEMMs and attention.
double layer_useful_flops(const KernelGraph& graph, int layer) {
  double flops = 0;
  for (const GraphNode& node : graph.nodes()) {
    if (node.name.starts_with(layer_prefix(layer))) flops += node_useful_flops(node);
  }
  return flops;
}

std::vector<WorkloadParameter> model_parameters(const ModelWorkload& workload,
                                                const DecoderLayerShape& shape, LayerOps ops,
                                                const std::string& launch) {
  const bool prefill = shape.phase == LayerPhase::prefill;
  std::vector<WorkloadParameter> parameters;
  if (!workload.preset.empty()) parameters.push_back({"preset", workload.preset});
  parameters.insert(parameters.end(), {{"phase", std::string(prefill ? "prefill" : "decode")},
                                       {"hidden", shape.hidden},
                                       {"heads", shape.heads},
                                       {"kv_heads", shape.kv_heads},
                                       {"head_dim", shape.head_dim},
                                       {"intermediate", shape.intermediate},
                                       {"layers", std::int64_t{workload.shape.layers}},
                                       {"vocab", workload.vocab},
                                       {"batch", shape.batch}});
  parameters.push_back(prefill ? WorkloadParameter{"tokens", shape.tokens}
                               : WorkloadParameter{"context", shape.context});
  parameters.push_back({"dtype", std::string(hw::to_string(shape.dtype))});
  parameters.push_back({"fused", std::string(layer_ops_value(ops))});
  parameters.push_back({"launch", launch});
  parameters.push_back({"attention", shape.attention_variant});
  parameters.push_back({"gemm_schedule", shape.gemm_schedule});
  return parameters;
}

std::vector<WorkloadParameter> serving_figures(const ModelWorkload& workload,
                                               const DecoderLayerShape& shape,
                                               const hw::HardwareSpec& spec, double time_us,
                                               const RepeatedLayers& repeated) {
  const bool prefill = shape.phase == LayerPhase::prefill;
  // The prefill's sequence holds its prompt; the decode step's its context.
  const std::int64_t context = prefill ? shape.tokens : shape.context;
  const double weights = model_weight_bytes(workload);
  const double kv = static_cast<double>(shape.batch * context) * kv_cache_bytes_per_token(workload);
  std::vector<WorkloadParameter> figures;
  if (prefill) {
    figures.push_back({"ttft_us", time_us});
    figures.push_back({"prefill_tokens_per_s", static_cast<double>(shape.tokens) / time_us * 1e6});
  } else {
    figures.push_back({"tpot_us", time_us});
    figures.push_back({"tokens_per_s", static_cast<double>(shape.batch) / time_us * 1e6});
  }
  figures.push_back({"weight_bytes", weights});
  figures.push_back({"kv_cache_bytes", kv});
  figures.push_back({"memory_bytes", weights + kv});
  figures.push_back({"hbm_capacity_bytes", spec.hbm.capacity_bytes});
  figures.push_back(
      {"max_concurrency", max_concurrency(workload, context, spec.hbm.capacity_bytes)});
  figures.push_back({"layers_simulated", std::int64_t{repeated.simulated}});
  figures.push_back({"layer_period_us", repeated.period.us()});
  return figures;
}

std::string run_name(const ModelWorkload& workload, LayerPhase phase, LayerOps ops,
                     const std::string& launch) {
  std::string name = workload.name + (phase == LayerPhase::prefill ? "/prefill" : "/decode");
  if (workload.fused == "compare") name += fmt::format("/{}", to_string(ops));
  if (workload.launch == "compare") name += "/" + launch;
  return name;
}

}  // namespace

KernelGraph model_graph(const ModelWorkload& workload, LayerPhase phase, LayerOps ops, int layers) {
  const DecoderLayerShape shape = phase_shape(workload, phase, layers);
  DecoderGraphBuilder builder(shape, ops, workload.where);
  int x = builder.add_embedding();
  for (int layer = 0; layer < layers; ++layer) x = builder.add_layer(x, layer_prefix(layer));
  builder.add_head(workload.vocab);
  return builder.take();
}

config::Loaded<std::vector<WorkloadRun>> run_model_workload(const ModelWorkload& workload,
                                                            const hw::HardwareSpec& spec,
                                                            const GemmScheduleRegistry& schedules,
                                                            const gpu::SimulationOptions& options) {
  const int simulated = simulated_layers(workload);
  std::vector<WorkloadRun> runs;
  for (const LayerPhase phase : phases(workload)) {
    const DecoderLayerShape shape = phase_shape(workload, phase, simulated);
    for (const std::string& fused : choices(workload.fused, {"true", "false"})) {
      const LayerOps ops = parse_layer_ops(fused);
      const config::Loaded<KernelGraph> graph =
          with_chosen_gemms(model_graph(workload, phase, ops, simulated), spec, schedules, options);
      if (!graph.ok()) return {std::nullopt, graph.diagnostics};
      const double repeated_flops = layer_useful_flops(*graph.value, simulated - 1);
      for (const std::string& launch : choices(workload.launch, {"eager", "cuda_graph"})) {
        config::Loaded<LoweredGraph> lowered =
            lower_kernel_graph(*graph.value, launch_mode(launch), spec, schedules);
        if (!lowered.ok()) return {std::nullopt, std::move(lowered.diagnostics)};
        WorkloadRun run;
        RepeatedLayers repeated;
        run.result = repeat_last_layer(gpu::simulate(lowered.value->plan, spec, options), simulated,
                                       workload.shape.layers, repeated);
        run.name = run_name(workload, phase, ops, launch);
        run.kind = "model";
        run.schedule = fmt::format("{}:{}:{}", phase == LayerPhase::prefill ? "prefill" : "decode",
                                   to_string(ops), launch);
        run.kernel = "library";
        run.useful_flops =
            lowered.value->useful_flops + (workload.shape.layers - simulated) * repeated_flops;
        run.parameters = model_parameters(workload, shape, ops, launch);
        run.figures = serving_figures(workload, shape, spec, run.result.time_us(), repeated);
        runs.push_back(std::move(run));
      }
    }
  }
  return {std::move(runs), {}};
}

config::Loaded<gpu::PlanCost> estimate_model_cost(const ModelWorkload& workload,
                                                  const hw::HardwareSpec& spec,
                                                  const GemmScheduleRegistry& schedules) {
  gpu::PlanCost cost;
  const auto launches =
      static_cast<double>(choices(workload.launch, {"eager", "cuda_graph"}).size());
  for (const LayerPhase phase : phases(workload)) {
    for (const std::string& fused : choices(workload.fused, {"true", "false"})) {
      const KernelGraph graph =
          model_graph(workload, phase, parse_layer_ops(fused), simulated_layers(workload));
      config::Loaded<LoweredGraph> lowered = lower_kernel_graph(
          with_auto_gemms_as_data_parallel(graph), gpu::LaunchMode::eager, spec, schedules);
      if (!lowered.ok()) return {std::nullopt, std::move(lowered.diagnostics)};
      config::Loaded<gpu::PlanCost> choosing = gemm_choice_cost(graph, spec, schedules);
      if (!choosing.ok()) return choosing;
      cost += gpu::estimate_plan_cost(lowered.value->plan, spec).scaled(launches);
      cost += *choosing.value;
    }
  }
  return {cost, {}};
}

}  // namespace tilesim::workloads
