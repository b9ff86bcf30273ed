#include "kernels/measure/attention_case.hpp"

#include <fmt/format.h>

namespace tilesim::measure {

std::variant<AttentionCase, AttentionCaseError> make_attention_case(
    const workloads::AttentionWorkload& workload) {
  if (workload.variant == "compare") {
    return AttentionCaseError{
        workload.variant_where,
        "variant `compare` simulates every variant that applies; a measurement runs one "
        "kernel: write one workload per variant (unfused, flash, flash_decoding, paged_v1, "
        "paged_v2, stream_k_decode)"};
  }
  if (workload.kernel == "library") {
    return AttentionCaseError{
        workload.where,
        "kernel `library` (the default) has no attention implementation in tilesim-measure "
        "(library attention kernels are measured through PyTorch SDPA); set `kernel: "
        "tilesim_ref` to time the reference kernels"};
  }
  if (workload.kernel != "tilesim_ref" && workload.kernel != "tilesim_ref_wgmma") {
    return AttentionCaseError{workload.where,
                              fmt::format("kernel `{}` has no attention implementation in "
                                          "tilesim-measure; measurable: tilesim_ref, "
                                          "tilesim_ref_wgmma (variant flash)",
                                          workload.kernel)};
  }
  auto variant = kernels::parse_attention_variant(workload.variant);
  if (!variant || *variant == kernels::AttentionVariant::flash_wgmma) {
    return AttentionCaseError{
        workload.variant_where,
        fmt::format("variant `{}` has no reference kernel", workload.variant)};
  }
  if (workload.kernel == "tilesim_ref_wgmma") {
    if (*variant != kernels::AttentionVariant::flash) {
      return AttentionCaseError{
          workload.variant_where,
          fmt::format("kernel tilesim_ref_wgmma (the FA3-class Hopper kernel) runs variant "
                      "flash only, not `{}`",
                      workload.variant)};
    }
    variant = kernels::AttentionVariant::flash_wgmma;
  }
  const workloads::AttentionShape& shape = workload.shape;
  AttentionCase item;
  item.name = workload.name;
  item.kernel = workload.kernel;
  item.variant = *variant;
  kernels::AttentionProblem& problem = item.problem;
  problem.batch = static_cast<int>(shape.batch);
  problem.heads = static_cast<int>(shape.heads);
  problem.kv_heads = static_cast<int>(shape.kv_heads);
  problem.q_len = static_cast<int>(shape.q_len);
  for (const std::int64_t kv_len : shape.kv_lens) {
    problem.kv_lens.push_back(static_cast<int>(kv_len));
  }
  problem.head_dim = static_cast<int>(shape.head_dim);
  problem.causal = shape.causal;
  problem.page_size = static_cast<int>(shape.page_size);
  problem.splits = workload.splits.value_or(0);
  switch (shape.dtype) {
    case hw::DataType::bf16:
      problem.dtype = kernels::ElementType::bf16;
      break;
    case hw::DataType::fp16:
      problem.dtype = kernels::ElementType::fp16;
      break;
    default:
      return AttentionCaseError{
          workload.where, fmt::format("no {} attention kernel for dtype {}; measurable: bf16, fp16",
                                      workload.variant, hw::to_string(shape.dtype))};
  }
  if (const auto error = kernels::attention_launch_error(*variant, problem)) {
    return AttentionCaseError{
        workload.where,
        fmt::format("{} {} cannot run it: {}", workload.kernel, workload.variant, *error)};
  }
  return item;
}

}  // namespace tilesim::measure
