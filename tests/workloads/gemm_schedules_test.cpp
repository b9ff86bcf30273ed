// Physics every GPU engineer expects of GEMM schedules, on the shipped H100
// config; each assertion has a margin that a wrong model would miss.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "hwmodels/hardware_loader.hpp"
#include "tests/support/gemm_workload.hpp"
#include "tests/support/shipped_hardware.hpp"
#include "workloads/gemm/gemm_runner.hpp"
#include "workloads/gemm/schedule_candidates.hpp"
#include "workloads/study_runner.hpp"

namespace tilesim::workloads {
namespace {

hw::HardwareSpec h100() {
  return testing::shipped_hardware("h100_sxm");
}

using testing::gemm;

WorkloadRun simulate(const GemmWorkload& workload, const hw::HardwareSpec& spec,
                     bool trace = false) {
  gpu::SimulationOptions options;
  options.record_bandwidth = trace;
  auto run = simulate_gemm(workload, spec, builtin_gemm_schedules(), options);
  EXPECT_TRUE(run.ok()) << run.diagnostics.format();
  return *run.value;
}

GemmWorkload square_1536_128x128(std::string schedule) {
  GemmWorkload workload = gemm(1536, 1536, 1536, std::move(schedule));
  workload.tile.m = 128;
  workload.tile.n = 128;
  return workload;
}

// 144 tiles on 132 SMs: data-parallel runs a second wave of 12 tiles.
TEST(GemmSchedules, StreamKBeatsDataParallelOnAWaveQuantizedShape) {
  const hw::HardwareSpec spec = h100();
  const double dp_us = simulate(square_1536_128x128("data_parallel"), spec).result.time_us();
  const double sk_us = simulate(square_1536_128x128("stream_k"), spec).result.time_us();
  EXPECT_GT(dp_us / sk_us, 1.25) << "DP " << dp_us << " us, Stream-K " << sk_us << " us";
}

TEST(GemmSchedules, LargeSquareGemmIsWithinFivePercentAcrossSchedules) {
  const hw::HardwareSpec spec = h100();
  const double dp_us = simulate(gemm(8192, 8192, 8192, "data_parallel"), spec).result.time_us();
  const double sk_us = simulate(gemm(8192, 8192, 8192, "stream_k"), spec).result.time_us();
  EXPECT_NEAR(sk_us / dp_us, 1.0, 0.05) << "DP " << dp_us << " us, Stream-K " << sk_us << " us";
}

TEST(GemmSchedules, LongKNeedsSplitKOrStreamK) {
  const hw::HardwareSpec spec = h100();
  const double dp_us = simulate(gemm(256, 256, 65536, "data_parallel"), spec).result.time_us();
  GemmWorkload split = gemm(256, 256, 65536, "split_k");
  split.reduction = SplitKReduction::parallel;
  const double split_us = simulate(split, spec).result.time_us();
  const double sk_us = simulate(gemm(256, 256, 65536, "stream_k"), spec).result.time_us();
  EXPECT_GT(dp_us / split_us, 3.0) << "DP " << dp_us << " us, split-K " << split_us << " us";
  EXPECT_GT(dp_us / sk_us, 3.0) << "DP " << dp_us << " us, Stream-K " << sk_us << " us";
}

// cuBLAS runs rows not 16-byte aligned on a CUTLASS 2.x class without Stream-K,
// so auto tries none there; it does on the aligned neighbour and for our kernel.
TEST(GemmSchedules, AutoTriesNoStreamKForTheLibrarysUnalignedKernel) {
  const hw::HardwareSpec spec = h100();
  const auto tries_stream_k = [&](std::int64_t k, const char* kernel) {
    GemmWorkload workload = gemm(1536, 1536, k, "auto");
    workload.kernel = kernel;
    for (const GemmWorkload& candidate : auto_candidates(workload, spec)) {
      if (candidate.schedule == "stream_k") return true;
    }
    return false;
  };
  EXPECT_FALSE(tries_stream_k(1535, "library"));
  EXPECT_TRUE(tries_stream_k(1536, "library"));
  EXPECT_TRUE(tries_stream_k(1535, "tilesim_ref"));
}

// Without Stream-K, split-K is what spreads a last wave: cuBLAS runs the 153
// tiles of 2304x2176x2047 as 3 slices (459 CTAs) with its serial fixup, and
// the 32 of 1001x1003x4097 as 4 (128 CTAs, one wave) with a splitKreduce_kernel
// after them (the calibration files' ncu). Auto tries 3 slices past two waves
// of CTAs, each count with that reduction alone, and finds a split faster
// than data-parallel's two waves of 128x256 tiles; the aligned neighbour
// keeps Stream-K and its powers of two with both reductions.
TEST(GemmSchedules, AutoSpreadsTheLibrarysUnalignedLastWaveBySplittingK) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h200_sxm");
  using Tried = std::set<std::pair<int, SplitKReduction>>;
  const auto splits_tried = [&](std::int64_t m, std::int64_t n, std::int64_t k) {
    GemmWorkload workload = gemm(m, n, k, "auto");
    workload.kernel = "library";
    Tried tried;
    for (const GemmWorkload& candidate : auto_candidates(workload, spec)) {
      if (candidate.schedule == "split_k" && !candidate.tile.m) {
        tried.insert({candidate.splits.value_or(0), candidate.reduction});
      }
    }
    return tried;
  };
  const Tried unaligned = splits_tried(2304, 2176, 2047);
  EXPECT_TRUE(unaligned.contains({3, SplitKReduction::serial}));
  EXPECT_FALSE(unaligned.contains({3, SplitKReduction::parallel}));
  const Tried one_wave = splits_tried(1001, 1003, 4097);
  EXPECT_TRUE(one_wave.contains({4, SplitKReduction::parallel}));
  EXPECT_FALSE(one_wave.contains({4, SplitKReduction::serial}));
  const Tried aligned = splits_tried(2304, 2176, 2048);
  EXPECT_FALSE(aligned.contains({3, SplitKReduction::serial}));

