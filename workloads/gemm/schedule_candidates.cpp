#include "workloads/gemm/schedule_candidates.hpp"

#include <algorithm>
#include <utility>

#include "hwmodels/kernel_fit.hpp"
#include "sim/gpu/block_scheduler.hpp"
#include "workloads/gemm/gemm_cta_program.hpp"
#include "workloads/gemm/gemm_kernel_config.hpp"
#include "workloads/gemm/gemm_kernel_launch.hpp"
#include "workloads/gemm/row_alignment.hpp"

namespace tilesim::workloads {
namespace {

GemmWorkload with_schedule(GemmWorkload workload, std::string schedule) {
  workload.schedule = std::move(schedule);
  return workload;
}

// The split counts auto tries on one tile shape, with what it needs to pick
// their reductions.
struct SplitCounts {
  std::vector<int> counts;
  std::int64_t tiles = 0;
  std::int64_t slots = 0;  // CTAs resident at once on the GPU
  bool stream_k = true;    // the kernel runs Stream-K on these rows
};

// Whether split count `splits` is tried with `reduction`. A kernel with
// Stream-K: either. Without it (the library's unaligned class) the reduction
// cuBLAS runs (ncu of the calibration files): a splitKreduce_kernel launch
// after slices that fit one wave (1001x1003: 32 tiles x 4 slices; 1152x1280:
// 90 x 2 at two CTAs a SM), the kernel's own serial fixup past one (2304x2176:
// 153 x 3; 3003x2001: 192 x 2).
bool tried_with(SplitKReduction reduction, int splits, const SplitCounts& split) {
  if (split.stream_k) return true;
  const bool one_wave = split.tiles * splits <= split.slots;
  return one_wave == (reduction == SplitKReduction::parallel);
}

void add_schedules(const GemmWorkload& base, std::vector<GemmWorkload>& out,
                   const SplitCounts& split) {
  out.push_back(with_schedule(base, "data_parallel"));
  for (const SplitKReduction reduction : {SplitKReduction::serial, SplitKReduction::parallel}) {
    for (const int splits : split.counts) {
      if (!tried_with(reduction, splits, split)) continue;
      GemmWorkload split_k = with_schedule(base, "split_k");
      split_k.reduction = reduction;
      if (splits > 0) split_k.splits = splits;
      out.push_back(std::move(split_k));
    }
  }
  if (!split.stream_k) return;
  for (const StreamKMode mode :
       {StreamKMode::pure, StreamKMode::dp_one_tile, StreamKMode::two_tile}) {
    GemmWorkload stream_k = with_schedule(base, "stream_k");
    stream_k.stream_k_mode = mode;
    out.push_back(std::move(stream_k));
  }
}

// Split counts worth simulating: more CTAs than two full waves add no
// parallelism, and slices under four k-blocks are mostly fixup. A kernel
// without Stream-K has only split-K against a last wave's idle SMs, and odd
// counts and more waves do that: cuBLAS runs 153 tiles on 132 SMs as 3 slices
// (459 CTAs, 3.5 waves; calibration 17's ncu) and 192 as 2 (2.9 waves; the
// unaligned calibration's).
SplitCounts useful_split_counts(const GemmWorkload& workload, const hw::KernelProfile& kernel,
                                const hw::HardwareSpec& spec, bool stream_k) {
  const GemmCtaProgramBuilder shape(workload.problem, kernel);
  SplitCounts split;
  split.tiles = shape.tile_count();
  split.slots = std::int64_t{spec.sm.count} *
                gpu::BlockScheduler(spec.sm).ctas_per_sm(gemm_footprint(workload.problem, kernel));
  split.stream_k = stream_k;
  const std::int64_t most_ctas = (stream_k ? 2 : 4) * split.slots;
  for (const int splits : {2, 3, 4, 8, 16, 32, 64}) {
    if (stream_k && splits == 3) continue;
    if (split.tiles * splits > most_ctas) break;
    if (shape.k_blocks() < 4 * splits) break;
    split.counts.push_back(splits);
  }
  return split;
}

}  // namespace

std::vector<GemmWorkload> compare_candidates(const GemmWorkload& workload) {
  std::vector<GemmWorkload> candidates;
  add_schedules(workload, candidates, SplitCounts{{workload.splits.value_or(0)}});
  return candidates;
}

std::vector<GemmWorkload> auto_candidates(const GemmWorkload& workload,
                                          const hw::HardwareSpec& spec) {
  // The workload's tile first; then square and half tiles of the profile.
  const std::vector<std::pair<int, int>> tile_shapes = {{0, 0}, {128, 128}, {128, 64}, {64, 128}};
  std::vector<GemmWorkload> candidates;
  std::vector<std::pair<int, int>> tried;
  for (const auto& [m, n] : tile_shapes) {
    GemmWorkload shaped = workload;
    if (m > 0) {
      if (workload.tile.m || workload.tile.n) continue;  // the user fixed the tile
      shaped.tile.m = m;
      shaped.tile.n = n;
    }
    const config::Loaded<hw::KernelProfile> kernel = resolve_gemm_kernel(shaped, spec);
    if (!kernel.ok()) continue;  // does not fit this GPU
    const std::pair<int, int> shape{kernel.value->tile_m, kernel.value->tile_n};
    if (std::find(tried.begin(), tried.end(), shape) != tried.end()) continue;
    tried.push_back(shape);
    // A kernel whose unaligned rows run another kernel class without Stream-K.
    const bool stream_k = kernel.value->unaligned_stream_k || rows_16_byte_aligned(shaped.problem);
    add_schedules(shaped, candidates, useful_split_counts(shaped, *kernel.value, spec, stream_k));
  }
  return candidates;
}

}  // namespace tilesim::workloads
