#include "workloads/gemm/stream_k_schedule.hpp"

#include <algorithm>
#include <optional>

#include "sim/gpu/block_scheduler.hpp"
#include "workloads/gemm/data_parallel_schedule.hpp"
#include "workloads/gemm/gemm_cta_program.hpp"
#include "workloads/gemm/gemm_kernel_launch.hpp"
#include "workloads/gemm/stream_k_partition.hpp"
#include "workloads/gemm/tile_rasterizer.hpp"
#include "workloads/gemm/whole_tile_programs.hpp"

namespace tilesim::workloads {
namespace {

// A unit covers at least this many MAC iterations (the reference kernel's
// grid heuristic): a deterministic turnstile costs a serial step per peer, so
// tiles are cut into at most about eight pieces; atomic fixup is cheaper.
std::int64_t min_iterations_per_unit(FixupOrder fixup, std::int64_t k_blocks) {
  if (fixup == FixupOrder::atomic) return 4;
  return std::max<std::int64_t>(8, (k_blocks + 7) / 8);
}

StreamKPartition partition_of(const GemmWorkload& workload, const GemmCtaProgramBuilder& builder,
                              std::int64_t persistent_ctas) {
  return {workload.stream_k_mode, builder.tile_count(), builder.k_blocks(), persistent_ctas,
          min_iterations_per_unit(workload.fixup, builder.k_blocks())};
}

// CTAs resident at once: the persistent grid the Stream-K units spread over.
std::int64_t persistent_ctas_of(const GemmWorkload& workload, const hw::KernelProfile& kernel,
                                const hw::HardwareSpec& spec) {
  return std::int64_t{spec.sm.count} *
         gpu::BlockScheduler(spec.sm).ctas_per_sm(gemm_footprint(workload.problem, kernel));
}

class StreamKPrograms final : public gpu::CtaProgramSource {
 public:
  StreamKPrograms(const GemmWorkload& workload, const hw::KernelProfile& kernel,
                  std::int64_t persistent_ctas)
      : builder_(workload.problem, kernel, workload.fusion, GemmKernelBuild::persistent),
        // Tiles are visited in rasterization order, without cluster padding.
        rasterizer_(builder_.tile_rows(), builder_.tile_cols(), kernel.swizzle, {1, 1}),
        partition_(partition_of(workload, builder_, persistent_ctas)),
        fixup_(workload.fixup),
        head_first_(kernel.stream_k_order == hw::StreamKOrder::head_first),
        static_data_parallel_(kernel.stream_k_data_parallel_order ==
                              hw::StreamKDataParallelOrder::static_list),
        persistent_ctas_(persistent_ctas) {
    // A claimed data-parallel tile is a CTA's whole program.
    if (!static_data_parallel_ && partition_.data_parallel_tiles() > 0 && !workload.fusion) {
      whole_tiles_.emplace(builder_);
    }
  }

  // Claimed: the Stream-K units, then one CTA per data-parallel tile (the
  // first free SM takes it, as the kernel's counter hands it out). Static: the
  // kernel's grid, each CTA with its Stream-K range and then its fixed list.
  std::int64_t cta_count() const {
    if (static_data_parallel_) {
      return std::max(partition_.stream_k_units(),
                      std::min(persistent_ctas_, partition_.data_parallel_tiles()));
    }
    return partition_.stream_k_units() + partition_.data_parallel_tiles();
  }

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    gpu::CtaProgram program;
    build(cta_index, program);
    return program;
  }

