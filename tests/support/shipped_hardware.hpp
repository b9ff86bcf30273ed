#pragma once
// A hardware file from configs/hw/ for tests, with optional `--set`-style
// overrides; a problem loading it fails the test that asked.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "hwmodels/hardware_loader.hpp"

namespace tilesim::testing {

inline hw::HardwareSpec shipped_hardware(const std::string& name,
                                         const std::vector<hw::FieldOverride>& overrides = {}) {
  auto spec = hw::load_hardware_spec(
      std::filesystem::path(TILESIM_CONFIG_DIR) / "hw" / (name + ".yaml"), overrides);
  EXPECT_TRUE(spec.ok()) << spec.diagnostics.format();
  return spec.ok() ? *spec.value : hw::HardwareSpec{};
}

}  // namespace tilesim::testing
