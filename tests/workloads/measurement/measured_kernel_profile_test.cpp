// Which kernel profile a measurement row is simulated with: the `profile`
// column tilesim-measure writes, else (older files) the compiled variant its
// tile columns name.

#include "workloads/measurement/measured_kernel_profile.hpp"

#include <gtest/gtest.h>

#include "workloads/measurement/measured_csv.hpp"

namespace tilesim::workloads {
namespace {

const std::vector<std::string> kSchedules = {"data_parallel", "split_k", "stream_k"};

// The columns of the files written before the `profile` column.
const std::string kOldHeader =
    "name,kernel,schedule,m,n,k,dtype,tile_m,tile_n,tile_k,splits,time_us,warps,stages,swizzle\n";

// The GEMM rows of a measurement CSV.
config::Loaded<std::vector<MeasuredGemm>> read(const std::string& text) {
  config::Loaded<MeasuredRows> rows = read_measured_csv_text(text, "m.csv", kSchedules);
  if (!rows.ok()) return {std::nullopt, std::move(rows.diagnostics)};
  return {std::move(rows.value->gemms), std::move(rows.diagnostics)};
}

TEST(MeasuredKernelProfile, OldRowsAreNamedByTheirCompiledTile) {
  const auto loaded =
      read(kOldHeader +
           "a,library,data_parallel,4096,4096,4096,bf16,,,,,190,,,\n"
           "b,tilesim_ref,data_parallel,4096,4096,4096,bf16,128,256,64,,220,12,4,8\n"
           "c,tilesim_ref,data_parallel,4096,4096,4096,bf16,256,128,64,,348,8,3,8\n"
           "d,tilesim_ref,data_parallel,4096,4096,4096,bf16,128,128,32,,427,8,4,8\n"
           "e,tilesim_ref,data_parallel,4096,4096,4096,bf16,,,,,400,,,\n");
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  const std::vector<MeasuredGemm>& rows = *loaded.value;
  EXPECT_EQ(rows[0].workload.kernel, "library");
  EXPECT_EQ(rows[1].workload.kernel, "tilesim_ref_wgmma");
  EXPECT_EQ(*rows[1].workload.tile.warps, 12);
  EXPECT_EQ(rows[2].workload.kernel, "tilesim_ref");
  EXPECT_EQ(rows[3].workload.kernel, "tilesim_ref");  // with its tile override
  EXPECT_EQ(*rows[3].workload.tile.n, 128);
  EXPECT_EQ(rows[4].workload.kernel, "tilesim_ref");  // no tile: the profile's own
}

TEST(MeasuredKernelProfile, TheProfileColumnWins) {
  // Asked for the wgmma kernel, ran the mma.sync fallback (unaligned rows).
  const auto loaded = read(
      "name,kernel,schedule,m,n,k,dtype,tile_m,tile_n,tile_k,time_us,warps,stages,profile\n"
      "odd,tilesim_ref_wgmma,data_parallel,1000,1001,4096,bf16,256,128,64,90,8,3,tilesim_ref\n"
      "lib,library,data_parallel,1000,1001,4096,bf16,,,,40,,,library\n");
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  EXPECT_EQ((*loaded.value)[0].workload.kernel, "tilesim_ref");
  EXPECT_EQ((*loaded.value)[1].workload.kernel, "library");
}

TEST(MeasuredKernelProfile, ATileNoKernelHasIsAnError) {
  const auto loaded =
      read(kOldHeader + "x,tilesim_ref,data_parallel,64,64,64,bf16,64,64,32,,5,4,2,8\n");
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.diagnostics.format().find(
                "m.csv:2:8: error: tile_m: no compiled kernel has tile_m 64, tile_n 64, tile_k "
                "32, warps 4, stages 2, so the row names no kernel profile (add a `profile` "
                "column); compiled: 128x128x32 8 warps 4 stages (tilesim_ref)"),
            std::string::npos)
      << loaded.diagnostics.format();
  const auto garbled =
      read(kOldHeader + "x,tilesim_ref,data_parallel,64,64,64,bf16,128,256,64,,5,twelve,4,8\n");
  EXPECT_NE(garbled.diagnostics.format().find("m.csv:2:13: error: warps: a tilesim_ref row "
                                              "without a `profile` column"),
            std::string::npos)
      << garbled.diagnostics.format();
}

// Without warps and stages, the tile still names one profile when every
// compiled variant it can be belongs to that profile.
TEST(MeasuredKernelProfile, APartialTileMustNameOneProfile) {
  const std::string header = "name,kernel,schedule,m,n,k,dtype,tile_m,tile_n,tile_k,time_us\n";
  const auto mma_sync =
      read(header + "a,tilesim_ref,data_parallel,2048,2048,2048,bf16,256,128,64,51.5\n");
  ASSERT_TRUE(mma_sync.ok()) << mma_sync.diagnostics.format();
  EXPECT_EQ((*mma_sync.value)[0].workload.kernel, "tilesim_ref");
  const auto wgmma =
      read(header + "a,tilesim_ref,data_parallel,2048,2048,2048,bf16,128,256,64,40\n");
  ASSERT_TRUE(wgmma.ok()) << wgmma.diagnostics.format();
  EXPECT_EQ((*wgmma.value)[0].workload.kernel, "tilesim_ref_wgmma");
  const auto ambiguous = read(
      "name,kernel,schedule,m,n,k,dtype,tile_m,tile_n,time_us\n"
      "a,tilesim_ref,data_parallel,2048,2048,2048,bf16,128,256,40\n");
  EXPECT_NE(ambiguous.diagnostics.format().find(
                "m.csv:2:8: error: tile_m: tile_m 128, tile_n 256 match compiled kernels of 2 "
                "profiles: tilesim_ref, tilesim_ref_wgmma; give warps and stages"),
            std::string::npos)
      << ambiguous.diagnostics.format();
}

TEST(MeasuredKernelProfile, EveryCompiledVariantHasOneProfile) {
  for (const CompiledTileProfile& tile : compiled_tile_profiles()) {
    EXPECT_EQ(profile_of_compiled_variant(tile.variant), tile.profile) << tile.variant;
    // Rows without a `profile` column were written by tilesim_ref and tilesim_ref_wgmma only.
    EXPECT_EQ(tile.in_rows_without_profile,
              tile.profile == "tilesim_ref" || tile.profile == "tilesim_ref_wgmma")
        << tile.variant;
  }
  EXPECT_EQ(profile_of_compiled_variant("m128n256k64_w12_s4_wgmma_tma_store"),
            "tilesim_ref_wgmma_tma_store");
  EXPECT_EQ(profile_of_compiled_variant("m128n256k64_w12_s4_wgmma_tma_store_c2"),
            "tilesim_ref_wgmma_multicast");
  EXPECT_FALSE(profile_of_compiled_variant("m128n256k64_w8_s4").has_value());
}

// The tma_store variant has the wgmma variant's tile: a legacy row with that
// tile still means tilesim_ref_wgmma, the only profile that wrote such rows.
TEST(MeasuredKernelProfile, LegacyRowsWithTheWgmmaTileMeanTheRegisterStoreKernel) {
  const std::map<std::string, int> columns = {{"kernel", 0}, {"tile_m", 1}, {"tile_n", 2},
                                              {"tile_k", 3}, {"warps", 4},  {"stages", 5}};
  const MeasuredProfile found =
      measured_kernel_profile(columns, {"tilesim_ref", "128", "256", "64", "12", "4"});
  EXPECT_EQ(found.profile, "tilesim_ref_wgmma") << found.problem;
}

}  // namespace
}  // namespace tilesim::workloads