  void build(std::int64_t cta_index, gpu::CtaProgram& program) const override {
    program.clear();
    const bool stream_k_unit = cta_index < partition_.stream_k_units();
    builder_.reserve_segments(program, segments_of(cta_index));
    if (stream_k_unit) add_stream_k_unit(program, cta_index);
    if (static_data_parallel_) {
      // The kernel's loop: tiles b, b + grid, ... of the data-parallel ones.
      for (std::int64_t tile = cta_index; tile < partition_.data_parallel_tiles();
           tile += cta_count()) {
        add_data_parallel_tile(program, partition_.stream_k_tiles() + tile);
      }
    } else if (!stream_k_unit) {
      const std::int64_t order =
          partition_.stream_k_tiles() + cta_index - partition_.stream_k_units();
      if (whole_tiles_) {
        whole_tiles_->assign(tile_at(order), program);
      } else {
        add_data_parallel_tile(program, order);
      }
    }
    program.tensor_speed = builder_.cta_pace(cta_index);
    program.drifts = !builder_.paces_simulated();
  }

 private:
  TileCoord tile_at(std::int64_t order) const { return *rasterizer_.tile_of(order); }

  // The segments build() gives CTA `cta_index`: the tiles its unit's range
  // touches, and its data-parallel tiles.
  std::size_t segments_of(std::int64_t cta_index) const {
    std::int64_t segments = 0;
    if (cta_index < partition_.stream_k_units()) {
      const std::int64_t begin = partition_.first_iteration(cta_index);
      const std::int64_t end = partition_.first_iteration(cta_index + 1);
      if (end > begin)
        segments += (end - 1) / builder_.k_blocks() - begin / builder_.k_blocks() + 1;
    }
    if (static_data_parallel_) {
      if (cta_index < partition_.data_parallel_tiles()) {
        segments += (partition_.data_parallel_tiles() - cta_index - 1) / cta_count() + 1;
      }
    } else if (cta_index >= partition_.stream_k_units()) {
      segments += 1;
    }
    return static_cast<std::size_t>(segments);
  }

  void add_data_parallel_tile(gpu::CtaProgram& program, std::int64_t order) const {
    const TileCoord tile = tile_at(order);
    const std::uint16_t segment = builder_.begin_segment(program, tile, 0, builder_.k_blocks());
    builder_.add_main_loop(program, segment, tile, 0, builder_.k_blocks(), true);
    builder_.add_epilogue(program, segment, tile);
  }

  // tail_first walks the unit's range upward; head_first from its last tile
  // down: that tile's head (from k = 0) first, its first tile's tail last.
  void add_stream_k_unit(gpu::CtaProgram& program, std::int64_t unit) const {
    const std::int64_t k_blocks = builder_.k_blocks();
    const std::int64_t begin = partition_.first_iteration(unit);
    const std::int64_t end = partition_.first_iteration(unit + 1);
    if (head_first_) {
      for (std::int64_t top = end; top > begin;) {
        const std::int64_t order = (top - 1) / k_blocks;
        const std::int64_t k_begin = std::max(begin, order * k_blocks) - order * k_blocks;
        add_segment(program, unit, order, k_begin, top - order * k_blocks);
        top = order * k_blocks + k_begin;
      }
      return;
    }
    for (std::int64_t iteration = begin; iteration < end;) {
      const std::int64_t order = iteration / k_blocks;
      const std::int64_t k_begin = iteration - order * k_blocks;
      const std::int64_t k_end = std::min(k_blocks, k_begin + (end - iteration));
      add_segment(program, unit, order, k_begin, k_end);
      iteration += k_end - k_begin;
    }
  }

  void add_segment(gpu::CtaProgram& program, std::int64_t unit, std::int64_t order,
                   std::int64_t k_begin, std::int64_t k_end) const {
    const TileCoord tile = tile_at(order);
    const std::uint16_t segment = builder_.begin_segment(program, tile, k_begin, k_end);
    // Every segment is a call of the kernel's main loop: it fills the
    // pipeline again and pays the work unit's prologue and epilogue.
    builder_.add_main_loop(program, segment, tile, k_begin, k_end, true);
    if (k_begin == 0 && k_end == builder_.k_blocks()) {
      builder_.add_epilogue(program, segment, tile);
      return;
    }
    add_fixup(program, segment, tile, fixup_part(order, unit, k_begin, k_end));
  }

