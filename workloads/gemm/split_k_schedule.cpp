#include "workloads/gemm/split_k_schedule.hpp"

#include <algorithm>

#include "sim/gpu/block_scheduler.hpp"
#include "workloads/gemm/gemm_cta_program.hpp"
#include "workloads/gemm/gemm_kernel_launch.hpp"
#include "workloads/gemm/partial_reduction_kernel.hpp"
#include "workloads/gemm/tile_rasterizer.hpp"

namespace tilesim::workloads {
namespace {

class SplitKPrograms final : public gpu::CtaProgramSource {
 public:
  SplitKPrograms(const GemmWorkload& workload, const hw::KernelProfile& kernel, int splits)
      : builder_(workload.problem, kernel, workload.fusion, GemmKernelBuild::split_k),
        rasterizer_(builder_.tile_rows(), builder_.tile_cols(), kernel.swizzle, kernel.cluster),
        splits_(splits),
        reduction_(workload.reduction) {}

  std::int64_t cta_count() const { return rasterizer_.cta_count() * splits_; }

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    gpu::CtaProgram program;
    build(cta_index, program);
    return program;
  }

  void build(std::int64_t cta_index, gpu::CtaProgram& program) const override {
    program.clear();
    const auto split = static_cast<int>(cta_index / rasterizer_.cta_count());
    const std::optional<TileCoord> tile = rasterizer_.tile_of(cta_index % rasterizer_.cta_count());
    if (!tile) return;  // padding CTA of an edge cluster
    program.tensor_speed = builder_.cta_pace(cta_index);
    program.drifts = !builder_.paces_simulated();
    // Balanced slices, as the reference kernel cuts them: no slice is empty.
    const std::int64_t k_begin = split * builder_.k_blocks() / splits_;
    const std::int64_t k_end = (split + 1) * builder_.k_blocks() / splits_;
    const std::uint16_t segment = builder_.begin_segment(program, *tile, k_begin, k_end);
    builder_.add_main_loop(program, segment, *tile, k_begin, k_end, true);
    if (reduction_ == SplitKReduction::parallel) {
      builder_.add_partial_store(program, segment, *tile, std::nullopt, false,
                                 static_cast<std::uint32_t>(split),
                                 GemmCtaProgramBuilder::PartialLayout::row_major);
    } else {
      add_serial_fixup(program, segment, *tile, split);
    }
  }

 private:
  void add_serial_fixup(gpu::CtaProgram& program, std::uint16_t segment, TileCoord tile,
                        int split) const {
    const gpu::FlagWait previous_done{builder_.tile_flag(tile), split};
    if (splits_ == 1) {
      builder_.add_epilogue(program, segment, tile);
    } else if (split == 0) {
      builder_.add_partial_store(program, segment, tile, std::nullopt, false, 0);
    } else if (split < splits_ - 1) {
      builder_.add_partial_store(program, segment, tile, previous_done, true, 0);
    } else {
      builder_.add_partial_reduce(program, segment, tile, previous_done, 1);
      builder_.add_epilogue(program, segment, tile);
    }
  }

  GemmCtaProgramBuilder builder_;
  TileRasterizer rasterizer_;
  int splits_;
  SplitKReduction reduction_;
};

}  // namespace

int SplitKSchedule::splits_for(const GemmWorkload& workload, const hw::KernelProfile& kernel,
                               const hw::HardwareSpec& spec) {
  const GemmCtaProgramBuilder shape(workload.problem, kernel);
  int splits = workload.splits.value_or(0);
  if (splits == 0) {
    const std::int64_t slots =
        std::int64_t{spec.sm.count} *
        gpu::BlockScheduler(spec.sm).ctas_per_sm(gemm_footprint(workload.problem, kernel));
    splits = static_cast<int>(std::max<std::int64_t>(2, slots / shape.tile_count()));
  }
  return static_cast<int>(std::clamp<std::int64_t>(splits, 1, shape.k_blocks()));
}

gpu::KernelPlan SplitKSchedule::lower(const GemmWorkload& workload, const hw::KernelProfile& kernel,
                                      const hw::HardwareSpec& spec) const {
  const int splits = splits_for(workload, kernel, spec);
  auto programs = std::make_shared<SplitKPrograms>(workload, kernel, splits);
  gpu::KernelPlan plan;
  plan.kernels.push_back(gemm_kernel_launch(workload.name + ".gemm_split_k", workload.problem,
                                            kernel, programs->cta_count(), programs));
  if (workload.reduction == SplitKReduction::parallel) {
    plan.kernels.push_back(
        partial_reduction_kernel(workload.name + ".split_k_reduction", workload, kernel, splits));
  }
  return plan;
}

}  // namespace tilesim::workloads
