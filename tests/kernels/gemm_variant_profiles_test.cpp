// Every tile variant kernels/gemm compiles is described by exactly one kernel
// profile in the table tilesim-measure writes (`profile` column) and tilesim
// compare reads old rows with (workloads/measurement/measured_kernel_profile):
// the wgmma variants by tilesim_ref_wgmma(_tma_store, _multicast, _multicast_m192(n96)(_c2n)), the
// mma.sync ones by tilesim_ref, each with the variant's own tile. Host code only; runs without a
// GPU.

#include <gtest/gtest.h>

#include "kernels/gemm/gemm_launch.hpp"
#include "workloads/measurement/measured_kernel_profile.hpp"

namespace tilesim::kernels {
namespace {

TEST(GemmVariantProfiles, EveryCompiledVariantHasItsProfile) {
  EXPECT_EQ(workloads::compiled_tile_profiles().size(),
            static_cast<std::size_t>(kGemmTileVariantCount));
  for (int v = 0; v < kGemmTileVariantCount; ++v) {
    const GemmTileShape shape = gemm_tile_shape(static_cast<GemmTileVariant>(v));
    const auto profile = workloads::profile_of_compiled_variant(shape.name);
    ASSERT_TRUE(profile.has_value()) << shape.name << " is not named in the table";
    EXPECT_EQ(profile->starts_with("tilesim_ref_wgmma"), shape.wgmma) << shape.name;
    for (const workloads::CompiledTileProfile& tile : workloads::compiled_tile_profiles()) {
      if (tile.variant != shape.name) continue;
      EXPECT_EQ(tile.tile_m, shape.m) << shape.name;
      EXPECT_EQ(tile.tile_n, shape.n) << shape.name;
      EXPECT_EQ(tile.tile_k, shape.k) << shape.name;
      EXPECT_EQ(tile.warps, shape.warps) << shape.name;
      EXPECT_EQ(tile.stages, shape.stages) << shape.name;
    }
  }
}

}  // namespace
}  // namespace tilesim::kernels
