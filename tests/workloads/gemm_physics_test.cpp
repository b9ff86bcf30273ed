// GEMM cases whose answer is known in closed form, on the shipped H100 config.
// Memory is made effectively free (overrides) where a test wants pure compute,
// so the expected time follows from the tensor-core rate alone.

#include <gtest/gtest.h>

#include <filesystem>

#include "hwmodels/hardware_loader.hpp"
#include "tests/support/shipped_hardware.hpp"
#include "workloads/study_runner.hpp"

namespace tilesim::workloads {
namespace {

hw::HardwareSpec load_h100(const std::vector<hw::FieldOverride>& overrides = {}) {
  return testing::shipped_hardware("h100_sxm", overrides);
}

// Memory so fast, and no fixed cost per launch, so that only the tensor
// cores limit a GEMM.
hw::HardwareSpec compute_only_h100() {
  return load_h100({{"l2.bandwidth", "400 TB/s"},
                    {"hbm.bandwidth", "90 TB/s"},
                    {"sm.l2_port_bandwidth", "10 TB/s"},
                    // Sharing between CTAs as if they ran in step: the window of the
                    // drift (capacity / l2.bandwidth) vanishes at this bandwidth.
                    {"l2.reader_drift", "0"},
                    {"kernels.library.kernel_overhead", "0 us"},
                    {"kernels.library.ramp_and_drain", "0 us"},
                    // The clock from busy SMs alone (tensor_clock_fraction), not the power law.
                    {"power.limit_w", "0"}});
}

GemmWorkload bf16_gemm(std::int64_t m, std::int64_t n, std::int64_t k) {
  GemmWorkload workload;
  workload.name = "gemm";
  workload.problem = {m, n, k, hw::DataType::bf16, hw::DataType::bf16};
  return workload;
}

WorkloadRun simulate(const GemmWorkload& workload, const hw::HardwareSpec& spec) {
  config::Loaded<WorkloadRun> run = simulate_gemm(workload, spec, builtin_gemm_schedules());
  EXPECT_TRUE(run.ok()) << run.diagnostics.format();
  return *run.value;
}

// The time one library-profile CTA spends on the tensor cores for K = k.
// One tile's MMAs on one SM, with every SM busy (the power-limited clock).
double tile_compute_us(const hw::HardwareSpec& spec, std::int64_t k) {
  const hw::KernelProfile& profile = spec.kernel_profiles.at("library");
  const double flops = 2.0 * profile.tile_m * profile.tile_n * static_cast<double>(k);
  return flops /
         (spec.sm_mma_flops_per_s(hw::DataType::bf16) * profile.tensor_efficiency *
          spec.tensor_clock_fraction(spec.sm.count)) *
         1e6;
}

TEST(GemmPhysics, ExactlyOneWaveTakesOneTileTime) {
  const hw::HardwareSpec spec = compute_only_h100();
  const hw::KernelProfile& profile = spec.kernel_profiles.at("library");
  ASSERT_EQ(spec.sm.count, 132);
  // 12 x 11 = 132 tiles: one CTA per SM (the library tile allows one per SM).
  const WorkloadRun run = simulate(bf16_gemm(12 * profile.tile_m, 11 * profile.tile_n, 8192), spec);
  EXPECT_EQ(run.result.kernels.at(0).ctas_per_sm, 1);
  EXPECT_DOUBLE_EQ(run.result.kernels.at(0).waves, 1.0);
  EXPECT_NEAR(run.result.time_us(), tile_compute_us(spec, 8192),
              0.03 * tile_compute_us(spec, 8192));
}

TEST(GemmPhysics, ThreeFullWavesTakeThreeTimesOneWave) {
  const hw::HardwareSpec spec = compute_only_h100();
  const hw::KernelProfile& profile = spec.kernel_profiles.at("library");
  const double one_wave_us =
      simulate(bf16_gemm(12 * profile.tile_m, 11 * profile.tile_n, 4096), spec).result.time_us();
  const double three_waves_us =
      simulate(bf16_gemm(36 * profile.tile_m, 11 * profile.tile_n, 4096), spec).result.time_us();
  EXPECT_NEAR(three_waves_us / one_wave_us, 3.0, 0.05);
}

TEST(GemmPhysics, OneTileMoreThanAWaveCostsAnotherTileTime) {
  const hw::HardwareSpec spec = compute_only_h100();
  const hw::KernelProfile& profile = spec.kernel_profiles.at("library");
  const WorkloadRun one_wave =
      simulate(bf16_gemm(12 * profile.tile_m, 11 * profile.tile_n, 4096), spec);  // 132 tiles
  const WorkloadRun one_more =
      simulate(bf16_gemm(7 * profile.tile_m, 19 * profile.tile_n, 4096), spec);  // 133 tiles
  ASSERT_EQ(one_more.result.kernels.at(0).ctas_per_sm, 1);
  // The 133rd CTA waits for a free SM, then runs alone: a second tile time.
  const double tile_us = tile_compute_us(spec, 4096);
  EXPECT_NEAR(one_more.result.time_us() - one_wave.result.time_us(), tile_us, 0.05 * tile_us);
  EXPECT_NEAR(one_more.result.time_us() / one_wave.result.time_us(), 2.0, 0.05);
}

TEST(GemmPhysics, SkinnyGemmIsHbmBound) {
  const hw::HardwareSpec spec = load_h100();
  GemmWorkload decode = bf16_gemm(64, 16384, 16384);
  decode.tile.m = 64;
  decode.tile.n = 128;
  decode.tile.warps = 4;
  decode.tile.stages = 6;
  decode.tile.cluster = hw::ClusterShape{1, 1};
  const WorkloadRun run = simulate(decode, spec);
  const double bytes = 2.0 * (64.0 * 16384 + 16384.0 * 16384 + 64.0 * 16384);
  const double expected_us = bytes / spec.hbm.sustained_bytes_per_s() * 1e6;
  EXPECT_NEAR(run.result.time_us(), expected_us, 0.10 * expected_us);
  // Every byte of B comes from HBM exactly once.
  EXPECT_NEAR(run.result.traffic().hbm_read_bytes, 2.0 * 16384 * 16384, 0.02 * 2.0 * 16384 * 16384);
}

}  // namespace
}  // namespace tilesim::workloads

