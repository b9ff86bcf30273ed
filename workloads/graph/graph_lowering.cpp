#include "workloads/graph/graph_lowering.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "workloads/attention/attention_lowering.hpp"
#include "workloads/gemm/gemm_kernel_config.hpp"
#include "workloads/graph/elementwise_kernel.hpp"
#include "workloads/graph/row_reduction_kernel.hpp"

namespace tilesim::workloads {
namespace {

using Launches = config::Loaded<std::vector<gpu::KernelLaunch>>;

Launches lower_gemm(const GemmWorkload& gemm, const hw::HardwareSpec& spec,
                    const GemmScheduleRegistry& schedules) {
  const GemmSchedule* schedule = schedules.find(gemm.schedule);
  if (schedule == nullptr) {
    Launches failed;
    failed.diagnostics.add(gemm.where, gemm.name + ".schedule",
                           fmt::format("unknown schedule '{}'; allowed: {}", gemm.schedule,
                                       fmt::join(schedules.names(), ", ")));
    return failed;
  }
  config::Loaded<hw::KernelProfile> kernel = resolve_gemm_kernel(gemm, spec);
  if (!kernel.ok()) return {std::nullopt, std::move(kernel.diagnostics)};
  return {schedule->lower(gemm, *kernel.value, spec).kernels, {}};
}

// The framework whose kernels framework-granularity layers and graph kernels
// with a `family` launch.
constexpr const char* kFrameworkProfile = "pytorch";

std::optional<hw::FrameworkKernelFamily> family_of(const GraphNode& node) {
  if (const auto* op = std::get_if<ElementwiseOp>(&node.op)) return op->family;
  if (const auto* op = std::get_if<RowReductionOp>(&node.op)) return op->family;
  return std::nullopt;
}

// The framework profile when some node is a framework kernel (nullptr when
// none is); one error when the GPU has no such profile.
config::Loaded<const hw::FrameworkProfile*> framework_profile_for(const KernelGraph& graph,
                                                                  const hw::HardwareSpec& spec) {
  config::Loaded<const hw::FrameworkProfile*> loaded;
  const auto framework_node = std::find_if(graph.nodes().begin(), graph.nodes().end(),
                                           [](const GraphNode& node) { return family_of(node); });
  if (framework_node == graph.nodes().end()) {
    loaded.value = nullptr;
    return loaded;
  }
  const auto profile = spec.framework_profiles.find(kFrameworkProfile);
  if (profile == spec.framework_profiles.end()) {
    loaded.diagnostics.add(
        framework_node->where, framework_node->name,
        fmt::format("framework kernels need the framework profile `{}`, which does not run on "
                    "{} ({}): framework profiles are read from the frameworks/ folder beside the "
                    "hardware file's kernels/ folder",
                    kFrameworkProfile, spec.architecture, spec.name));
    return loaded;
  }
  loaded.value = &profile->second;
  return loaded;
}

// What each CTA of the node's kernel pays before its first load: its family's
// setup, 0 for a tuned kernel.
double cta_setup_s(std::optional<hw::FrameworkKernelFamily> family,
                   const hw::FrameworkProfile* framework) {
  return family && framework != nullptr ? framework->setup_s(*family) : 0.0;
}

Launches lower_node(const GraphNode& node, const KernelGraph& graph, const hw::HardwareSpec& spec,
                    const hw::FrameworkProfile* framework, const GemmScheduleRegistry& schedules) {
  if (const auto* op = std::get_if<ElementwiseOp>(&node.op)) {
    return {std::vector<gpu::KernelLaunch>{
                elementwise_kernel(node.name, *op, graph, cta_setup_s(op->family, framework))},
            {}};
  }
  if (const auto* op = std::get_if<RowReductionOp>(&node.op)) {
    return {std::vector<gpu::KernelLaunch>{row_reduction_kernel(
                node.name, *op, graph, spec.sm, cta_setup_s(op->family, framework))},
            {}};
  }
  if (const auto* op = std::get_if<GemmOp>(&node.op)) return lower_gemm(op->gemm, spec, schedules);
  return lower_attention(std::get<AttentionOp>(node.op).attention, spec);
}

}  // namespace

double node_useful_flops(const GraphNode& node) {
  if (const auto* op = std::get_if<GemmOp>(&node.op)) return op->gemm.problem.flops();
  if (const auto* op = std::get_if<AttentionOp>(&node.op)) {
    return op->attention.shape.useful_flops();
  }
  return 0;
}

config::Loaded<LoweredGraph> lower_kernel_graph(const KernelGraph& graph, gpu::LaunchMode mode,
                                                const hw::HardwareSpec& spec,
                                                const GemmScheduleRegistry& schedules) {
  config::Loaded<LoweredGraph> loaded;
  const config::Loaded<const hw::FrameworkProfile*> framework = framework_profile_for(graph, spec);
  if (!framework.ok()) {
    loaded.diagnostics = framework.diagnostics;
    return loaded;
  }
  LoweredGraph lowered;
  lowered.plan.mode = mode;
  std::vector<int> last_kernel_of_node;
  for (const GraphNode& node : graph.nodes()) {
    Launches launches = lower_node(node, graph, spec, *framework.value, schedules);
    loaded.diagnostics.append(launches.diagnostics);
    const int first = static_cast<int>(lowered.plan.kernels.size());
    if (launches.ok()) {
      if (node.framework_op && !launches.value->empty()) {
        launches.value->front().host_dispatch_s = spec.launch.framework_dispatch_s;
      }
      for (gpu::KernelLaunch& launch : *launches.value) {
        launch.stream = node.stream;
        for (int& dependency : launch.depends_on) dependency += first;  // within the node
        lowered.plan.kernels.push_back(std::move(launch));
      }
    }
    const int last = static_cast<int>(lowered.plan.kernels.size()) - 1;
    if (last >= first) {
      for (const int after : node.after) {
        const int dependency = last_kernel_of_node.at(static_cast<std::size_t>(after));
        if (dependency >= 0) lowered.plan.kernels[first].depends_on.push_back(dependency);
      }
    }
    last_kernel_of_node.push_back(last >= first ? last : -1);
    lowered.useful_flops += node_useful_flops(node);
  }
  if (loaded.diagnostics.empty()) loaded.value = std::move(lowered);
  return loaded;
}

}  // namespace tilesim::workloads
