#include "workloads/graph/kernel_graph.hpp"

namespace tilesim::workloads {

int KernelGraph::add_tensor(std::int64_t rows, std::int64_t cols, hw::DataType dtype) {
  tensors_.emplace_back(new_tensor_id(), rows, cols, dtype);
  return static_cast<int>(tensors_.size() - 1);
}

int KernelGraph::add_node(GraphNode node) {
  nodes_.push_back(std::move(node));
  return static_cast<int>(nodes_.size() - 1);
}

}  // namespace tilesim::workloads