  GemmWorkload workload = gemm(2304, 2176, 2047, "auto");
  workload.kernel = "library";
  auto chosen = run_gemm_workload(workload, spec, builtin_gemm_schedules(), {});
  ASSERT_TRUE(chosen.ok()) << chosen.diagnostics.format();
  const WorkloadRun& run = chosen.value->front();
  GemmWorkload dp = workload;
  dp.schedule = "data_parallel";
  const double dp_us = simulate(dp, spec).result.time_us();
  EXPECT_NE(run.schedule.find("split_k"), std::string::npos) << run.schedule;
  EXPECT_GT(dp_us / run.result.time_us(), 1.2)
      << "DP " << dp_us << " us, auto " << run.result.time_us() << " us";
}

// Two tiles of 1,024 k-blocks over 132 units: each tile's owner waits for the
// 65 peers that follow it through the turnstile.
TEST(GemmSchedules, StreamKFixupWaitsAreRecorded) {
  const WorkloadRun run = simulate(gemm(256, 256, 65536, "stream_k"), h100(), true);
  std::size_t waits = 0;
  for (const gpu::CtaRecord& cta : run.result.ctas) {
    waits += cta.outcome.waits.size();
    for (const gpu::TimeSpan& wait : cta.outcome.waits) {
      EXPECT_GT(wait.end, wait.begin);
      EXPECT_GE(wait.begin, cta.dispatched);
      EXPECT_LE(wait.end, cta.finished);
    }
  }
  EXPECT_GT(waits, 0u);
}

// 144 tiles over 132 units: most units cross a tile boundary.
TEST(GemmSchedules, StreamKUnitsCrossTileBoundaries) {
  const WorkloadRun run = simulate(square_1536_128x128("stream_k"), h100());
  std::size_t multi_tile_ctas = 0;
  for (const gpu::CtaRecord& cta : run.result.ctas) {
    if (cta.outcome.segments.size() > 1) ++multi_tile_ctas;
  }
  EXPECT_GT(multi_tile_ctas, 100u);
}

TEST(GemmSchedules, ParallelSplitKRunsASeparateReductionKernel) {
  GemmWorkload split = gemm(256, 256, 65536, "split_k");
  split.reduction = SplitKReduction::parallel;
  split.splits = 8;
  const WorkloadRun run = simulate(split, h100());
  ASSERT_EQ(run.result.kernels.size(), 2u);
  EXPECT_LE(run.result.kernels[0].end, run.result.kernels[1].start);
  // The reduction reads every fp32 partial: 8 x 256 x 256 x 4 bytes.
  EXPECT_GE(run.result.kernels[1].traffic.l2_read_bytes, 8.0 * 256 * 256 * 4);
  EXPECT_EQ(run.schedule, "split_k:parallel:splits=8");
}

TEST(GemmSchedules, SerialSplitKOrdersSlicesThroughFlags) {
  GemmWorkload split = gemm(256, 256, 65536, "split_k");
  split.splits = 4;
  const WorkloadRun run = simulate(split, h100());
  ASSERT_EQ(run.result.kernels.size(), 1u);
  std::size_t waits = 0;
  for (const gpu::CtaRecord& cta : run.result.ctas) waits += cta.outcome.waits.size();
  EXPECT_GT(waits, 0u);
}

hw::HardwareSpec with_stream_k_order(hw::HardwareSpec spec, hw::StreamKOrder order) {
  spec.kernel_profiles.at("library").stream_k_order = order;
  return spec;
}

hw::HardwareSpec with_data_parallel_order(hw::HardwareSpec spec,
                                          hw::StreamKDataParallelOrder order) {
  spec.kernel_profiles.at("library").stream_k_data_parallel_order = order;
  return spec;
}

TEST(GemmSchedules, EveryStreamKModeCoversEveryIterationOnce) {
  for (const hw::StreamKDataParallelOrder dp_order :
       {hw::StreamKDataParallelOrder::claimed, hw::StreamKDataParallelOrder::static_list})
    for (const hw::StreamKOrder order :
         {hw::StreamKOrder::tail_first, hw::StreamKOrder::head_first})
      for (const StreamKMode mode : {StreamKMode::pure, StreamKMode::dp_one_tile,
                                     StreamKMode::two_tile, StreamKMode::wave_fit}) {
        const hw::HardwareSpec spec =
            with_data_parallel_order(with_stream_k_order(h100(), order), dp_order);
        for (const FixupOrder fixup : {FixupOrder::deterministic, FixupOrder::atomic}) {
          GemmWorkload workload = gemm(3000, 2000, 1000, "stream_k");
          workload.stream_k_mode = mode;
          workload.fixup = fixup;
          const WorkloadRun run = simulate(workload, spec);
          // 24 x 8 tiles of 128x256, 16 k-blocks of 64 each.
          std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> k_blocks_per_tile;
          for (const gpu::CtaRecord& cta : run.result.ctas) {
            for (const gpu::SegmentSpan& segment : cta.outcome.segments) {
              k_blocks_per_tile[{segment.label.tile_row, segment.label.tile_col}] +=
                  segment.label.k_end - segment.label.k_begin;
            }
          }
          ASSERT_EQ(k_blocks_per_tile.size(), 24u * 8) << run.schedule;
          for (const auto& [tile, k_blocks] : k_blocks_per_tile) {
            EXPECT_EQ(k_blocks, 16) << run.schedule << " tile " << tile.first << "," << tile.second;
          }
        }
      }
}

// Head first, every Stream-K CTA starts its range at k-block 0 (the head of
// its last tile), so all of them walk k in step; tail first, they start at
// scattered offsets.
TEST(GemmSchedules, HeadFirstStreamKUnitsAllStartAtKZero) {
  // 144 tiles of 128x256 on 132 CTAs, 64 k-blocks each: two_tile puts all of
  // them in Stream-K units of 69-70 iterations.
  const GemmWorkload workload = gemm(2304, 2048, 4096, "stream_k");
  std::map<hw::StreamKOrder, int> units_starting_at_zero;
  for (const hw::StreamKOrder order :
       {hw::StreamKOrder::tail_first, hw::StreamKOrder::head_first}) {
    const WorkloadRun run = simulate(workload, with_stream_k_order(h100(), order));
    ASSERT_EQ(run.result.ctas.size(), 132u) << run.schedule;
    for (const gpu::CtaRecord& cta : run.result.ctas) {
      ASSERT_FALSE(cta.outcome.segments.empty());
      if (cta.outcome.segments.front().label.k_begin == 0) ++units_starting_at_zero[order];
    }
  }
  EXPECT_EQ(units_starting_at_zero[hw::StreamKOrder::head_first], 132);
  EXPECT_LT(units_starting_at_zero[hw::StreamKOrder::tail_first], 132 / 6);
}

// wave_fit leaves tiles that fit one wave whole: 1536^3 in 128x256 tiles is
// 72 tiles on 132 CTAs, which two_tile cuts into Stream-K units and wave_fit
// runs as the data-parallel schedule does (the same plan, CTA for CTA). On
// more tiles than a wave (3000x2000x1000: 192) it is two_tile.
TEST(GemmSchedules, WaveFitRunsTilesThatFitOneWaveDataParallel) {
  const hw::HardwareSpec spec = h100();
  GemmWorkload fit = gemm(1536, 1536, 1536, "stream_k");
  fit.stream_k_mode = StreamKMode::wave_fit;
  GemmWorkload two_tile = fit;
  two_tile.stream_k_mode = StreamKMode::two_tile;
  const WorkloadRun fit_run = simulate(fit, spec);
  const WorkloadRun dp_run = simulate(gemm(1536, 1536, 1536, "data_parallel"), spec);
  const WorkloadRun two_tile_run = simulate(two_tile, spec);
  ASSERT_EQ(fit_run.result.ctas.size(), 72u);
  for (const gpu::CtaRecord& cta : fit_run.result.ctas) {
    ASSERT_EQ(cta.outcome.segments.size(), 1u);
    EXPECT_EQ(cta.outcome.segments.front().label.k_end - cta.outcome.segments.front().label.k_begin,
              24);
  }
  EXPECT_EQ(fit_run.result.time_us(), dp_run.result.time_us());
  EXPECT_GT(two_tile_run.result.ctas.size(), 72u) << "two_tile splits the 72 tiles";
  EXPECT_EQ(fit_run.schedule, "stream_k:wave_fit:deterministic");

  GemmWorkload many = gemm(3000, 2000, 1000, "stream_k");
  many.stream_k_mode = StreamKMode::wave_fit;
  GemmWorkload many_two_tile = many;
  many_two_tile.stream_k_mode = StreamKMode::two_tile;
  EXPECT_EQ(simulate(many, spec).result.time_us(), simulate(many_two_tile, spec).result.time_us());
}

// tile_fit picks the tile per shape: at 1536^3 the 192x96 pair along n (the
// 128x256 cluster kernel's one_wave_kernel) has 64 cluster tiles of 192x192
// on 66 persistent clusters, so the shape runs on it, whole (its
// data-parallel plan); at 3072x3072x4096 (256 of them) it is wave_fit on the
// 128x256 kernel.
TEST(GemmSchedules, TileFitRunsTheOneWaveKernelWhereItsTilesFitOneWave) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h200_sxm");
  GemmWorkload fit = gemm(1536, 1536, 1536, "stream_k");
  fit.kernel = "tilesim_ref_wgmma_multicast";
  fit.stream_k_mode = StreamKMode::tile_fit;
  GemmWorkload small_dp = gemm(1536, 1536, 1536, "data_parallel");
  small_dp.kernel = "tilesim_ref_wgmma_multicast_m192n96_c2n";
  const WorkloadRun fit_run = simulate(fit, spec);
  EXPECT_EQ(fit_run.result.ctas.size(), 128u);
  EXPECT_EQ(fit_run.result.time_us(), simulate(small_dp, spec).result.time_us());
  EXPECT_EQ(fit_run.schedule, "stream_k:tile_fit:deterministic:head_first");

