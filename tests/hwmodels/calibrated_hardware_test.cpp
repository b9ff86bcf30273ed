// A measurement's sidecar names the GPU measured; compare predicts on that
// GPU's shipped calibrated description when there is one.

#include "hwmodels/calibrated_hardware.hpp"

#include <gtest/gtest.h>

namespace tilesim::hw {
namespace {

const std::filesystem::path kConfigDir = TILESIM_CONFIG_DIR;

TEST(CalibratedHardwareName, NamesTheShippedCalibratedFileOfAGpu) {
  EXPECT_EQ(calibrated_hardware_name("h100_sxm", kConfigDir), "h100_sxm.measured");
  EXPECT_EQ(calibrated_hardware_name("h200_sxm", kConfigDir), "h200_sxm.measured");
}

TEST(CalibratedHardwareName, NoneWithoutACalibratedFile) {
  EXPECT_EQ(calibrated_hardware_name("a100_sxm_80gb", kConfigDir), std::nullopt);
  EXPECT_EQ(calibrated_hardware_name("no_such_gpu", kConfigDir), std::nullopt);
}

TEST(CalibratedHardwareName, NoneForACalibratedNameOrAPath) {
  EXPECT_EQ(calibrated_hardware_name("h100_sxm.measured", kConfigDir), std::nullopt);
  EXPECT_EQ(calibrated_hardware_name("configs/hw/h100_sxm.yaml", kConfigDir), std::nullopt);
  EXPECT_EQ(calibrated_hardware_name("h100_sxm.yaml", kConfigDir), std::nullopt);
  EXPECT_EQ(calibrated_hardware_name("", kConfigDir), std::nullopt);
}

}  // namespace
}  // namespace tilesim::hw
