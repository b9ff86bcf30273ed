#include "hwmodels/kernel_fit.hpp"

#include <gtest/gtest.h>

namespace tilesim::hw {
namespace {

SmSpec h100_like_sm() {
  SmSpec sm;
  sm.registers = 65536;
  sm.register_allocation_unit = 256;
  sm.max_registers_per_thread = 255;
  sm.max_threads_per_cta = 1024;
  sm.shared_memory.per_cta_max_bytes = 227 * 1024;
  return sm;
}

KernelProfile profile(int m, int n, int k, int stages, int warps, int registers) {
  KernelProfile p;
  p.tile_m = m;
  p.tile_n = n;
  p.tile_k = k;
  p.stages = stages;
  p.warps = warps;
  p.registers_per_thread = registers;
  return p;
}

TEST(KernelFit, PipelineSharedMemory) {
  EXPECT_EQ(pipeline_smem_bytes(profile(128, 256, 64, 4, 12, 168)), 4 * (128 * 64 + 256 * 64) * 2);
  EXPECT_EQ(pipeline_smem_bytes(profile(128, 128, 32, 4, 8, 128), 1), 4 * (128 * 32 + 128 * 32));
}

TEST(KernelFit, ShippedShapesFit) {
  EXPECT_TRUE(kernel_fit_problems(profile(128, 256, 64, 4, 12, 168), h100_like_sm()).empty());
  EXPECT_TRUE(kernel_fit_problems(profile(128, 128, 32, 4, 8, 128), h100_like_sm()).empty());
}

TEST(KernelFit, EachLimitIsNamed) {
  const auto problems = kernel_fit_problems(profile(256, 256, 128, 4, 40, 300), h100_like_sm());
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0].key, "tile.warps");
  EXPECT_EQ(problems[1].key, "registers_per_thread");
  EXPECT_EQ(problems[2].key, "tile.stages");
}

TEST(KernelFit, ExactFitIsAccepted) {
  // 255 registers x 32 threads = 8160, granted as 8192 per warp; 8 warps use all 65536.
  EXPECT_TRUE(kernel_fit_problems(profile(64, 64, 32, 2, 8, 255), h100_like_sm()).empty());
  EXPECT_EQ(kernel_fit_problems(profile(64, 64, 32, 2, 9, 255), h100_like_sm()).size(), 1u);
  // (227 + 227) x 256 x 2 B = 227 KiB exactly.
  EXPECT_TRUE(kernel_fit_problems(profile(227, 227, 256, 1, 4, 32), h100_like_sm()).empty());
  EXPECT_EQ(kernel_fit_problems(profile(227, 227, 256, 1, 4, 32), h100_like_sm(), 2.01).size(), 1u);
}

}  // namespace
}  // namespace tilesim::hw
