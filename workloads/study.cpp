#include "workloads/study.hpp"

namespace tilesim::workloads {

const std::string& workload_name(const Workload& workload) {
  return std::visit([](const auto& item) -> const std::string& { return item.name; }, workload);
}

}  // namespace tilesim::workloads