namespace tilesim::workloads {
namespace {

GemmWorkload rasterized_8192(int swizzle) {
  GemmWorkload workload = bf16_gemm(8192, 8192, 8192);
  workload.tile.swizzle = swizzle;
  workload.tile.cluster = hw::ClusterShape{1, 1};
  return workload;
}

// 8192^3 streams more operand panels per wave than L2 holds, so which tiles run
// together decides how often a panel comes back from HBM.
TEST(GemmPhysics, RasterizationBandsCutHbmTraffic) {
  const hw::HardwareSpec spec = load_h100();
  const double row_major = simulate(rasterized_8192(1), spec).result.traffic().hbm_read_bytes;
  const double banded = simulate(rasterized_8192(8), spec).result.traffic().hbm_read_bytes;
  EXPECT_LT(banded, 0.8 * row_major);
}

TEST(GemmPhysics, AnL2ThatHoldsEverythingReadsEachOperandOnce) {
  const hw::HardwareSpec big_l2 = load_h100({{"l2.capacity", "1 GiB"}});
  const double compulsory_bytes = 2.0 * 8192 * 8192 * 2;  // A and B, bf16
  for (int swizzle : {1, 8}) {
    const WorkloadRun run = simulate(rasterized_8192(swizzle), big_l2);
    EXPECT_NEAR(run.result.traffic().hbm_read_bytes, compulsory_bytes, 1e-9 * compulsory_bytes);
    EXPECT_DOUBLE_EQ(run.result.traffic().write_bytes, 8192.0 * 8192 * 2);
  }
}

TEST(GemmPhysics, EdgeTilesReadOnlyWhatExists) {
  // 1000 x 1000 x 1000 with 128x256 tiles: the L2 model sees each A and B byte
  // once (all fits), so HBM reads are exactly the operands.
  const WorkloadRun run = simulate(bf16_gemm(1000, 1000, 1000), load_h100());
  EXPECT_DOUBLE_EQ(run.result.traffic().hbm_read_bytes, 2.0 * 2 * 1000 * 1000);
  EXPECT_DOUBLE_EQ(run.result.traffic().write_bytes, 2.0 * 1000 * 1000);
}

}  // namespace
}  // namespace tilesim::workloads

