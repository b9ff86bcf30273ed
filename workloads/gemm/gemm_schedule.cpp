#include "workloads/gemm/gemm_schedule.hpp"

#include <stdexcept>

#include "workloads/gemm/data_parallel_schedule.hpp"
#include "workloads/gemm/split_k_schedule.hpp"
#include "workloads/gemm/stream_k_schedule.hpp"

namespace tilesim::workloads {

void GemmScheduleRegistry::add(std::string name, std::unique_ptr<const GemmSchedule> schedule) {
  if (find(name) != nullptr) throw std::logic_error("GEMM schedule registered twice: " + name);
  schedules_.emplace_back(std::move(name), std::move(schedule));
}

const GemmSchedule* GemmScheduleRegistry::find(const std::string& name) const {
  for (const auto& [registered, schedule] : schedules_) {
    if (registered == name) return schedule.get();
  }
  return nullptr;
}

std::vector<std::string> GemmScheduleRegistry::names() const {
  std::vector<std::string> names;
  for (const auto& entry : schedules_) names.push_back(entry.first);
  return names;
}

GemmScheduleRegistry builtin_gemm_schedules() {
  GemmScheduleRegistry registry;
  registry.add("data_parallel", std::make_unique<DataParallelSchedule>());
  registry.add("split_k", std::make_unique<SplitKSchedule>());
  registry.add("stream_k", std::make_unique<StreamKSchedule>());
  return registry;
}

}  // namespace tilesim::workloads