  // A unit's part in a tile it shares: the finisher waits for `count` peers;
  // a peer takes turn `count` (1-based) in the deterministic turnstile.
  struct FixupPart {
    bool finisher = false;
    std::int64_t count = 0;
  };

  FixupPart fixup_part(std::int64_t order, std::int64_t unit, std::int64_t k_begin,
                       std::int64_t k_end) const {
    const std::int64_t k_blocks = builder_.k_blocks();
    const std::int64_t first_holder = partition_.unit_of(order * k_blocks);
    if (head_first_) {
      // The holder of the tile's last k-blocks reaches it last and finishes
      // it; the others add in ascending k order, the head's holder first.
      if (k_end == k_blocks) return {true, unit - first_holder};
      return {false, unit - first_holder + 1};
    }
    // The holder of k-block 0 reaches the tile at the end of its range and
    // finishes it. The turnstile runs from the tile's last k-range back
    // towards it: the peer holding the last iterations does them first in its
    // own range, so each peer is done by the time its predecessor is.
    const std::int64_t last_holder = partition_.unit_of(order * k_blocks + k_blocks - 1);
    if (k_begin == 0) return {true, last_holder - first_holder};
    return {false, last_holder - unit + 1};
  }

  void add_fixup(gpu::CtaProgram& program, std::uint16_t segment, TileCoord tile,
                 FixupPart part) const {
    const std::uint32_t flag = builder_.tile_flag(tile);
    if (part.finisher) {
      builder_.add_partial_reduce(program, segment, tile, gpu::FlagWait{flag, part.count}, 1);
      builder_.add_epilogue(program, segment, tile);
    } else if (fixup_ == FixupOrder::deterministic && part.count > 1) {
      builder_.add_partial_store(program, segment, tile, gpu::FlagWait{flag, part.count - 1}, true,
                                 0);
    } else {
      // The first peer, or any peer adding atomically in L2, just stores.
      builder_.add_partial_store(program, segment, tile, std::nullopt, false, 0);
    }
  }

  GemmCtaProgramBuilder builder_;
  TileRasterizer rasterizer_;
  StreamKPartition partition_;
  FixupOrder fixup_;
  bool head_first_;
  bool static_data_parallel_;
  std::int64_t persistent_ctas_;
  std::optional<WholeTilePrograms> whole_tiles_;  // for claimed data-parallel tiles
};

}  // namespace

gpu::KernelPlan StreamKSchedule::lower(const GemmWorkload& workload,
                                       const hw::KernelProfile& kernel,
                                       const hw::HardwareSpec& spec) const {
  const std::int64_t persistent_ctas = persistent_ctas_of(workload, kernel, spec);
  if (partition_of(workload, GemmCtaProgramBuilder(workload.problem, kernel), persistent_ctas)
          .data_parallel_launch()) {
    return DataParallelSchedule().lower(workload, kernel, spec);
  }
  auto programs = std::make_shared<StreamKPrograms>(workload, kernel, persistent_ctas);
  gpu::KernelPlan plan;
  // Units are dispatched one by one; multicast within a cluster is kept in the
  // reads (see docs/gemm-schedules.md).
  plan.kernels.push_back(gemm_kernel_launch(workload.name + ".gemm_stream_k", workload.problem,
                                            kernel, programs->cta_count(), programs, 1));
  return plan;
}

bool StreamKSchedule::lowers_alike_in_mode(const GemmWorkload& workload, StreamKMode mode,
                                           const hw::KernelProfile& kernel,
                                           const hw::HardwareSpec& spec) const {
  const GemmCtaProgramBuilder builder(workload.problem, kernel);
  const std::int64_t persistent_ctas = persistent_ctas_of(workload, kernel, spec);
  GemmWorkload other = workload;
  other.stream_k_mode = mode;
  return partition_of(workload, builder, persistent_ctas) ==
         partition_of(other, builder, persistent_ctas);
}

}  // namespace tilesim::workloads
