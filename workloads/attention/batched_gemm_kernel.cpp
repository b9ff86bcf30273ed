#include "workloads/attention/batched_gemm_kernel.hpp"

#include <algorithm>
#include <memory>

#include "workloads/gemm/gemm_cta_program.hpp"
#include "workloads/gemm/gemm_fusion.hpp"
#include "workloads/gemm/gemm_kernel_launch.hpp"
#include "workloads/gemm/tile_rasterizer.hpp"

namespace tilesim::workloads {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

class BatchedGemmPrograms final : public gpu::CtaProgramSource {
 public:
  explicit BatchedGemmPrograms(BatchedGemm gemm) : gemm_(std::move(gemm)) {
    // The SM's narrow-load gather rate (and its round latency) is measured
    // for, and matched by Nsight to, cuBLAS's plain align1 GEMMs, whose time
    // is their gather. The unaligned Q K^T here (k = the head dimension) is
    // held by its narrow C store instead (round 20: S written at 0.5-0.95
    // TB/s), which is not modelled: the gather rate alone reads those rows
    // faster still (GEMM round 22, held out), so they keep the memory's rate.
    if (gemm_.kernel.unaligned_gather_bytes_per_clock_per_sm > 0) {
      gemm_.kernel.unaligned_gather_bytes_per_clock_per_sm = 0;
      gemm_.kernel.unaligned_load_latency_s = 0;
    }
    first_cta_.push_back(0);
    for (const GemmProblem& problem : gemm_.problems) {
      ctas_per_head_.push_back(rasterizer(problem).cta_count());
      first_cta_.push_back(first_cta_.back() + gemm_.heads * ctas_per_head_.back());
    }
  }

  std::int64_t cta_count() const { return first_cta_.back(); }

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    const auto sequence = static_cast<std::size_t>(
        std::upper_bound(first_cta_.begin(), first_cta_.end(), cta_index) - first_cta_.begin() - 1);
    const std::int64_t local = cta_index - first_cta_[sequence];
    const std::int64_t head = local / ctas_per_head_[sequence];
    const GemmProblem& problem = gemm_.problems[sequence];
    const std::int64_t seq = gemm_.first_sequence + static_cast<std::int64_t>(sequence);
    const std::int64_t a_heads =
        gemm_.a_heads_per_sequence > 0 ? gemm_.a_heads_per_sequence : gemm_.heads;
    const std::int64_t a_matrix = seq * a_heads + gemm_.a_head_offset + head * gemm_.a_head_stride;
    auto fusion = std::make_shared<GemmFusion>();
    fusion->tensors.a = attention_tensor_id(gemm_.a, a_matrix);
    fusion->tensors.b = attention_tensor_id(
        gemm_.b, seq * (gemm_.heads / gemm_.group_size) + head / gemm_.group_size);
    fusion->tensors.workspace = attention_tensor_id(AttentionArray::partial, a_matrix);
    const GemmCtaProgramBuilder builder(problem, gemm_.kernel, std::move(fusion));
    gpu::CtaProgram program;
    const std::optional<TileCoord> tile =
        rasterizer(problem).tile_of(local % ctas_per_head_[sequence]);
    if (!tile) return program;  // padding CTA of an edge cluster: exits at once
    const std::uint16_t segment = builder.begin_segment(program, *tile, 0, builder.k_blocks());
    builder.add_main_loop(program, segment, *tile, 0, builder.k_blocks(), true);
    builder.add_epilogue(program, segment, *tile);
    return program;
  }

 private:
  TileRasterizer rasterizer(const GemmProblem& problem) const {
    return {ceil_div(problem.m, gemm_.kernel.tile_m), ceil_div(problem.n, gemm_.kernel.tile_n),
            gemm_.kernel.swizzle, gemm_.kernel.cluster};
  }

  BatchedGemm gemm_;
  std::vector<std::int64_t> first_cta_;      // per sequence, and the total at the end
  std::vector<std::int64_t> ctas_per_head_;  // per sequence
};

}  // namespace

gpu::KernelLaunch batched_gemm_kernel(const BatchedGemm& gemm) {
  auto programs = std::make_shared<BatchedGemmPrograms>(gemm);
  return gemm_kernel_launch(gemm.name, gemm.problems.front(), gemm.kernel, programs->cta_count(),
                            programs);
}

}  // namespace tilesim::workloads