  GemmWorkload large = gemm(3072, 3072, 4096, "stream_k");
  large.kernel = "tilesim_ref_wgmma_multicast";
  large.stream_k_mode = StreamKMode::tile_fit;
  GemmWorkload large_wave_fit = large;
  large_wave_fit.stream_k_mode = StreamKMode::wave_fit;
  EXPECT_EQ(simulate(large, spec).result.time_us(),
            simulate(large_wave_fit, spec).result.time_us());
}

// 192 tiles of 128x256 on 132 CTAs: dp_one_tile spreads 60 tiles over the
// persistent grid, then 132 data-parallel tiles follow. Claimed, they are CTAs
// of their own (the first free SM takes the next); static, CTA b runs tile b
// after its Stream-K range, as the mma.sync kernel's loop does.
TEST(GemmSchedules, StaticDataParallelTilesRunOnThePersistentGrid) {
  GemmWorkload workload = gemm(3000, 2000, 1000, "stream_k");
  workload.stream_k_mode = StreamKMode::dp_one_tile;
  const WorkloadRun claimed =
      simulate(workload, with_data_parallel_order(h100(), hw::StreamKDataParallelOrder::claimed));
  const WorkloadRun listed = simulate(
      workload, with_data_parallel_order(h100(), hw::StreamKDataParallelOrder::static_list));
  EXPECT_GT(claimed.result.ctas.size(), 132u + 100u);
  ASSERT_EQ(listed.result.ctas.size(), 132u);
  for (const gpu::CtaRecord& cta : listed.result.ctas) {
    ASSERT_FALSE(cta.outcome.segments.empty());
    const gpu::CtaWorkLabel& last = cta.outcome.segments.back().label;
    EXPECT_EQ(last.k_end - last.k_begin, 16) << "the last segment is a whole data-parallel tile";
  }
}

