#include "hwmodels/hardware_loader.hpp"

#include <gtest/gtest.h>

#include "tests/hwmodels/config_test_support.hpp"

namespace tilesim::hw {
namespace {

using tilesim::testing::column_of;
using tilesim::testing::HasDiagnostic;
using tilesim::testing::replace_line;
using tilesim::testing::temp_test_dir;
using tilesim::testing::write_temp_file;

const std::filesystem::path kHwDir = std::filesystem::path(TILESIM_CONFIG_DIR) / "hw";

// A complete, valid file; tests replace one line (by number) to break it.
constexpr std::string_view kValid = R"(name: test_gpu
sm:
  count: 132
  clock: "1980 MHz"
  tensor:
    fp16: "4096 flop/clk"
    bf16: "4096 flop/clk"
    tf32: "2048 flop/clk"
  fp32: "256 flop/clk"
  sfu: "16 op/clk"
  shared_memory: {capacity: "228 KiB", per_cta_max: "227 KiB", reserved_per_cta: "1 KiB", bandwidth: "128 B/clk"}
  registers: 65536
  register_allocation_unit: 256
  max_registers_per_thread: 255
  max_threads: 2048
  max_ctas: 32
  max_threads_per_cta: 1024
  l2_port_bandwidth: "64 B/clk"
l2: {capacity: "50 MiB", bandwidth: "7.3 TB/s", latency: "260 clk"}
hbm: {capacity: "80 GB", bandwidth: "3.35 TB/s", efficiency: 0.92, latency: "400 ns"}
launch: {host_issue: "4.5 us", latency: "3 us", graph_node: "0.9 us", cta_dispatch: "0.5 us"}
kernels:
  library: test_wgmma
architecture: sm90
)";

// The kernel profile kValid offers, in <test dir>/kernels/ (the configuration
// directory the loader is given: hw.yaml is not in a `hw/` folder).
constexpr std::string_view kProfile = R"(description: a test kernel
architectures: [sm90]
instruction: wgmma
tile: {m: 128, n: 256, k: 64, stages: 4, warps: 12}
registers_per_thread: 168
tensor_efficiency: 0.8
)";

config::Loaded<HardwareSpec> load_text(std::string_view text,
                                       const std::vector<FieldOverride>& overrides = {}) {
  const std::filesystem::path path = write_temp_file("hw.yaml", text);
  const std::filesystem::path profile = write_temp_file("kernels/test_wgmma.yaml", kProfile);
  auto loaded = load_hardware_spec(path, overrides, temp_test_dir());
  for (const config::Diagnostic& item : loaded.diagnostics.items()) {
    if (item.where.file != "--set" && item.where.file != profile.string()) {
      EXPECT_EQ(item.where.file, path.string());
    }
  }
  return loaded;
}

// Loads kValid with line `line` replaced; expects failure.
config::Diagnostics problems_with_line(int line, std::string_view replacement) {
  const auto loaded = load_text(replace_line(kValid, line, replacement));
  EXPECT_FALSE(loaded.ok());
  return loaded.diagnostics;
}

TEST(ShippedHardware, AllFilesLoad) {
  for (const char* name :
       {"h100_sxm", "h100_sxm.measured", "h200_sxm", "h200_sxm.measured", "a100_sxm_80gb"}) {
    const auto loaded = load_hardware_spec(kHwDir / (std::string(name) + ".yaml"));
    ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
    EXPECT_EQ(loaded.value->name, name);
    EXPECT_TRUE(loaded.value->kernel_profiles.contains("library"));
    EXPECT_TRUE(loaded.value->kernel_profiles.contains("tilesim_ref"));
    // The wgmma kernel needs sm90; the A100 cannot offer it.
    EXPECT_EQ(loaded.value->kernel_profiles.contains("tilesim_ref_wgmma"),
              loaded.value->architecture == "sm90");
  }
}

HardwareSpec shipped(const std::string& name) {
  const auto loaded = load_hardware_spec(kHwDir / (name + ".yaml"));
  EXPECT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  return loaded.ok() ? *loaded.value : HardwareSpec{};
}

