#include "workloads/gemm/data_parallel_schedule.hpp"

#include <algorithm>
#include <optional>

#include "sim/gpu/block_scheduler.hpp"
#include "workloads/gemm/gemm_cta_program.hpp"
#include "workloads/gemm/gemm_kernel_launch.hpp"
#include "workloads/gemm/tile_rasterizer.hpp"
#include "workloads/gemm/whole_tile_programs.hpp"

namespace tilesim::workloads {
namespace {

// One CTA per tile (cluster padding included); persistent: `grid_ctas` CTAs
// taking every grid_ctas-th tile of the raster, without cluster padding.
class DataParallelPrograms final : public gpu::CtaProgramSource {
 public:
  DataParallelPrograms(const GemmWorkload& workload, const hw::KernelProfile& config,
                       std::int64_t persistent_ctas)
      : builder_(
            workload.problem, config, workload.fusion,
            workload.persistent ? GemmKernelBuild::persistent : GemmKernelBuild::data_parallel),
        rasterizer_(builder_.tile_rows(), builder_.tile_cols(), config.swizzle,
                    workload.persistent ? hw::ClusterShape{1, 1} : config.cluster),
        grid_ctas_(workload.persistent
                       ? std::clamp<std::int64_t>(persistent_ctas, 1, builder_.tile_count())
                       : rasterizer_.cta_count()) {
    if (!workload.persistent && !workload.fusion) whole_tiles_.emplace(builder_);
  }

  std::int64_t cta_count() const { return grid_ctas_; }

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    gpu::CtaProgram program;
    build(cta_index, program);
    return program;
  }

  // The kernel's loop: tiles b, b + grid, ... (one of them without `persistent`).
  void build(std::int64_t cta_index, gpu::CtaProgram& program) const override {
    program.clear();
    for (std::int64_t order = cta_index; order < rasterizer_.cta_count(); order += grid_ctas_) {
      const std::optional<TileCoord> tile = rasterizer_.tile_of(order);
      if (!tile) continue;  // padding CTA of an edge cluster: exits at once
      if (whole_tiles_) {
        whole_tiles_->assign(*tile, program);
        continue;
      }
      const std::uint16_t segment = builder_.begin_segment(program, *tile, 0, builder_.k_blocks());
      // Every tile is a call of the kernel's main loop: pipeline fill and the
      // work unit's prologue, as a Stream-K unit pays them.
      builder_.add_main_loop(program, segment, *tile, 0, builder_.k_blocks(), true);
      builder_.add_epilogue(program, segment, *tile);
    }
    program.tensor_speed = builder_.cta_pace(cta_index);
    // Whole tiles do not drift apart from their sharers (l2.reader_drift):
    // a round of tiles reads its panels from k = 0 together, and a follower
    // that hits catches up with the leader that missed (tilesim-l2-residency),
    // so a persistent CTA's tiles share as a data-parallel wave's do. On the
    // H100 the wgmma kernel's persistent launches run within -8..+5% of its
    // data-parallel ones on 39 problems up to 4 ms (docs/model.md, "Drift").
    program.drifts = false;
  }

 private:
  GemmCtaProgramBuilder builder_;
  TileRasterizer rasterizer_;
  std::int64_t grid_ctas_;
  std::optional<WholeTilePrograms> whole_tiles_;  // one tile a CTA, without fusion
};

}  // namespace

gpu::KernelPlan DataParallelSchedule::lower(const GemmWorkload& workload,
                                            const hw::KernelProfile& config,
                                            const hw::HardwareSpec& spec) const {
  const std::int64_t persistent_ctas =
      std::int64_t{spec.sm.count} *
      gpu::BlockScheduler(spec.sm).ctas_per_sm(gemm_footprint(workload.problem, config));
  auto programs = std::make_shared<DataParallelPrograms>(workload, config, persistent_ctas);
  gpu::KernelPlan plan;
  // Persistent: CTAs dispatched singly; reads keep the profile's multicast
  // (as for Stream-K, docs/gemm-schedules.md).
  plan.kernels.push_back(gemm_kernel_launch(
      workload.name + (workload.persistent ? ".gemm_dp_persistent" : ".gemm_dp"), workload.problem,
      config, programs->cta_count(), programs, workload.persistent ? 1 : 0));
  return plan;
}

}  // namespace tilesim::workloads