namespace tilesim::workloads {
namespace {

// MMAs over the zero padding of edge tiles draw no tensor energy: a decode
// GEMM whose 256-row tiles hold 8 real rows issues as many MMAs as the full
// problem but draws little, so the power law leaves it a higher clock.
TEST(GemmPhysics, ZeroPaddedTilesDrawLessPowerAndRunFaster) {
  const hw::HardwareSpec spec = load_h100();
  GemmWorkload decode = bf16_gemm(8, 131072, 2048);
  decode.kernel = "tilesim_ref";
  GemmWorkload full = bf16_gemm(256, 131072, 2048);
  full.kernel = "tilesim_ref";
  const double decode_us = simulate(decode, spec).result.time_us();
  const double full_us = simulate(full, spec).result.time_us();
  EXPECT_LT(decode_us, 0.95 * full_us);
}

// The finisher of a two-slice serial split-K reads its peer's partial with
// collect_loads_in_flight loads a thread: more in flight, a shorter fixup.
TEST(GemmPhysics, TheFinishersReadTakesCollectLoadsInFlight) {
  GemmWorkload split = bf16_gemm(4608, 4608, 512);
  split.kernel = "tilesim_ref";
  split.schedule = "split_k";
  split.splits = 2;
  const double one_us =
      simulate(split, load_h100({{"kernels.tilesim_ref.collect_loads_in_flight", "1"}}))
          .result.time_us();
  const double eight_us =
      simulate(split, load_h100({{"kernels.tilesim_ref.collect_loads_in_flight", "8"}}))
          .result.time_us();
  EXPECT_LT(eight_us, 0.97 * one_us);
}

// cuBLAS's unaligned fallback copies two elements at a time where the rows
// allow it (align2 on 4- and 8-byte rows), one on 2-byte rows: with the same
// loads in flight, the 4-byte rows gather twice the bytes a round.
TEST(GemmPhysics, TheLibraryGathersWiderWhereTheRowsAllow) {
  const auto time_us = [](std::int64_t k, const char* widest) {
    GemmWorkload workload = bf16_gemm(2304, 2176, k);
    workload.schedule = "data_parallel";
    return simulate(workload, load_h100({{"kernels.library.unaligned_widest_load_bytes", widest}}))
        .result.time_us();
  };
  const double two_byte_rows = time_us(2047, "4");
  const double four_byte_rows = time_us(2046, "4");
  EXPECT_LT(four_byte_rows, 0.75 * two_byte_rows);
  // One element a load: the 4-byte rows gather as the 2-byte ones do.
  EXPECT_GT(time_us(2046, "0"), 0.95 * two_byte_rows);
  // The widest load is the kernel's, not the rows': 8-byte rows gather as 4-byte ones.
  EXPECT_NEAR(time_us(2044, "4"), four_byte_rows, 0.01 * four_byte_rows);
}

// cuBLAS's unaligned kernels gather at the SM's narrow-load rate
// (unaligned_gather_bytes_per_clock_per_sm), shared by the SM's CTAs: on a
// full GPU of tiles the time follows that rate, not the loads in flight.
TEST(GemmPhysics, TheLibrarysUnalignedGatherIsHeldByTheSmsLoadPath) {
  const auto time_us = [](const char* key, const char* value) {
    GemmWorkload workload = bf16_gemm(4001, 3003, 1025);
    workload.schedule = "data_parallel";
    return simulate(workload, load_h100({{std::string("kernels.library.") + key, value}}))
        .result.time_us();
  };
  const char* rate = "unaligned_gather_bytes_per_clock_per_sm";
  const double at_rate = time_us(rate, "7");
  EXPECT_GT(time_us(rate, "3.5"), 1.8 * at_rate);
  // The rate binds, not the loads in flight (a k-block of them, all issued).
  EXPECT_EQ(time_us("unaligned_bytes_in_flight_per_thread", "2"),
            time_us("unaligned_bytes_in_flight_per_thread", "64"));
  // Without a rate the loads in flight set it again.
  EXPECT_LT(time_us(rate, "0"), 0.8 * at_rate);
}

// Rows that are not 16-byte aligned (k odd) take the gathered main loop: each
// build (data-parallel; split-K; the persistent one of Stream-K and persistent
// data-parallel) at its own bytes in flight, and every gathered round waits
// unaligned_load_latency where the profile sets one.
TEST(GemmPhysics, EachBuildGathersUnalignedRowsAtItsOwnRate) {
  const auto time_us = [](const GemmWorkload& workload, const char* key, const char* value) {
    return simulate(workload, load_h100({{std::string("kernels.tilesim_ref.") + key, value}}))
        .result.time_us();
  };
  GemmWorkload data_parallel = bf16_gemm(1531, 1913, 3011);
  data_parallel.kernel = "tilesim_ref";
  data_parallel.schedule = "data_parallel";
  GemmWorkload persistent = data_parallel;
  persistent.persistent = true;
  GemmWorkload stream_k = data_parallel;
  stream_k.schedule = "stream_k";
  GemmWorkload split_k = data_parallel;
  split_k.schedule = "split_k";
  const char* persistent_key = "persistent_unaligned_bytes_in_flight_per_thread";
  const char* split_k_key = "split_k_unaligned_bytes_in_flight_per_thread";
  EXPECT_LT(time_us(persistent, persistent_key, "64"),
            0.9 * time_us(persistent, persistent_key, "8"));
  EXPECT_LT(time_us(stream_k, persistent_key, "64"), 0.9 * time_us(stream_k, persistent_key, "8"));
  EXPECT_LT(time_us(split_k, split_k_key, "64"), 0.9 * time_us(split_k, split_k_key, "8"));
  EXPECT_DOUBLE_EQ(time_us(data_parallel, persistent_key, "64"),
                   time_us(data_parallel, persistent_key, "8"));
  EXPECT_DOUBLE_EQ(time_us(data_parallel, split_k_key, "64"),
                   time_us(data_parallel, split_k_key, "8"));
  EXPECT_DOUBLE_EQ(time_us(split_k, persistent_key, "64"), time_us(split_k, persistent_key, "8"));
  const char* latency_key = "unaligned_load_latency";
  EXPECT_LT(time_us(data_parallel, latency_key, "200 ns"),
            0.9 * time_us(data_parallel, latency_key, "800 ns"));
  // The aligned neighbour does not gather, so the latency is not its.
  const GemmWorkload aligned = [&] {
    GemmWorkload w = data_parallel;
    w.problem.n = 1920;
    w.problem.k = 3008;
    return w;
  }();
  EXPECT_DOUBLE_EQ(time_us(aligned, latency_key, "200 ns"),
                   time_us(aligned, latency_key, "800 ns"));
}

}  // namespace
}  // namespace tilesim::workloads
