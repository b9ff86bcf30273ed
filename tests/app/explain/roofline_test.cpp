// Roofline ceilings and ridge points from the shipped H100 config, and the
// memory hierarchy it describes.

#include "app/explain/roofline.hpp"

#include <gtest/gtest.h>

#include "app/explain/memory_hierarchy.hpp"
#include "tests/support/shipped_hardware.hpp"

namespace tilesim::explain {
namespace {

TEST(Roofline, H100RidgePointsArePeakOverBandwidth) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const RooflineCeilings bf16 = roofline_ceilings(spec, hw::DataType::bf16);
  // 132 SMs x 4096 flop/clk x 1980 MHz; HBM 3.35 TB/s x 3.09/3.35 = 3.09 TB/s.
  EXPECT_NEAR(bf16.peak_flops_per_s(), 132 * 4096 * 1.98e9, 1e6);
  EXPECT_NEAR(bf16.hbm_bytes_per_s, 3.09e12, 1e6);
  EXPECT_NEAR(bf16.hbm_ridge_flops_per_byte(), 132 * 4096 * 1.98e9 / 3.09e12, 1e-6);
  EXPECT_NEAR(bf16.l2_ridge_flops_per_byte(), 132 * 4096 * 1.98e9 / 7.3e12, 1e-6);
  EXPECT_NEAR(bf16.shared_memory_bytes_per_s, 132 * 128 * 1.98e9, 1e6);
  // fp8 doubles the tensor roof; fp32 has none and falls to the CUDA cores.
  EXPECT_NEAR(roofline_ceilings(spec, hw::DataType::fp8).peak_flops_per_s(),
              2 * bf16.peak_flops_per_s(), 1e6);
  const RooflineCeilings fp32 = roofline_ceilings(spec, hw::DataType::fp32);
  EXPECT_FALSE(fp32.on_tensor_cores());
  EXPECT_NEAR(fp32.peak_flops_per_s(), 132 * 256 * 1.98e9, 1e6);
}

TEST(Roofline, PositionDividesFlopsByBytesAtEachLevel) {
  const RooflinePosition at{2e12, 3e12, 4e9, 2e10, 1e-3};
  EXPECT_DOUBLE_EQ(at.flops_per_s(), 2e15);
  EXPECT_DOUBLE_EQ(at.hbm_flops_per_byte(), 500);
  EXPECT_DOUBLE_EQ(at.l2_flops_per_byte(), 100);
  EXPECT_DOUBLE_EQ(at.hbm_bytes_per_s(), 4e12);
}

TEST(MemoryHierarchy, H100LevelsFromRegistersToHbm) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const std::vector<MemoryLevel> levels = memory_hierarchy(spec);
  ASSERT_EQ(levels.size(), 4u);
  EXPECT_EQ(levels[0].name, "registers");
  EXPECT_DOUBLE_EQ(*levels[0].capacity_per_sm_bytes, 65536 * 4);
  EXPECT_DOUBLE_EQ(levels[0].capacity_bytes, 132 * 65536 * 4);
  EXPECT_FALSE(levels[0].bandwidth_bytes_per_s);  // not in the hardware file
  EXPECT_DOUBLE_EQ(*levels[1].capacity_per_sm_bytes, 228 * 1024);
  EXPECT_NEAR(*levels[1].bandwidth_bytes_per_s, 132 * 128 * 1.98e9, 1e6);
  EXPECT_DOUBLE_EQ(levels[2].capacity_bytes, 50.0 * 1024 * 1024);
  EXPECT_NEAR(*levels[2].latency_s, 260 / 1.98e9, 1e-15);
  EXPECT_DOUBLE_EQ(levels[3].capacity_bytes, 80e9);
  EXPECT_NEAR(*levels[3].bandwidth_bytes_per_s, 3.09e12, 1e6);
  // L2 and HBM each hold more than all the SMs' on-chip memories (the H100's
  // registers, 33.8 MB in all, outnumber its shared memory, 30.8 MB).
  EXPECT_GT(levels[2].capacity_bytes, levels[0].capacity_bytes);
  EXPECT_GT(levels[2].capacity_bytes, levels[1].capacity_bytes);
  EXPECT_GT(levels[3].capacity_bytes, levels[2].capacity_bytes);
}

}  // namespace
}  // namespace tilesim::explain
