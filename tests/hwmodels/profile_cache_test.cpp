#include "hwmodels/profile_cache.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "hwmodels/hardware_loader.hpp"

namespace tilesim::hw {
namespace {

const std::filesystem::path kConfigDir = TILESIM_CONFIG_DIR;
const std::filesystem::path kH100 = kConfigDir / "hw" / "h100_sxm.yaml";

// What a load gave that the cache could get wrong: the problems, and each
// profile's values picked for the GPU.
std::string outcome(const config::Loaded<HardwareSpec>& loaded) {
  std::string text = loaded.diagnostics.format();
  if (!loaded.ok()) return text;
  for (const auto& [name, profile] : loaded.value->kernel_profiles) {
    text += fmt::format("kernel {} {} eff {} tile {}x{}\n", name, profile.source_path,
                        profile.tensor_efficiency, profile.tile_m, profile.tile_n);
  }
  for (const auto& [name, profile] : loaded.value->attention_profiles) {
    text += fmt::format("attention {} eff {} cta {}\n", name, profile.tensor_efficiency,
                        profile.cta_overhead_s);
  }
  for (const auto& [name, profile] : loaded.value->framework_profiles) {
    text += fmt::format("framework {}\n", name);
  }
  return text;
}

// Variants of one GPU loaded one after another through one cache give what
// each gives loaded on its own: a changed name picks other per-GPU values, a
// profile override is applied, and a tile is checked against each variant's SM.
TEST(ProfileCache, VariantsLoadAsOnTheirOwn) {
  const std::vector<std::vector<FieldOverride>> variants = {
      {},
      {{"hbm.bandwidth", "4.8 TB/s"}},
      {{"name", "h100_sxm.measured"}},
      {{"kernels.library.tensor_efficiency", "0.5"}},
      {{"sm.shared_memory.per_cta_max", "64 KiB"}},  // library_sm90's tile no longer fits
      {{"sm.clock", "1500 MHz"}},
      {},
  };
  ProfileCache cache;
  for (const std::vector<FieldOverride>& overrides : variants) {
    const std::string alone = outcome(load_hardware_spec(kH100, overrides, kConfigDir));
    const std::string cached = outcome(load_hardware_spec(kH100, overrides, kConfigDir, cache));
    EXPECT_EQ(cached, alone) << (overrides.empty() ? "" : overrides.front().key_path);
  }
}

TEST(ProfileCache, TileIsCheckedOnEveryLoad) {
  ProfileCache cache;
  ASSERT_TRUE(load_hardware_spec(kH100, {}, kConfigDir, cache).ok());
  const auto small_sm =
      load_hardware_spec(kH100, {{"sm.shared_memory.per_cta_max", "64 KiB"}}, kConfigDir, cache);
  EXPECT_FALSE(small_sm.ok());
  EXPECT_NE(small_sm.diagnostics.format().find("kernels.library"), std::string::npos)
      << small_sm.diagnostics.format();
}

}  // namespace
}  // namespace tilesim::hw
