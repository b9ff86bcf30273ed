#pragma once
// A row-reduction kernel (RMSNorm, LayerNorm, softmax, a mean): each CTA takes
// a few whole rows (one per CTA up to 512 rows, more beyond, so the grid stays
// near four CTAs per SM; PyTorch's reduce_kernel as ATen lays it out), reads
// them, reduces and rescales on the CUDA cores and special-function units, and
// stores them.

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "workloads/graph/elementwise_kernel.hpp"
#include "workloads/graph/kernel_graph.hpp"

namespace tilesim::workloads {

struct RowReductionCost {
  ElementwiseCost per_element;
  double sfu_ops_per_row = 0;  // 1/sqrt of the mean square or variance
};

RowReductionCost row_reduction_cost(RowReduction kind);

gpu::KernelLaunch row_reduction_kernel(std::string name, const RowReductionOp& op,
                                       const KernelGraph& graph, const hw::SmSpec& sm,
                                       double cta_setup_s);

}  // namespace tilesim::workloads
