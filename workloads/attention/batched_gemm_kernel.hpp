#pragma once
// A batched GEMM of the unfused variant (Q K^T, P V): one launch whose CTAs
// cover (sequence, head, tile), heads of a sequence sharing one problem size,
// sequences possibly differing (variable-length batches). Each GEMM is the
// data-parallel schedule of workloads/gemm -- same CTA program builder, same
// rasterization -- with its own block keys: A per (sequence, head), B per
// (sequence, KV head), so heads of a GQA group share B in L2.

#include <string>
#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "workloads/attention/attention_tensors.hpp"
#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::workloads {

struct BatchedGemm {
  std::string name;
  hw::KernelProfile kernel;
  std::vector<GemmProblem> problems;  // one per sequence
  std::int64_t heads = 1;             // GEMMs per sequence
  std::int64_t group_size = 1;        // heads per B matrix
  AttentionArray a = AttentionArray::query;
  AttentionArray b = AttentionArray::key;
};

gpu::KernelLaunch batched_gemm_kernel(const BatchedGemm& gemm);

}  // namespace tilesim::workloads
