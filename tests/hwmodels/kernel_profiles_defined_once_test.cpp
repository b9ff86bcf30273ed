// Each GEMM kernel implementation is described once, in configs/kernels/: no
// other config file (hardware, study, sweep, the measurement studies in
// kernels/studies/) carries a profile's keys, no two profile files are copies
// of each other, and every profile is offered by some hardware file. A stale
// copy (an H200 file with an old efficiency and no fixup costs) fails here.
// The same holds for attention profiles in configs/attention/ (which profile
// an implementation runs with is the table's, tested in
// tests/workloads/measurement).

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "hwmodels/attention_profile_loader.hpp"
#include "hwmodels/hardware_schema.hpp"

namespace tilesim::hw {
namespace {

namespace fs = std::filesystem;

const fs::path kSource(TILESIM_SOURCE_DIR);
const fs::path kConfigs(TILESIM_CONFIG_DIR);

// Keys only a kernel profile has. The tile keys (m, n, k, stages, warps,
// registers_per_thread, swizzle, cluster) are left out: a study's `tile:`
// override takes them too.
std::set<std::string> profile_only_keys() {
  std::set<std::string> keys;
  for (const config::Param& param : kernel_profile_schema().params()) {
    const std::string top = param.key.substr(0, param.key.find('.'));
    keys.insert(top);
  }
  const TileParams tile = tile_params();
  for (const config::Param* param : {&tile.registers_per_thread, &tile.swizzle}) {
    keys.erase(param->key);
  }
  for (const char* shared : {"tile", "cluster", "description"}) keys.erase(shared);
  return keys;
}

std::vector<fs::path> yaml_files(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".yaml") {
      files.push_back(entry.path());
    }
  }
  return files;
}

// Every map key in `node` that is in `keys`, as "file:line: key".
void find_keys(const YAML::Node& node, const std::set<std::string>& keys, const fs::path& file,
               std::vector<std::string>& found) {
  if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (it->first.IsScalar() && keys.contains(it->first.Scalar())) {
        found.push_back(file.string() + ":" + std::to_string(it->first.Mark().line + 1) + ": " +
                        it->first.Scalar());
      }
      find_keys(it->second, keys, file, found);
    }
  } else if (node.IsSequence()) {
    for (const YAML::Node& item : node) find_keys(item, keys, file, found);
  }
}

TEST(KernelProfilesDefinedOnce, NoProfileKeysOutsideConfigsKernels) {
  const std::set<std::string> keys = profile_only_keys();
  ASSERT_TRUE(keys.contains("tensor_efficiency"));
  ASSERT_TRUE(keys.contains("fixup_loads_in_flight"));
  ASSERT_FALSE(keys.contains("warps"));
  std::vector<fs::path> files = yaml_files(kConfigs);
  const std::vector<fs::path> studies = yaml_files(kSource / "kernels" / "studies");
  files.insert(files.end(), studies.begin(), studies.end());
  std::vector<std::string> found;
  for (const fs::path& file : files) {
    // Attention and framework profiles share some key names (tensor_efficiency,
    // instruction, architectures).
    if (file.parent_path() == kConfigs / "kernels" ||
        file.parent_path() == kConfigs / "attention" ||
        file.parent_path() == kConfigs / "frameworks")
      continue;
    find_keys(YAML::LoadFile(file.string()), keys, file, found);
  }
  EXPECT_TRUE(found.empty()) << "kernel profile keys outside configs/kernels/ (define a profile "
                                "there once and name it from the hardware file):\n"
                             << ::testing::PrintToString(found);
}

// Files that repeat another of `dir` once comments and layout are dropped.
std::size_t distinct_files(const fs::path& dir) {
  std::map<std::string, fs::path> by_content;
  for (const fs::path& file : yaml_files(dir)) {
    YAML::Emitter emitter;
    emitter << YAML::LoadFile(file.string());  // comments and layout dropped
    const auto [seen, inserted] = by_content.emplace(emitter.c_str(), file);
    EXPECT_TRUE(inserted) << file << " repeats " << seen->second;
  }
  return by_content.size();
}

TEST(KernelProfilesDefinedOnce, NoTwoProfileFilesAreCopies) {
  EXPECT_GE(distinct_files(kConfigs / "kernels"), 4u);
}

// Keys only an attention profile has (`description`, `architectures` and
// `kernel_overhead`, `ramp_and_drain` are shared with GEMM profiles, `tile` with studies).
std::set<std::string> attention_only_keys() {
  std::set<std::string> keys;
  for (const config::Param& param : attention_profile_schema().params()) {
    keys.insert(param.key.substr(0, param.key.find('.')));
  }
  for (const char* shared :
       {"tile", "description", "architectures", "instruction", "tensor_efficiency",
        "registers_per_thread", "kernel_overhead", "ramp_and_drain"}) {
    keys.erase(shared);
  }
  return keys;
}

TEST(AttentionProfilesDefinedOnce, NoAttentionProfileKeysOutsideConfigsAttention) {
  const std::set<std::string> keys = attention_only_keys();
  ASSERT_TRUE(keys.contains("softmax_overlap"));
  ASSERT_TRUE(keys.contains("elementwise_instructions_per_score"));
  std::vector<fs::path> files = yaml_files(kConfigs);
  const std::vector<fs::path> studies = yaml_files(kSource / "kernels" / "studies");
  files.insert(files.end(), studies.begin(), studies.end());
  std::vector<std::string> found;
  for (const fs::path& file : files) {
    if (file.parent_path() == kConfigs / "attention") continue;
    find_keys(YAML::LoadFile(file.string()), keys, file, found);
  }
  EXPECT_TRUE(found.empty()) << "attention profile keys outside configs/attention/ (define a "
                                "profile there once and map implementations to it):\n"
                             << ::testing::PrintToString(found);
}

TEST(AttentionProfilesDefinedOnce, NoTwoAttentionProfileFilesAreCopies) {
  EXPECT_GE(distinct_files(kConfigs / "attention"), 6u);
}

TEST(KernelProfilesDefinedOnce, EveryProfileIsOfferedByAHardwareFile) {
  std::set<std::string> offered;
  for (const fs::path& file : yaml_files(kConfigs / "hw")) {
    const YAML::Node kernels = YAML::LoadFile(file.string())["kernels"];
    ASSERT_TRUE(kernels.IsMap()) << file;
    for (auto it = kernels.begin(); it != kernels.end(); ++it) {
      ASSERT_TRUE(it->second.IsScalar()) << file << ": kernels." << it->first.Scalar()
                                         << " must name a profile in configs/kernels/";
      offered.insert(it->second.Scalar());
    }
  }
  for (const fs::path& file : yaml_files(kConfigs / "kernels")) {
    EXPECT_TRUE(offered.contains(file.stem().string()))
        << file << " is offered by no hardware file in configs/hw/";
  }
}

}  // namespace
}  // namespace tilesim::hw
