#pragma once
// The two kernel-graph workloads of a study: a `graph:` of kernels written out
// in the YAML (a sequence or DAG on one or more streams), and the `layer:`
// preset of a Llama-style decoder layer. Both are launched eagerly, as a CUDA
// graph, or both (`compare`).

#include <string>

#include "hwmodels/diagnostics.hpp"
#include "workloads/graph/decoder_layer.hpp"
#include "workloads/graph/kernel_graph.hpp"

namespace tilesim::workloads {

struct GraphWorkload {
  std::string name;
  std::string launch = "eager";  // eager | cuda_graph | compare
  KernelGraph graph;
  int streams = 1;
  config::SourceLocation where;
};

struct LayerWorkload {
  std::string name;
  DecoderLayerShape shape;
  std::string fused = "true";         // true | false | compare
  std::string launch = "cuda_graph";  // eager | cuda_graph | compare
  config::SourceLocation where;
};

}  // namespace tilesim::workloads
