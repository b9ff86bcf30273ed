#include "workloads/graph/graph_gemm_choice.hpp"

#include <fmt/format.h>

#include <map>
#include <set>
#include <string>

#include "workloads/gemm/gemm_fusion.hpp"
#include "workloads/gemm/gemm_runner.hpp"

namespace tilesim::workloads {
namespace {

// What decides a GEMM's time alone: its problem, kernel, reduction and fused
// work (not which graph tensors it reads).
std::string choice_key(const GemmWorkload& gemm) {
  const GemmProblem& p = gemm.problem;
  std::string key =
      fmt::format("{}x{}x{} {} {} {} {}", p.m, p.n, p.k, hw::to_string(p.input_type),
                  hw::to_string(p.output_type), gemm.kernel,
                  gemm.reduction == SplitKReduction::parallel ? "parallel" : "serial");
  if (const GemmFusion* fusion = gemm.fusion.get()) {
    key += fmt::format(" a{} r{} b{} {} {} {} /{}", fusion->a.has_value(),
                       fusion->residual.has_value(), fusion->bias,
                       fusion->prologue_flops_per_a_element, fusion->epilogue_flops_per_element,
                       fusion->epilogue_sfu_ops_per_element, fusion->output_column_divisor);
  }
  return key;
}

GemmWorkload* auto_gemm(GraphNode& node) {
  auto* op = std::get_if<GemmOp>(&node.op);
  return op != nullptr && op->gemm.schedule == "auto" ? &op->gemm : nullptr;
}

}  // namespace

config::Loaded<KernelGraph> with_chosen_gemms(const KernelGraph& graph,
                                              const hw::HardwareSpec& spec,
                                              const GemmScheduleRegistry& schedules,
                                              const gpu::SimulationOptions& options) {
  KernelGraph chosen = graph;
  std::map<std::string, GemmWorkload> choices;
  for (std::size_t i = 0; i < chosen.nodes().size(); ++i) {
    GemmWorkload* gemm = auto_gemm(chosen.node(i));
    if (gemm == nullptr) continue;
    const std::string key = choice_key(*gemm);
    auto found = choices.find(key);
    if (found == choices.end()) {
      config::Loaded<GemmWorkload> choice = chosen_gemm(*gemm, spec, schedules, options);
      if (!choice.ok()) return {std::nullopt, std::move(choice.diagnostics)};
      found = choices.emplace(key, std::move(*choice.value)).first;
    }
    // The choice's schedule, tile and splits; the node keeps its own name,
    // tensors and fused work.
    const GemmWorkload& winner = found->second;
    gemm->schedule = winner.schedule;
    gemm->tile = winner.tile;
    gemm->splits = winner.splits;
    gemm->reduction = winner.reduction;
    gemm->stream_k_mode = winner.stream_k_mode;
    gemm->fixup = winner.fixup;
    gemm->kernel = winner.kernel;
  }
  return {std::move(chosen), {}};
}

KernelGraph with_auto_gemms_as_data_parallel(const KernelGraph& graph) {
  KernelGraph stand_in = graph;
  for (std::size_t i = 0; i < stand_in.nodes().size(); ++i) {
    if (GemmWorkload* gemm = auto_gemm(stand_in.node(i))) gemm->schedule = "data_parallel";
  }
  return stand_in;
}

config::Loaded<gpu::PlanCost> gemm_choice_cost(const KernelGraph& graph,
                                               const hw::HardwareSpec& spec,
                                               const GemmScheduleRegistry& schedules) {
  gpu::PlanCost cost;
  std::set<std::string> counted;
  for (const GraphNode& node : graph.nodes()) {
    const auto* op = std::get_if<GemmOp>(&node.op);
    if (op == nullptr || op->gemm.schedule != "auto") continue;
    if (!counted.insert(choice_key(op->gemm)).second) continue;
    // Every candidate does the GEMM's work in about as many CTA steps as
    // data-parallel does; lowering each of them only to count would cost as
    // much as a small simulation.
    GemmWorkload data_parallel = op->gemm;
    data_parallel.schedule = "data_parallel";
    config::Loaded<gpu::PlanCost> one = estimate_gemm_cost(data_parallel, spec, schedules);
    if (!one.ok()) return one;
    cost += one.value->scaled(static_cast<double>(expected_auto_runs(op->gemm, spec)));
  }
  return {cost, {}};
}

}  // namespace tilesim::workloads
