#include "workloads/workload_cost.hpp"

#include <fmt/format.h>

#include "workloads/attention/attention_runner.hpp"
#include "workloads/graph/graph_runner.hpp"
#include "workloads/model/model_runner.hpp"
#include "workloads/study_runner.hpp"

namespace tilesim::workloads {

config::Loaded<gpu::PlanCost> estimate_workload_cost(const Workload& workload,
                                                     const hw::HardwareSpec& spec,
                                                     const GemmScheduleRegistry& schedules) {
  struct Estimate {
    const hw::HardwareSpec& spec;
    const GemmScheduleRegistry& schedules;
    config::Loaded<gpu::PlanCost> operator()(const GemmWorkload& gemm) const {
      return estimate_gemm_cost(gemm, spec, schedules);
    }
    config::Loaded<gpu::PlanCost> operator()(const AttentionWorkload& attention) const {
      return estimate_attention_cost(attention, spec);
    }
    config::Loaded<gpu::PlanCost> operator()(const GraphWorkload& graph) const {
      return estimate_graph_cost(graph, spec, schedules);
    }
    config::Loaded<gpu::PlanCost> operator()(const LayerWorkload& layer) const {
      return estimate_layer_cost(layer, spec, schedules);
    }
    config::Loaded<gpu::PlanCost> operator()(const ModelWorkload& model) const {
      return estimate_model_cost(model, spec, schedules);
    }
  };
  return std::visit(Estimate{spec, schedules}, workload);
}

std::string over_budget_message(const gpu::PlanCost& cost, double max_events,
                                double overhead_events) {
  const double steps_per_cta = cost.ctas > 0 ? cost.steps / cost.ctas : 0;
  return fmt::format(
      "estimated {:.3g} simulation events ({:.3g} CTAs, {:.3g} steps each), above the budget "
      "of {:.3g} (docs/limits.md); make it smaller, or raise the budget with --max-events",
      cost.events() + overhead_events, cost.ctas, steps_per_cta, max_events);
}

config::Diagnostics check_study_cost(const Study& study, const hw::HardwareSpec& spec,
                                     const GemmScheduleRegistry& schedules, double max_events,
                                     StudyBudget budget) {
  config::Diagnostics problems;
  gpu::PlanCost total;
  bool reported = false;
  for (std::size_t i = 0; i < study.workloads.size(); ++i) {
    const Workload& workload = study.workloads[i];
    config::Loaded<gpu::PlanCost> cost = estimate_workload_cost(workload, spec, schedules);
    problems.append(cost.diagnostics);
    if (!cost.ok()) continue;
    const config::SourceLocation& where = workload_location(workload);
    const std::string key = fmt::format("workloads[{}].{}", i, workload_kind(workload));
    total += *cost.value;
    if (cost.value->events() > max_events) {
      problems.add(where, key, over_budget_message(*cost.value, max_events));
      reported = true;
    } else if (budget == StudyBudget::whole && total.events() > max_events && !reported) {
      problems.add(
          where, key,
          fmt::format("the study up to this workload: {}", over_budget_message(total, max_events)));
      reported = true;
    }
  }
  return problems;
}

}  // namespace tilesim::workloads
