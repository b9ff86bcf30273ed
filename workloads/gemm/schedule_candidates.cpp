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

void add_schedules(const GemmWorkload& base, std::vector<GemmWorkload>& out,
                   const std::vector<int>& split_counts, bool stream_k_too = true) {
  out.push_back(with_schedule(base, "data_parallel"));
  for (const SplitKReduction reduction : {SplitKReduction::serial, SplitKReduction::parallel}) {
    for (const int splits : split_counts) {
      GemmWorkload split = with_schedule(base, "split_k");
      split.reduction = reduction;
      if (splits > 0) split.splits = splits;
      out.push_back(std::move(split));
    }
  }
  if (!stream_k_too) return;
  for (const StreamKMode mode :
       {StreamKMode::pure, StreamKMode::dp_one_tile, StreamKMode::two_tile}) {
    GemmWorkload stream_k = with_schedule(base, "stream_k");
    stream_k.stream_k_mode = mode;
    out.push_back(std::move(stream_k));
  }
}

// Split counts worth simulating: more CTAs than two full waves add no
// parallelism, and slices under four k-blocks are mostly fixup. A kernel
// without Stream-K (`stream_k` false: the library's unaligned class) has only
// split-K against a last wave's idle SMs, and odd counts and more waves do
// that: cuBLAS runs 153 tiles on 132 SMs as 3 slices (459 CTAs, 3.5 waves;
// calibration 17's ncu) and 192 as 2 (2.9 waves; unaligned calibration's).
std::vector<int> useful_split_counts(const GemmWorkload& workload, const hw::KernelProfile& kernel,
                                     const hw::HardwareSpec& spec, bool stream_k) {
  const GemmCtaProgramBuilder shape(workload.problem, kernel);
  const std::int64_t slots =
      std::int64_t{spec.sm.count} *
      gpu::BlockScheduler(spec.sm).ctas_per_sm(gemm_footprint(workload.problem, kernel));
  const std::int64_t most_ctas = (stream_k ? 2 : 4) * slots;
  std::vector<int> counts;
  for (const int splits : {2, 3, 4, 8, 16, 32, 64}) {
    if (stream_k && splits == 3) continue;
    if (shape.tile_count() * splits > most_ctas) break;
    if (shape.k_blocks() < 4 * splits) break;
    counts.push_back(splits);
  }
  return counts;
}

}  // namespace

std::vector<GemmWorkload> compare_candidates(const GemmWorkload& workload) {
  std::vector<GemmWorkload> candidates;
  add_schedules(workload, candidates, {workload.splits.value_or(0)});
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
    add_schedules(shaped, candidates, useful_split_counts(shaped, *kernel.value, spec, stream_k),
                  stream_k);
  }
  return candidates;
}

}  // namespace tilesim::workloads