TEST(ShippedHardware, PowerLimitedClockRisesAsFewerSmsAreBusy) {
  const HardwareSpec h100 = shipped("h100_sxm");
  EXPECT_DOUBLE_EQ(h100.tensor_clock_fraction(132), 1800.0 / 1980.0);
  // 1800 MHz x (132 / 100)^(1/3) = 1974.5 MHz, just under the 1980 MHz maximum.
  EXPECT_NEAR(h100.tensor_clock_fraction(100), 1974.5 / 1980.0, 1e-4);
  EXPECT_DOUBLE_EQ(h100.tensor_clock_fraction(1), 1.0);
  // No power limit given: the maximum clock whatever runs.
  EXPECT_DOUBLE_EQ(shipped("a100_sxm_80gb").tensor_clock_fraction(108), 1.0);
}

TEST(ShippedHardware, H100Figures) {
  const auto loaded = load_hardware_spec(kHwDir / "h100_sxm.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  const HardwareSpec& h100 = *loaded.value;
  EXPECT_EQ(h100.sm.count, 132);
  EXPECT_EQ(h100.sm.clock_hz, 1.98e9);
  EXPECT_EQ(h100.sm_mma_flops_per_s(DataType::bf16), 4096 * 1.98e9);
  EXPECT_EQ(h100.sm_mma_flops_per_s(DataType::fp16), 4096 * 1.98e9);
  EXPECT_EQ(h100.sm_mma_flops_per_s(DataType::tf32), 2048 * 1.98e9);
  EXPECT_EQ(h100.sm_mma_flops_per_s(DataType::fp8), 8192 * 1.98e9);
  EXPECT_EQ(h100.sm_mma_flops_per_s(DataType::fp32), 256 * 1.98e9);
  EXPECT_EQ(h100.sm.sfu_ops_per_s, 16 * 1.98e9);
  EXPECT_EQ(h100.sm.shared_memory.capacity_bytes, 228 * 1024);
  EXPECT_EQ(h100.sm.shared_memory.per_cta_max_bytes, 227 * 1024);
  EXPECT_EQ(h100.sm.shared_memory.reserved_per_cta_bytes, 1024);
  EXPECT_EQ(h100.sm.shared_memory.bandwidth_bytes_per_s, 128 * 1.98e9);
  EXPECT_EQ(h100.sm.registers, 65536);
  EXPECT_EQ(h100.sm.register_allocation_unit, 256);
  EXPECT_EQ(h100.sm.max_registers_per_thread, 255);
  EXPECT_EQ(h100.sm.max_threads, 2048);
  EXPECT_EQ(h100.sm.max_ctas, 32);
  EXPECT_EQ(h100.sm.max_threads_per_cta, 1024);
  EXPECT_EQ(h100.sm.l2_port_bytes_per_s, 64 * 1.98e9);
  EXPECT_EQ(h100.l2.capacity_bytes, 50.0 * 1024 * 1024);
  EXPECT_EQ(h100.l2.bandwidth_bytes_per_s, 7.3e12);
  EXPECT_EQ(h100.l2.latency_s, 260 / 1.98e9);
  EXPECT_EQ(h100.hbm.capacity_bytes, 80e9);
  EXPECT_EQ(h100.hbm.bandwidth_bytes_per_s, 3.35e12);
  EXPECT_EQ(h100.hbm.efficiency, 3.09 / 3.35);
  EXPECT_DOUBLE_EQ(h100.hbm.sustained_bytes_per_s(), 3.09e12);
  EXPECT_EQ(h100.launch.host_issue_s, 4.5e-6);
  EXPECT_EQ(h100.launch.graph_node_s, 0.9e-6);
  const KernelProfile& library = h100.kernel_profiles.at("library");
  EXPECT_EQ(library.name, "library");
  EXPECT_EQ(library.instruction, MmaInstruction::wgmma);
  EXPECT_EQ(library.tile_m, 128);
  EXPECT_EQ(library.tile_n, 256);
  EXPECT_EQ(library.tile_k, 64);
  EXPECT_EQ(library.stages, 4);
  EXPECT_EQ(library.warps, 12);
  EXPECT_EQ(library.registers_per_thread, 168);
  EXPECT_EQ(library.swizzle, 8);
  EXPECT_EQ(library.cluster.m, 2);
  EXPECT_EQ(library.cluster.n, 1);
  EXPECT_EQ(library.tensor_efficiency, 0.947);
  EXPECT_DOUBLE_EQ(library.kernel_overhead_s, 3.2e-6);
  EXPECT_DOUBLE_EQ(library.ramp_and_drain_s, 0.6e-6);
  EXPECT_EQ(h100.kernel_profiles.at("tilesim_ref").instruction, MmaInstruction::mma_sync);
  EXPECT_EQ(h100.kernel_profiles.at("tilesim_ref").tensor_efficiency, 0.466);
  EXPECT_DOUBLE_EQ(h100.kernel_profiles.at("tilesim_ref").work_unit_overhead_s, 7e-6);
  EXPECT_DOUBLE_EQ(h100.kernel_profiles.at("tilesim_ref").kernel_overhead_s, 2.3e-6);
  // Round 6: the mma.sync kernel's static tile lists and its CTAs' pace spread.
  EXPECT_EQ(h100.kernel_profiles.at("tilesim_ref").stream_k_data_parallel_order,
            StreamKDataParallelOrder::static_list);
  EXPECT_EQ(h100.kernel_profiles.at("tilesim_ref").cta_speed_spread, 0.14);
  EXPECT_EQ(h100.kernel_profiles.at("tilesim_ref_wgmma").stream_k_data_parallel_order,
            StreamKDataParallelOrder::claimed);
  EXPECT_EQ(h100.kernel_profiles.at("tilesim_ref_wgmma").cta_speed_spread, 0);
  // Read from its SASS, per build, with a fitted round latency; cuBLAS: fitted.
  const KernelProfile& reference = h100.kernel_profiles.at("tilesim_ref");
  EXPECT_EQ(reference.unaligned_bytes_in_flight_per_thread, 37.7);
  EXPECT_EQ(reference.split_k_unaligned_bytes_in_flight_per_thread, 37.2);
  EXPECT_EQ(reference.persistent_unaligned_bytes_in_flight_per_thread, 26.4);
  EXPECT_DOUBLE_EQ(reference.unaligned_load_latency_s, 500e-9);
  EXPECT_EQ(library.unaligned_bytes_in_flight_per_thread, 8);
  // Measured by tilesim-unaligned-gather: the SM's narrow-load rate and one round alone.
  EXPECT_EQ(library.unaligned_gather_bytes_per_clock_per_sm, 7.1);
  EXPECT_DOUBLE_EQ(library.unaligned_load_latency_s, 165e-9);
  // cuBLAS's unaligned kernels have no Stream-K (read from their names); ours do.
  EXPECT_FALSE(library.unaligned_stream_k);
  EXPECT_TRUE(reference.unaligned_stream_k);
  // The power law and the two L2 partitions.
  EXPECT_EQ(h100.power.limit_w, 700);
  EXPECT_EQ(h100.power.tensor_pj_per_flop, 0.263);
  EXPECT_EQ(h100.l2.partitions, 2);
  EXPECT_DOUBLE_EQ(h100.l2.reuse_capacity_bytes(), 25.0 * (1 << 20));
  EXPECT_DOUBLE_EQ(h100.kernel_profiles.at("tilesim_ref").fixup_load_latency_s, 230e-9);
  EXPECT_EQ(h100.kernel_profiles.at("tilesim_ref").fixup_loads_in_flight, 1);
  EXPECT_EQ(library.work_unit_overhead_s, 0);
  EXPECT_EQ(h100.kernel_profiles.at("tilesim_ref").tile_m, 256);
  EXPECT_EQ(h100.kernel_profiles.at("tilesim_ref").stream_k_order, StreamKOrder::tail_first);
  EXPECT_EQ(h100.source_path, (kHwDir / "h100_sxm.yaml").string());
  const KernelProfile& wgmma = h100.kernel_profiles.at("tilesim_ref_wgmma");
  EXPECT_EQ(wgmma.instruction, MmaInstruction::wgmma);
  EXPECT_EQ(wgmma.warps, 12);
  EXPECT_EQ(wgmma.registers_per_thread, 168);
  EXPECT_EQ(wgmma.fixup_loads_in_flight, 4);
  EXPECT_EQ(wgmma.stream_k_order, StreamKOrder::head_first);
  EXPECT_EQ(
      wgmma.source_path,
      (std::filesystem::path(TILESIM_CONFIG_DIR) / "kernels" / "tilesim_ref_wgmma.yaml").string());
}

// Profiles are defined once: every sm90 GPU gets the same profile, except the
// values fitted against one hardware file, keyed by its name.
TEST(ShippedHardware, Sm90GpusShareTheProfiles) {
  const HardwareSpec h100 = shipped("h100_sxm");
  const HardwareSpec h200 = shipped("h200_sxm");
  const HardwareSpec measured = shipped("h100_sxm.measured");
  for (const char* name : {"library", "tilesim_ref", "tilesim_ref_wgmma"}) {
    const KernelProfile& a = h100.kernel_profiles.at(name);
    const KernelProfile& b = h200.kernel_profiles.at(name);
    EXPECT_EQ(a.tensor_efficiency, b.tensor_efficiency) << name;
    EXPECT_EQ(a.work_unit_overhead_s, b.work_unit_overhead_s) << name;
    EXPECT_EQ(a.kernel_overhead_s, b.kernel_overhead_s) << name;
    EXPECT_EQ(a.ramp_and_drain_s, b.ramp_and_drain_s) << name;
    EXPECT_EQ(a.fixup_load_latency_s, b.fixup_load_latency_s) << name;
    EXPECT_EQ(a.fixup_loads_in_flight, b.fixup_loads_in_flight) << name;
    EXPECT_EQ(a.cta_speed_spread, b.cta_speed_spread) << name;
    EXPECT_EQ(a.tile_n, b.tile_n) << name;
  }
  EXPECT_EQ(h200.kernel_profiles.at("tilesim_ref").tensor_efficiency, 0.466);
  EXPECT_DOUBLE_EQ(h200.kernel_profiles.at("tilesim_ref").work_unit_overhead_s, 7e-6);
  EXPECT_EQ(h200.kernel_profiles.at("tilesim_ref").cta_speed_spread, 0.14);
  EXPECT_EQ(measured.kernel_profiles.at("tilesim_ref").tensor_efficiency, 0.461);
  EXPECT_DOUBLE_EQ(measured.kernel_profiles.at("tilesim_ref").kernel_overhead_s, 2.3e-6);
  EXPECT_EQ(measured.kernel_profiles.at("tilesim_ref").cta_speed_spread, 0.11);
  EXPECT_EQ(measured.kernel_profiles.at("library").tensor_efficiency, 0.969);
}

TEST(ShippedHardware, A100HasNoFp8) {
  const auto loaded = load_hardware_spec(kHwDir / "a100_sxm_80gb.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  const HardwareSpec& a100 = *loaded.value;
  EXPECT_EQ(a100.sm.count, 108);
  EXPECT_EQ(a100.sm.clock_hz, 1.41e9);
  EXPECT_EQ(a100.sm_mma_flops_per_s(DataType::bf16), 2048 * 1.41e9);  // 312 TFLOP/s in all
  EXPECT_EQ(a100.sm_mma_flops_per_s(DataType::tf32), 1024 * 1.41e9);
  EXPECT_EQ(a100.sm_mma_flops_per_s(DataType::fp8), 0);
  EXPECT_EQ(a100.l2.capacity_bytes, 40.0 * 1024 * 1024);
  EXPECT_EQ(a100.hbm.bandwidth_bytes_per_s, 2039e9);
  EXPECT_EQ(a100.sm.shared_memory.per_cta_max_bytes, 163 * 1024);
  EXPECT_EQ(a100.kernel_profiles.at("library").instruction, MmaInstruction::mma_sync);
  EXPECT_EQ(a100.kernel_profiles.at("library").tile_n, 256);
  EXPECT_EQ(a100.kernel_profiles.at("library").stages, 3);
  // The sm80 entries of the shared tilesim_ref profile.
  const KernelProfile& ours = a100.kernel_profiles.at("tilesim_ref");
  EXPECT_EQ(ours.tensor_efficiency, 0.70);
  EXPECT_EQ(ours.work_unit_overhead_s, 0);
  EXPECT_EQ(ours.fixup_loads_in_flight, 1);
}

TEST(ShippedHardware, H200DiffersFromH100InMemory) {
  const auto loaded = load_hardware_spec(kHwDir / "h200_sxm.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  EXPECT_EQ(loaded.value->hbm.capacity_bytes, 141e9);
  EXPECT_EQ(loaded.value->hbm.bandwidth_bytes_per_s, 4.8e12);
  EXPECT_EQ(loaded.value->l2.capacity_bytes, 60.0 * 1024 * 1024);  // what the device reports
  EXPECT_EQ(loaded.value->sm_mma_flops_per_s(DataType::bf16), 4096 * 1.98e9);
}

TEST(LoadHardware, ValidFixtureLoadsWithDefaults) {
  const auto loaded = load_text(kValid);
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  EXPECT_EQ(loaded.value->sm.tensor.fp8_flops_per_s, 0);  // optional, absent
  EXPECT_EQ(loaded.value->description, "");
  EXPECT_EQ(loaded.value->kernel_profiles.at("library").swizzle, 1);  // default
  EXPECT_EQ(loaded.value->kernel_profiles.at("library").cluster.size(), 1);
}

TEST(LoadHardware, SyntaxErrorIsOneDiagnosticWithPosition) {
  const auto loaded = load_text("name: x\nsm: {count: 132, clock: \"1980 MHz\"\nl2: {}\n");
  ASSERT_EQ(loaded.diagnostics.size(), 1u) << loaded.diagnostics.format();
  const config::Diagnostic& d = loaded.diagnostics.items()[0];
  EXPECT_EQ(d.where.line, 3);
  EXPECT_EQ(d.where.column, 1);
  EXPECT_EQ(d.key_path, "");
  EXPECT_EQ(d.message, "YAML syntax error: end of map flow not found");
}

TEST(LoadHardware, MissingFile) {
  const auto loaded = load_hardware_spec("/nonexistent/dir/hw.yaml");
  ASSERT_EQ(loaded.diagnostics.size(), 1u);
  EXPECT_EQ(loaded.diagnostics.format(), "/nonexistent/dir/hw.yaml: error: cannot open file\n");
}

TEST(LoadHardware, EmptyFile) {
  const auto loaded = load_text("# nothing here\n");
  ASSERT_EQ(loaded.diagnostics.size(), 1u);
  EXPECT_NE(loaded.diagnostics.items()[0].message.find("file is empty"), std::string::npos);
}

TEST(LoadHardware, UnknownKeyWithSuggestion) {
  const std::string line = "  clokc: \"1980 MHz\"";
  const auto d = problems_with_line(4, line);
  EXPECT_TRUE(
      HasDiagnostic(d, 4, 3, "sm.clokc",
                    "unknown key `clokc`; did you mean `clock`? allowed keys: count, clock, "
                    "power_limited_clock, tensor, fp32, sfu, shared_memory, registers"));
  // The clock is then missing; per-clock values do not add errors of their own.
  EXPECT_TRUE(HasDiagnostic(d, 3, 3, "sm.clock", "missing required key"));
  EXPECT_EQ(d.size(), 2u) << d.format();
}

TEST(LoadHardware, UnknownKeyWithoutSuggestion) {
  const auto d = problems_with_line(1, "name: test_gpu\nfrobnicate: 3");
  EXPECT_TRUE(HasDiagnostic(d, 2, 1, "frobnicate",
                            "unknown key `frobnicate`; allowed keys: name, description, "
                            "architecture, sm, l2, hbm, launch, power, kernels"));
  EXPECT_EQ(d.size(), 1u) << d.format();
}

TEST(LoadHardware, MissingKey) {
  const auto d = problems_with_line(10, "");  // sfu
  ASSERT_EQ(d.size(), 1u) << d.format();
  EXPECT_TRUE(HasDiagnostic(d, 3, 3, "sm.sfu",
                            "missing required key; expected an op rate from 0.1 Gop/s to 10 Top/s, "
                            "e.g. \"16 op/clk\" (Special-function results (exp2, rcp) per "
                            "second, one SM)"));
}

TEST(LoadHardware, MissingSection) {
  const auto d = problems_with_line(20, "");  // hbm
  ASSERT_EQ(d.size(), 1u) << d.format();
  EXPECT_TRUE(HasDiagnostic(d, 1, 1, "hbm",
                            "missing required map; expected a map with keys capacity, bandwidth, "
                            "efficiency, latency"));
}

TEST(LoadHardware, WrongUnitKind) {
  const std::string line = R"(l2: {capacity: "50 MHz", bandwidth: "7.3 TB/s", latency: "260 clk"})";
  const auto d = problems_with_line(19, line);
  ASSERT_EQ(d.size(), 1u) << d.format();
  EXPECT_TRUE(HasDiagnostic(d, 19, column_of(line, "\"50 MHz\""), "l2.capacity",
                            "\"50 MHz\" is a frequency, expected a size; allowed units: B, KB"));
}

TEST(LoadHardware, MissingUnit) {
  const std::string line =
      R"(hbm: {capacity: "80 GB", bandwidth: 3.35, efficiency: 0.92, latency: "400 ns"})";
  const auto d = problems_with_line(20, line);
  ASSERT_EQ(d.size(), 1u) << d.format();
  EXPECT_TRUE(HasDiagnostic(d, 20, column_of(line, "3.35"), "hbm.bandwidth",
                            "unit missing: write e.g. \"3.35 TB/s\"; allowed units: B/s, KB/s"));
}

TEST(LoadHardware, UnknownUnitAndMalformedNumber) {
  const std::string line =
      R"(hbm: {capacity: "80 GB", bandwidth: "3.35 TB/sec", efficiency: 0.92, latency: "4..0 ns"})";
  const auto d = problems_with_line(20, line);
  EXPECT_TRUE(
      HasDiagnostic(d, 20, column_of(line, "\"3.35"), "hbm.bandwidth", "did you mean \"TB/s\"?"));
  EXPECT_TRUE(
      HasDiagnostic(d, 20, column_of(line, "\"4..0"), "hbm.latency", "malformed number \"4..0\""));
  EXPECT_EQ(d.size(), 2u) << d.format();
}

TEST(LoadHardware, ZeroNegativeAndAbsurdValues) {
  EXPECT_TRUE(HasDiagnostic(problems_with_line(3, "  count: 0"), 3, 10, "sm.count",
                            "must be > 0, got \"0\"; allowed: 1 to 1024"));
  EXPECT_TRUE(HasDiagnostic(problems_with_line(3, "  count: 100000"), 3, 10, "sm.count",
                            "\"100000\" is out of range; allowed: 1 to 1024"));
  const std::string hbm =
      R"(hbm: {capacity: "80 GB", bandwidth: "3350 TB/s", efficiency: 1.2, latency: "-400 ns"})";
  const auto d = problems_with_line(20, hbm);
  EXPECT_TRUE(HasDiagnostic(d, 20, column_of(hbm, "\"3350"), "hbm.bandwidth",
                            "\"3350 TB/s\" is out of range; allowed: 10 GB/s to 100 TB/s"));
  EXPECT_TRUE(HasDiagnostic(d, 20, column_of(hbm, "1.2"), "hbm.efficiency",
                            "\"1.2\" is out of range; allowed: > 0 and <= 1"));
  EXPECT_TRUE(HasDiagnostic(d, 20, column_of(hbm, "\"-400"), "hbm.latency",
                            "must be > 0, got \"-400 ns\"; allowed: 1 ns to 100 us"));
  EXPECT_EQ(d.size(), 3u) << d.format();
  // A per-clock value is judged after conversion, and the message shows it.
  EXPECT_TRUE(HasDiagnostic(problems_with_line(6, "    fp16: \"409600 flop/clk\""), 6, 11,
                            "sm.tensor.fp16",
                            "\"409600 flop/clk\" (= 811 TFLOP/s) is out of range; allowed: "
                            "1 GFLOP/s to 200 TFLOP/s"));
  const std::string zero =
      R"(hbm: {capacity: "80 GB", bandwidth: "3.35 TB/s", efficiency: 0, latency: "400 ns"})";
  EXPECT_TRUE(HasDiagnostic(problems_with_line(20, zero), 20, column_of(zero, "0, latency"),
                            "hbm.efficiency", "must be > 0, got \"0\""));
}

TEST(LoadHardware, WrongYamlTypes) {
  EXPECT_TRUE(HasDiagnostic(problems_with_line(3, "  count: [132]"), 3, 10, "sm.count",
                            "expected an integer from 1 to 1024, got a list"));
  EXPECT_TRUE(HasDiagnostic(problems_with_line(3, "  count: 132.5"), 3, 10, "sm.count",
                            "expected an integer, got \"132.5\""));
  EXPECT_TRUE(HasDiagnostic(problems_with_line(19, "l2: [50 MiB, 7.3 TB/s]"), 19, 5, "l2",
                            "expected a map with keys capacity, bandwidth, latency, "
                            "slice_bandwidth, reader_drift, partitions, got a list"));
  const auto kernels =
      load_text(replace_line(replace_line(kValid, 22, "kernels: [library]"), 23, ""));
  EXPECT_TRUE(HasDiagnostic(kernels.diagnostics, 22, 10, "kernels",
                            "expected a map of named entries, got a list"));
}

TEST(LoadHardware, ProfileNamesMustBeNames) {
  const auto d = problems_with_line(23, "  library: test_wgmma\n  my ref: test_wgmma");
  EXPECT_TRUE(HasDiagnostic(d, 24, 3, "kernels", "\"my ref\" is not a valid profile name"));
  EXPECT_EQ(d.size(), 1u) << d.format();
}

TEST(LoadHardware, LibraryProfileIsRequired) {
  const auto d = problems_with_line(23, "  mine: test_wgmma");
  ASSERT_EQ(d.size(), 1u) << d.format();
  EXPECT_TRUE(
      HasDiagnostic(d, 23, 3, "kernels.library", "missing required kernel profile `library`"));
}

TEST(LoadHardware, CrossFieldLimits) {
  const std::string line =
      R"(  shared_memory: {capacity: "228 KiB", per_cta_max: "228 KiB", reserved_per_cta: "1 KiB", bandwidth: "128 B/clk"})";
  const auto d = problems_with_line(11, line);
  ASSERT_EQ(d.size(), 1u) << d.format();
  EXPECT_TRUE(HasDiagnostic(d, 11, column_of(line, "\"228 KiB\", reserved"),
                            "sm.shared_memory.per_cta_max",
                            "\"228 KiB\" is more than sm.shared_memory.capacity (\"228 KiB\") once "
                            "reserved_per_cta is added"));
}

TEST(LoadHardware, DuplicateKey) {
  const auto d = problems_with_line(3, "  count: 132\n  count: 128");
  ASSERT_EQ(d.size(), 1u) << d.format();
  EXPECT_TRUE(HasDiagnostic(d, 4, 3, "sm.count", "duplicate key; first given on line 3"));
}

// One file with many problems: every one is reported, none hides another.
TEST(LoadHardware, SeveralProblemsAreAllReported) {
  std::string text = std::string(kValid);
  text = replace_line(text, 3, "  count: -5");
  text = replace_line(text, 9, "  fp32: \"256 flops/clk\"");
  text = replace_line(text, 12, "  registrs: 65536");
  const std::string l2 = R"(l2: {capacity: "50 MiB", bandwidth: "7.3 TB/s", latency: 260})";
  text = replace_line(text, 19, l2);
  text = replace_line(text, 21,
                      R"(launch: {host_issue: "4.5 us", latency: "3 us", graph_node: "0.9 us"})");
  const auto loaded = load_text(text);
  const auto& d = loaded.diagnostics;
  EXPECT_TRUE(HasDiagnostic(d, 3, 10, "sm.count", "must be > 0"));
  EXPECT_TRUE(HasDiagnostic(d, 9, 9, "sm.fp32", "did you mean \"flop/clk\"?"));
  EXPECT_TRUE(HasDiagnostic(d, 12, 3, "sm.registrs", "did you mean `registers`?"));
  EXPECT_TRUE(HasDiagnostic(d, 3, 3, "sm.registers", "missing required key"));
  EXPECT_TRUE(HasDiagnostic(d, 19, column_of(l2, "260"), "l2.latency", "unit missing"));
  EXPECT_TRUE(HasDiagnostic(d, 21, 9, "launch.cta_dispatch", "missing required key"));
  EXPECT_EQ(d.size(), 6u) << d.format();
  // And the text form is "file:line:col: error: key.path: message".
  EXPECT_NE(d.format().find(":3:10: error: sm.count: must be > 0, got \"-5\""), std::string::npos)
      << d.format();
}

TEST(Overrides, AreAppliedBeforeValidation) {
  const auto loaded = load_text(kValid, {{"hbm.bandwidth", "4.8 TB/s"},
                                         {"sm.count", "114"},
                                         {"sm.tensor.fp8", "8192 flop/clk"},
                                         {"kernels.library.tensor_efficiency", "0.9"},
                                         {"kernels.library.cluster.n", "2"}});
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  EXPECT_EQ(loaded.value->hbm.bandwidth_bytes_per_s, 4.8e12);
  EXPECT_EQ(loaded.value->sm.count, 114);
  EXPECT_EQ(loaded.value->sm_mma_flops_per_s(DataType::fp8), 8192 * 1.98e9);
  EXPECT_EQ(loaded.value->kernel_profiles.at("library").tensor_efficiency, 0.9);
  EXPECT_EQ(loaded.value->kernel_profiles.at("library").cluster.n, 2);
}

TEST(Overrides, UnknownKeysGetTheSameSuggestions) {
  const auto loaded = load_text(kValid, {{"hbm.bandwdth", "4.8 TB/s"},
                                         {"sm", "4"},
                                         {"sm.count.x", "4"},
                                         {"kernels.libary.swizzle", "4"},
                                         {"kernels.library.tile.q", "4"},
                                         {"kernels", "4"}});
  const auto& d = loaded.diagnostics;
  EXPECT_TRUE(HasDiagnostic(d, 0, 0, "hbm.bandwdth",
                            "unknown key `bandwdth`; did you mean `bandwidth`? allowed keys: "
                            "capacity, bandwidth, efficiency, latency"));
  EXPECT_TRUE(HasDiagnostic(d, 0, 0, "sm", "`sm` is a map; name one of its keys: count, clock"));
  EXPECT_TRUE(HasDiagnostic(d, 0, 0, "sm.count.x", "`sm.count` takes a single value"));
  EXPECT_TRUE(HasDiagnostic(d, 0, 0, "kernels.libary.swizzle",
                            "unknown key `libary`; did you mean `library`? allowed keys: library"));
  EXPECT_TRUE(HasDiagnostic(d, 0, 0, "kernels.library.tile.q", "unknown key `q`"));
  EXPECT_TRUE(HasDiagnostic(d, 0, 0, "kernels", "`kernels` maps names to kernel profiles"));
  EXPECT_EQ(d.size(), 6u) << d.format();
  for (const auto& item : d.items()) {
    EXPECT_EQ(item.where.file, "--set");
  }
  EXPECT_NE(d.format().find("--set: error: hbm.bandwdth: unknown key"), std::string::npos);
}

TEST(Overrides, BadValuesAreReportedAgainstSet) {
  const auto loaded = load_text(kValid, {{"hbm.bandwidth", "4.8 TB/z"}, {"sm.count", "0"}});
  const auto& d = loaded.diagnostics;
  EXPECT_TRUE(HasDiagnostic(d, 0, 0, "hbm.bandwidth", "unknown unit \"TB/z\""));
  EXPECT_TRUE(HasDiagnostic(d, 0, 0, "sm.count", "must be > 0"));
  EXPECT_EQ(d.size(), 2u) << d.format();
}

TEST(ResolveHardwarePath, NamesAndPaths) {
  const auto by_name = resolve_hardware_path("h100_sxm", TILESIM_CONFIG_DIR);
  ASSERT_TRUE(by_name.ok()) << by_name.diagnostics.format();
  EXPECT_EQ(*by_name.value, kHwDir / "h100_sxm.yaml");
  const auto by_path = resolve_hardware_path((kHwDir / "a100_sxm_80gb.yaml").string(), "/nowhere");
  ASSERT_TRUE(by_path.ok()) << by_path.diagnostics.format();
  const auto missing_path = resolve_hardware_path("/nowhere/gpu.yaml", TILESIM_CONFIG_DIR);
  EXPECT_FALSE(missing_path.ok());
  EXPECT_NE(missing_path.diagnostics.format().find("cannot open hardware file"), std::string::npos);
}

TEST(ResolveHardwarePath, UnknownNameListsTheAvailableOnes) {
  const config::SourceLocation where{"study.yaml", 1, 11};
  const auto loaded = resolve_hardware_path("h100_sx", TILESIM_CONFIG_DIR, where);
  ASSERT_FALSE(loaded.ok());
  EXPECT_TRUE(HasDiagnostic(loaded.diagnostics, 1, 11, "hardware",
                            "unknown hardware `h100_sx`; did you mean `h100_sxm`? available in"));
  EXPECT_NE(loaded.diagnostics.format().find(
                "a100_sxm_80gb, h100_sxm, h100_sxm.measured, h200_sxm, h200_sxm.measured"),
            std::string::npos);
}

}  // namespace
}  // namespace tilesim::hw