// 192 tiles of 128x256 on 132 resident CTAs: persistent data-parallel runs
// 132 CTAs, CTA b computing tiles b and b + 132 of the raster whole, back to
// back; every tile exactly once.
TEST(GemmSchedules, PersistentDataParallelDealsTilesOverTheResidentGrid) {
  GemmWorkload workload = gemm(3000, 2000, 1000, "data_parallel");
  workload.persistent = true;
  const WorkloadRun run = simulate(workload, h100());
  ASSERT_EQ(run.result.ctas.size(), 132u);
  std::map<std::pair<std::int64_t, std::int64_t>, int> units_per_tile;
  std::map<std::size_t, int> ctas_by_units;
  for (const gpu::CtaRecord& cta : run.result.ctas) {
    ++ctas_by_units[cta.outcome.segments.size()];
    for (const gpu::SegmentSpan& segment : cta.outcome.segments) {
      EXPECT_EQ(segment.label.k_end - segment.label.k_begin, 16) << "whole tiles only";
      ++units_per_tile[{segment.label.tile_row, segment.label.tile_col}];
    }
  }
  EXPECT_EQ(ctas_by_units[2], 60);
  EXPECT_EQ(ctas_by_units[1], 72);
  ASSERT_EQ(units_per_tile.size(), 24u * 8);
  for (const auto& [tile, units] : units_per_tile) EXPECT_EQ(units, 1);
}

