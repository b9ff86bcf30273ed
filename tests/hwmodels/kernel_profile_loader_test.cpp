#include "hwmodels/kernel_profile_loader.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "tests/hwmodels/config_test_support.hpp"

namespace tilesim::hw {
namespace {

using tilesim::testing::column_of;
using tilesim::testing::HasDiagnostic;
using tilesim::testing::replace_line;
using tilesim::testing::temp_test_dir;
using tilesim::testing::write_temp_file;

const std::filesystem::path kConfigDir(TILESIM_CONFIG_DIR);

// A complete profile; tests replace one line (by number) to break it.
constexpr std::string_view kProfile = R"(description: a test kernel
architectures: [sm80, sm90]
instruction: wgmma
tile: {m: 128, n: 256, k: 64, stages: 4, warps: 12}
registers_per_thread: 168
tensor_efficiency: {sm90: 0.7, test_gpu: 0.75, sm80: 0.6}
work_unit_overhead: {sm90: 2 us}
)";

HardwareSpec shipped(const std::string& name) {
  const auto loaded = load_hardware_spec(kConfigDir / "hw" / (name + ".yaml"));
  EXPECT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  return loaded.ok() ? *loaded.value : HardwareSpec{};
}

// The profile text read for a GPU with the H100's SM, named `name`, of `architecture`.
config::Loaded<KernelProfile> load_for(std::string_view text, const std::string& name,
                                       const std::string& architecture,
                                       const std::vector<FieldOverride>& overrides = {}) {
  static const HardwareSpec h100 = shipped("h100_sxm");
  const std::filesystem::path file = write_temp_file("kernels/test_kernel.yaml", text);
  return load_kernel_profile(file, {name, architecture, h100.sm.clock_hz, &h100.sm}, overrides,
                             "kernels.mine");
}

std::string shipped_text(const std::string& name) {
  std::ifstream file(kConfigDir / "hw" / (name + ".yaml"));
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// h100_sxm.yaml with its `kernels:` block replaced, written to <test dir>/hw/,
// so that profiles come from <test dir>/kernels/.
std::filesystem::path hardware_offering(const std::string& kernels_block) {
  std::string text = shipped_text("h100_sxm");
  text = text.substr(0, text.find("\nkernels:") + 1) + kernels_block;
  return write_temp_file("hw/gpu.yaml", text);
}

// The line of `library:` in that file: the shipped lines before `kernels:`,
// then `kernels:`, then it.
int offered_library_line() {
  const std::string text = shipped_text("h100_sxm");
  const std::string head = text.substr(0, text.find("\nkernels:") + 1);
  return static_cast<int>(std::count(head.begin(), head.end(), '\n')) + 2;
}

TEST(KernelProfileFile, PerGpuValuesPickTheHardwareNameThenTheArchitecture) {
  const auto sm90 = load_for(kProfile, "some_gpu", "sm90");
  ASSERT_TRUE(sm90.ok()) << sm90.diagnostics.format();
  EXPECT_EQ(sm90.value->tensor_efficiency, 0.7);
  EXPECT_DOUBLE_EQ(sm90.value->work_unit_overhead_s, 2e-6);
  const auto named = load_for(kProfile, "test_gpu", "sm90");
  ASSERT_TRUE(named.ok()) << named.diagnostics.format();
  EXPECT_EQ(named.value->tensor_efficiency, 0.75);
  EXPECT_EQ(named.value->architectures, (std::vector<std::string>{"sm80", "sm90"}));
  EXPECT_EQ(named.value->description, "a test kernel");
  // A plain value applies to every GPU; a default too.
  const auto plain = load_for(replace_line(kProfile, 6, "tensor_efficiency: 0.5"), "x", "sm90");
  ASSERT_TRUE(plain.ok()) << plain.diagnostics.format();
  EXPECT_EQ(plain.value->tensor_efficiency, 0.5);
  EXPECT_EQ(plain.value->fixup_load_latency_s, 0);
}

TEST(KernelProfileFile, AGpuTheMapDoesNotCoverIsAnError) {
  const auto loaded = load_for(kProfile, "a100_like", "sm80");
  ASSERT_FALSE(loaded.ok());
  ASSERT_EQ(loaded.diagnostics.size(), 1u) << loaded.diagnostics.format();
  EXPECT_TRUE(HasDiagnostic(loaded.diagnostics, 7, 21, "kernels.mine.work_unit_overhead",
                            "no value for this GPU: the map gives sm90 but none of `a100_like` "
                            "or `sm80`"));
}

TEST(KernelProfileFile, EveryPerGpuEntryIsChecked) {
  const std::string line = "tensor_efficiency: {sm90: 0.7, sm80: 1.5, bad key: 0.5}";
  const auto loaded = load_for(replace_line(kProfile, 6, line), "x", "sm90");
  const auto& d = loaded.diagnostics;
  EXPECT_TRUE(HasDiagnostic(d, 6, column_of(line, "1.5"), "kernels.mine.tensor_efficiency.sm80",
                            "\"1.5\" is out of range; allowed: > 0 and <= 1"));
  EXPECT_TRUE(HasDiagnostic(d, 6, column_of(line, "bad key"), "kernels.mine.tensor_efficiency",
                            "keys of a per-GPU map are architectures"));
  EXPECT_EQ(d.size(), 2u) << d.format();
  // On its own (tilesim validate) the same problems are found.
  const auto alone = check_kernel_profile_file(
      write_temp_file("kernels/alone.yaml", replace_line(kProfile, 6, line)));
  EXPECT_TRUE(HasDiagnostic(alone.diagnostics, 6, column_of(line, "1.5"), "tensor_efficiency.sm80",
                            "out of range"));
  EXPECT_EQ(alone.diagnostics.size(), 2u) << alone.diagnostics.format();
  // Only GPU-keyed parameters take a map.
  const auto tile =
      load_for(replace_line(kProfile, 5, "registers_per_thread: {sm90: 168}"), "x", "sm90");
  EXPECT_TRUE(HasDiagnostic(tile.diagnostics, 5, 23, "kernels.mine.registers_per_thread",
                            "expected an integer from 1 to 1024, got a map"));
}

TEST(KernelProfileFile, ProblemsAreReportedAtTheProfileFile) {
  const std::string line = "tile: {m: 100, n: 256, k: 64, stages: 4, warps: 12, extra: 1}";
  std::string text = replace_line(kProfile, 4, line);
  text = replace_line(text, 3, "instruction: wmma");
  const auto loaded = load_for(text, "x", "sm90");
  const auto& d = loaded.diagnostics;
  EXPECT_TRUE(HasDiagnostic(d, 3, 14, "kernels.mine.instruction",
                            "unknown value `wmma`; did you mean `wgmma`? allowed: mma_sync, "
                            "wgmma, simt"));
  EXPECT_TRUE(HasDiagnostic(d, 4, column_of(line, "100"), "kernels.mine.tile.m",
                            "must be a multiple of 16, got 100"));
  EXPECT_TRUE(HasDiagnostic(d, 4, column_of(line, "extra"), "kernels.mine.tile.extra",
                            "unknown key `extra`"));
  EXPECT_EQ(d.size(), 3u) << d.format();
  for (const config::Diagnostic& item : d.items()) {
    EXPECT_EQ(item.where.file, (temp_test_dir() / "kernels" / "test_kernel.yaml").string());
  }
}

TEST(KernelProfileFile, ATileThatDoesNotFitTheSmSaysWhichAndWhere) {
  const std::string tile = "tile: {m: 128, n: 256, k: 64, stages: 8, warps: 12}";
  const std::string registers = "registers_per_thread: 300";
  const auto loaded =
      load_for(replace_line(replace_line(kProfile, 4, tile), 5, registers), "h100_like", "sm90");
  const auto& d = loaded.diagnostics;
  EXPECT_TRUE(HasDiagnostic(d, 5, column_of(registers, "300"), "kernels.mine.registers_per_thread",
                            "300 registers per thread, more than sm.max_registers_per_thread "
                            "(255) on h100_like"));
  EXPECT_TRUE(HasDiagnostic(d, 4, column_of(tile, "8, warps"), "kernels.mine.tile.stages",
                            "the pipeline needs 8 stages x (128x64 + 256x64) x 2 B = 384 KiB of "
                            "shared memory per CTA, more than sm.shared_memory.per_cta_max "
                            "(227 KiB)"));
  EXPECT_EQ(d.size(), 2u) << d.format();
  // 12 warps at the launch's 255 registers overflow the register file.
  const auto overflow =
      load_for(replace_line(kProfile, 5, "registers_per_thread: 255"), "x", "sm90");
  EXPECT_TRUE(HasDiagnostic(overflow.diagnostics, 5, 23, "kernels.mine.registers_per_thread",
                            "a CTA needs 12 warps x 8192 = 98304 registers, more than "
                            "sm.registers (65536)"));
}

TEST(KernelProfileFile, OverridesReplaceAPerGpuMap) {
  const auto loaded = load_for(kProfile, "x", "sm90",
                               {{"tensor_efficiency", "0.9"}, {"work_unit_overhead", "1 us"}});
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  EXPECT_EQ(loaded.value->tensor_efficiency, 0.9);
  EXPECT_DOUBLE_EQ(loaded.value->work_unit_overhead_s, 1e-6);
}

TEST(KernelProfileDir, BesideTheHwFolderElseTheConfigDir) {
  EXPECT_EQ(kernel_profile_dir("/a/configs/hw/x.yaml", "/b"),
            std::filesystem::path("/a/configs/kernels"));
  EXPECT_EQ(kernel_profile_dir("/a/mine/x.yaml", "/b"), std::filesystem::path("/b/kernels"));
  EXPECT_FALSE(kernel_profile_dir("x.yaml", "").has_value());
}

TEST(HardwareOffersProfiles, FromTheKernelsFolderBesideHw) {
  write_temp_file("kernels/test_kernel.yaml", kProfile);
  const auto loaded = load_hardware_spec(hardware_offering("kernels:\n  library: test_kernel\n"));
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  EXPECT_EQ(loaded.value->kernel_profiles.at("library").tensor_efficiency, 0.7);
  EXPECT_EQ(loaded.value->kernel_profiles.at("library").name, "library");
}

TEST(HardwareOffersProfiles, UnknownProfileListsTheAvailableOnes) {
  write_temp_file("kernels/test_kernel.yaml", kProfile);
  const auto loaded = load_hardware_spec(hardware_offering("kernels:\n  library: test_kernl\n"));
  ASSERT_FALSE(loaded.ok());
  EXPECT_TRUE(HasDiagnostic(loaded.diagnostics, offered_library_line(), 12, "kernels.library",
                            "unknown kernel profile `test_kernl`; did you mean `test_kernel`? "
                            "available in"));
}

TEST(HardwareOffersProfiles, AProfileWrittenInTheHardwareFileIsRefused) {
  const auto loaded = load_hardware_spec(
      hardware_offering("kernels:\n  library: {instruction: wgmma, tensor_efficiency: 0.7}\n"));
  ASSERT_FALSE(loaded.ok());
  EXPECT_TRUE(HasDiagnostic(loaded.diagnostics, offered_library_line(), 12, "kernels.library",
                            "expected the name of a kernel profile in"));
  EXPECT_NE(loaded.diagnostics.format().find("defined once there"), std::string::npos);
}

TEST(HardwareOffersProfiles, OnlyOnTheArchitecturesItRunsOn) {
  write_temp_file("kernels/test_kernel.yaml", replace_line(kProfile, 2, "architectures: [sm80]"));
  const auto loaded = load_hardware_spec(hardware_offering("kernels:\n  library: test_kernel\n"));
  ASSERT_FALSE(loaded.ok());
  EXPECT_TRUE(HasDiagnostic(loaded.diagnostics, offered_library_line(), 12, "kernels.library",
                            "kernel profile `test_kernel` runs on sm80, not on sm90 (h100_sxm)"));
}

TEST(HardwareOffersProfiles, SetPicksAnotherProfileOrChangesAField) {
  write_temp_file("kernels/test_kernel.yaml", kProfile);
  write_temp_file("kernels/other.yaml", replace_line(kProfile, 6, "tensor_efficiency: 0.4"));
  const auto path = hardware_offering("kernels:\n  library: test_kernel\n  mine: test_kernel\n");
  const auto loaded = load_hardware_spec(
      path, {{"kernels.library", "other"}, {"kernels.mine.tensor_efficiency", "0.3"}});
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  EXPECT_EQ(loaded.value->kernel_profiles.at("library").tensor_efficiency, 0.4);
  EXPECT_EQ(loaded.value->kernel_profiles.at("mine").tensor_efficiency, 0.3);
  const auto bad = load_hardware_spec(path, {{"kernels.mine.tensor_efficiency", "2"}});
  EXPECT_TRUE(HasDiagnostic(bad.diagnostics, 0, 0, "kernels.mine.tensor_efficiency",
                            "\"2\" is out of range"));
}

}  // namespace
}  // namespace tilesim::hw
