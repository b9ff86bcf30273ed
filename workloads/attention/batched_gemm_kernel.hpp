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
  // A call covering part of the workload (our unfused path: one sequence, one
  // query head of each GQA group): its first sequence, and GEMM h's A matrix
  // is head a_head_offset + h x a_head_stride of a_heads_per_sequence (0: heads).
  std::int64_t first_sequence = 0;
  std::int64_t a_heads_per_sequence = 0;
  std::int64_t a_head_stride = 1;
  std::int64_t a_head_offset = 0;
};

gpu::KernelLaunch batched_gemm_kernel(const BatchedGemm& gemm);

}  // namespace tilesim::workloads
