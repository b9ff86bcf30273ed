// Every tile variant kernels/gemm compiles is described by exactly one kernel
// profile in the table tilesim-measure writes (`profile` column) and tilesim
// compare reads old rows with (workloads/measurement/measured_kernel_profile):
// the wgmma variant by tilesim_ref_wgmma, the mma.sync ones by tilesim_ref.
// Host code only; runs without a GPU.

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
    const auto profile =
        workloads::profile_of_compiled_tile(shape.m, shape.n, shape.k, shape.warps, shape.stages);
    ASSERT_TRUE(profile.has_value()) << shape.name;
    EXPECT_EQ(*profile, shape.wgmma ? "tilesim_ref_wgmma" : "tilesim_ref") << shape.name;
    bool named = false;
    for (const workloads::CompiledTileProfile& tile : workloads::compiled_tile_profiles()) {
      named = named || tile.variant == shape.name;
    }
    EXPECT_TRUE(named) << shape.name << " is not named in the table";
  }
}

}  // namespace
}  // namespace tilesim::kernels
