#include "hwmodels/framework_profile_loader.hpp"

#include <gtest/gtest.h>

#include "tests/hwmodels/config_test_support.hpp"

namespace tilesim::hw {
namespace {

using tilesim::testing::column_of;
using tilesim::testing::HasDiagnostic;
using tilesim::testing::replace_line;
using tilesim::testing::write_temp_file;

// A complete profile; tests replace one line (by number) to break it.
constexpr std::string_view kProfile = R"(description: a test framework
architectures: [sm80, sm90]
cta_setup:
  vectorized: {sm90: 0.1 us, sm80: 0.2 us}
  generic: {sm90: 0.9 us, sm80: 1 us}
  upcast_copy: 1.3 us
  reduction: {sm90: 3 us, sm80: 3 us}
  cat: {sm90: 1.6 us, sm80: 1.6 us}
)";

config::Loaded<FrameworkProfile> load_for(std::string_view text, const std::string& architecture) {
  const std::filesystem::path file = write_temp_file("frameworks/test.yaml", text);
  return load_framework_profile(file, {"gpu", architecture, 1.98e9, nullptr});
}

TEST(FrameworkProfileFile, EachFamilyTakesItsArchitecturesValue) {
  const auto sm90 = load_for(kProfile, "sm90");
  ASSERT_TRUE(sm90.ok()) << sm90.diagnostics.format();
  EXPECT_DOUBLE_EQ(sm90.value->setup_s(FrameworkKernelFamily::vectorized), 0.1e-6);
  EXPECT_DOUBLE_EQ(sm90.value->setup_s(FrameworkKernelFamily::generic), 0.9e-6);
  EXPECT_DOUBLE_EQ(sm90.value->setup_s(FrameworkKernelFamily::upcast_copy), 1.3e-6);
  EXPECT_DOUBLE_EQ(sm90.value->setup_s(FrameworkKernelFamily::reduction), 3e-6);
  EXPECT_DOUBLE_EQ(sm90.value->setup_s(FrameworkKernelFamily::cat), 1.6e-6);
  const auto sm80 = load_for(kProfile, "sm80");
  ASSERT_TRUE(sm80.ok()) << sm80.diagnostics.format();
  EXPECT_DOUBLE_EQ(sm80.value->setup_s(FrameworkKernelFamily::generic), 1e-6);
}

TEST(FrameworkProfileFile, ABadValueAndAMissingFamilyAreReportedWhereTheyAre) {
  const std::string line = "  generic: {sm90: -1 us, sm80: 1 us}";
  std::string text = replace_line(kProfile, 5, line);
  text = replace_line(text, 8, "  kat: 1 us");
  const auto loaded = load_for(text, "sm90");
  ASSERT_FALSE(loaded.ok());
  const auto& d = loaded.diagnostics;
  EXPECT_TRUE(HasDiagnostic(d, 5, column_of(line, "-1"), "cta_setup.generic.sm90", "0 us"));
  EXPECT_TRUE(HasDiagnostic(d, 8, 3, "cta_setup.kat", "unknown key `kat`"));
  // A missing key is reported at its map.
  EXPECT_TRUE(HasDiagnostic(d, 4, 3, "cta_setup.cat", "missing required key"));
  EXPECT_EQ(d.size(), 3u) << d.format();
}

}  // namespace
}  // namespace tilesim::hw