// 8192^3 on the wgmma kernel (15.5 waves of 128x256 tiles, ~1.9 ms): the
// persistent CTAs' tiles share the L2 as the data-parallel waves' do, since
// whole tiles do not drift apart (l2.reader_drift smears only Stream-K
// ranges). With the drift applied to their ~1.9 ms age the persistent launch
// read 3.5x the data-parallel one's HBM bytes and ran 18% longer; the H100
// runs them within 1.1% (h100_sxm_2026-11-27_gemm_wgmma_persistent.csv).
TEST(GemmSchedules, PersistentTilesShareTheL2AsDataParallelWavesDo) {
  const hw::HardwareSpec spec = h100();
  ASSERT_GT(spec.l2.reader_drift, 0);
  GemmWorkload launched = gemm(8192, 8192, 8192, "data_parallel");
  launched.kernel = "tilesim_ref_wgmma";
  GemmWorkload persistent = launched;
  persistent.persistent = true;
  const WorkloadRun dp = simulate(launched, spec);
  const WorkloadRun held = simulate(persistent, spec);
  EXPECT_NEAR(held.result.traffic().hbm_read_bytes / dp.result.traffic().hbm_read_bytes, 1.0, 0.1);
  EXPECT_NEAR(held.result.time_us() / dp.result.time_us(), 1.0, 0.03);
}

// Four waves of 128x256 tiles over long k (compute-bound) as static lists on a
// persistent grid: with CTA paces spread by 20%, the launch ends with its
// slowest CTA (~10% behind the mean); the data-parallel launch of the same
// tiles hands the next tile to the first free SM and evens most of it out.
TEST(GemmSchedules, ASpeedSpreadEndsAStaticListWithItsSlowestCta) {
  hw::HardwareSpec in_step =
      with_data_parallel_order(h100(), hw::StreamKDataParallelOrder::static_list);
  hw::HardwareSpec spread = in_step;
  spread.kernel_profiles.at("library").cta_speed_spread = 0.2;
  GemmWorkload persistent = gemm(3072, 5632, 8192, "stream_k");  // 24 x 22 = 4 x 132 tiles
  persistent.stream_k_mode = StreamKMode::dp_one_tile;
  const GemmWorkload launched = gemm(3072, 5632, 8192, "data_parallel");
  const double persistent_ratio = simulate(persistent, spread).result.time_us() /
                                  simulate(persistent, in_step).result.time_us();
  const double launched_ratio =
      simulate(launched, spread).result.time_us() / simulate(launched, in_step).result.time_us();
  EXPECT_GT(persistent_ratio, 1.07) << "data-parallel launch: " << launched_ratio;
  EXPECT_GT(persistent_ratio, launched_ratio + 0.03) << "data-parallel launch: " << launched_ratio;
}

}  // namespace
}  // namespace tilesim::workloads
