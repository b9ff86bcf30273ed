#include "workloads/study.hpp"

namespace tilesim::workloads {

const std::string& workload_name(const Workload& workload) {
  return std::visit([](const auto& item) -> const std::string& { return item.name; }, workload);
}

const char* workload_kind(const Workload& workload) {
  struct Kind {
    const char* operator()(const GemmWorkload&) const { return "gemm"; }
    const char* operator()(const AttentionWorkload&) const { return "attention"; }
    const char* operator()(const GraphWorkload&) const { return "graph"; }
    const char* operator()(const LayerWorkload&) const { return "layer"; }
    const char* operator()(const ModelWorkload&) const { return "model"; }
  };
  return std::visit(Kind{}, workload);
}

const config::SourceLocation& workload_location(const Workload& workload) {
  return std::visit([](const auto& item) -> const config::SourceLocation& { return item.where; },
                    workload);
}

const std::string& workload_series(const Workload& workload) {
  struct Series {
    const std::string& operator()(const GemmWorkload& gemm) const { return gemm.schedule; }
    const std::string& operator()(const AttentionWorkload& attention) const {
      return attention.variant;
    }
    const std::string& operator()(const GraphWorkload& graph) const { return graph.launch; }
    const std::string& operator()(const LayerWorkload& layer) const { return layer.launch; }
    const std::string& operator()(const ModelWorkload& model) const { return model.launch; }
  };
  return std::visit(Series{}, workload);
}

}  // namespace tilesim::workloads
