#pragma once
// An elementwise kernel (add, mul, SiLU-and-mul, RoPE, activations): one CTA
// per 64 x 256 block of the output, reading the same rows and columns of each
// input, computing, and storing the block.

#include "sim/gpu/kernel_plan.hpp"
#include "workloads/graph/kernel_graph.hpp"

namespace tilesim::workloads {

struct ElementwiseCost {
  double fp32_flops = 0;  // per output element
  double sfu_ops = 0;     // per output element: exp, reciprocal, sin/cos, tanh
};

ElementwiseCost elementwise_cost(ElementwiseFunction function);

gpu::KernelLaunch elementwise_kernel(std::string name, const ElementwiseOp& op,
                                     const KernelGraph& graph, double cta_setup_s);

}  // namespace tilesim::workloads
