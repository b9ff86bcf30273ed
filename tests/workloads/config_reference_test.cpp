// docs/config.md is generated from the parameter declarations; this test fails
// when the two differ, so the reference cannot go stale.

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "hwmodels/hardware_schema.hpp"
#include "workloads/study_loader.hpp"

namespace tilesim::workloads {
namespace {

const std::filesystem::path kDocs =
    std::filesystem::path(TILESIM_SOURCE_DIR) / "docs" / "config.md";

std::string read_file(const std::filesystem::path& path) {
  std::ifstream stream(path, std::ios::binary);
  std::ostringstream text;
  text << stream.rdbuf();
  return text.str();
}

TEST(ConfigReference, DocsMatchTheDeclarations) {
  const std::string rendered = render_config_reference_markdown();
  // TILESIM_UPDATE_DOCS=1 rewrites the file instead of comparing.
  if (const char* update = std::getenv("TILESIM_UPDATE_DOCS"); update && *update == '1') {
    std::ofstream(kDocs, std::ios::binary) << rendered;
  }
  EXPECT_TRUE(read_file(kDocs) == rendered)
      << kDocs.string()
      << " is out of date with the parameter declarations. Regenerate it with\n"
         "  tilesim schema > docs/config.md\n"
         "or, before that command exists, with\n"
         "  TILESIM_UPDATE_DOCS=1 ./config_reference_test";
}

TEST(ConfigReference, EveryHardwareParameterIsListed) {
  const std::string rendered = render_config_reference_markdown();
  for (const auto& param : hw::hardware_schema().params()) {
    EXPECT_NE(rendered.find("| `" + param.key + "` |"), std::string::npos) << param.key;
  }
  for (const auto& param : hw::kernel_profile_schema().params()) {
    EXPECT_NE(rendered.find("| `" + param.key + "` |"), std::string::npos) << param.key;
  }
  EXPECT_NE(rendered.find("| `workloads[].gemm.dtype` |"), std::string::npos);
}

}  // namespace
}  // namespace tilesim::workloads
