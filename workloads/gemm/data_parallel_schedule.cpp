#include "workloads/gemm/data_parallel_schedule.hpp"

#include "workloads/gemm/gemm_cta_program.hpp"
#include "workloads/gemm/gemm_kernel_launch.hpp"
#include "workloads/gemm/tile_rasterizer.hpp"

namespace tilesim::workloads {
namespace {

class DataParallelPrograms final : public gpu::CtaProgramSource {
 public:
  DataParallelPrograms(const GemmWorkload& workload, const hw::KernelProfile& config)
      : builder_(workload.problem, config, workload.fusion),
        rasterizer_(builder_.tile_rows(), builder_.tile_cols(), config.swizzle, config.cluster) {}

  std::int64_t cta_count() const { return rasterizer_.cta_count(); }

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    gpu::CtaProgram program;
    build(cta_index, program);
    return program;
  }

  void build(std::int64_t cta_index, gpu::CtaProgram& program) const override {
    program.clear();
    const std::optional<TileCoord> tile = rasterizer_.tile_of(cta_index);
    if (!tile) return;  // padding CTA of an edge cluster: exits at once
    const std::uint16_t segment = builder_.begin_segment(program, *tile, 0, builder_.k_blocks());
    builder_.add_main_loop(program, segment, *tile, 0, builder_.k_blocks(), true);
    builder_.add_epilogue(program, segment, *tile);
    program.tensor_speed = builder_.cta_pace(cta_index);
    program.drifts = !builder_.paces_simulated();
  }

 private:
  GemmCtaProgramBuilder builder_;
  TileRasterizer rasterizer_;
};

}  // namespace

gpu::KernelPlan DataParallelSchedule::lower(const GemmWorkload& workload,
                                            const hw::KernelProfile& config,
                                            const hw::HardwareSpec& /*spec*/) const {
  auto programs = std::make_shared<DataParallelPrograms>(workload, config);
  gpu::KernelPlan plan;
  plan.kernels.push_back(gemm_kernel_launch(workload.name + ".gemm_dp", workload.problem, config,
                                            programs->cta_count(), programs));
  return plan;
}

}  // namespace tilesim::workloads
