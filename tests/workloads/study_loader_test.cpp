#include "workloads/study_loader.hpp"

#include <gtest/gtest.h>

#include "tests/hwmodels/config_test_support.hpp"

namespace tilesim::workloads {
namespace {

using tilesim::testing::column_of;
using tilesim::testing::HasDiagnostic;
using tilesim::testing::replace_line;
using tilesim::testing::write_temp_file;

const std::vector<std::string> kSchedules = {"data_parallel", "split_k", "stream_k", "auto",
                                             "compare"};

constexpr std::string_view kValid = R"(hardware: h100_sxm
workloads:
  - name: square_1536
    gemm: {m: 1536, n: 1536, k: 1536, dtype: bf16, out_dtype: bf16}
    schedule: stream_k
    tile: {m: 128, n: 128, k: 64, stages: 4, warps: 8, registers_per_thread: 128, swizzle: 8, cluster: {m: 1, n: 2}}
    kernel: tilesim_ref
    splits: 4
  - name: fp8_defaults
    gemm: {m: 16, n: 8192, k: 8192, dtype: fp8}
  - name: fp32_out
    gemm: {m: 1, n: 2147483648, k: 7, dtype: fp16, out_dtype: fp32}
    tile: {cluster: {n: 2}}
)";

config::Loaded<Study> load_text(std::string_view text) {
  const std::filesystem::path path = write_temp_file("study.yaml", text);
  auto loaded = load_study(path, kSchedules);
  for (const config::Diagnostic& item : loaded.diagnostics.items()) {
    EXPECT_EQ(item.where.file, path.string());
  }
  return loaded;
}

config::Diagnostics problems_with_line(int line, std::string_view replacement) {
  const auto loaded = load_text(replace_line(kValid, line, replacement));
  EXPECT_FALSE(loaded.ok());
  return loaded.diagnostics;
}

const GemmWorkload& gemm(const Study& study, std::size_t index) {
  return std::get<GemmWorkload>(study.workloads.at(index));
}

TEST(LoadStudy, ShippedQuickstartLoads) {
  const auto loaded = load_study(
      std::filesystem::path(TILESIM_CONFIG_DIR) / "studies" / "quickstart.yaml", kSchedules);
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  EXPECT_EQ(loaded.value->hardware, "h100_sxm");
  EXPECT_FALSE(loaded.value->workloads.empty());
}

TEST(LoadStudy, EveryFieldIsRead) {
  const auto loaded = load_text(kValid);
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  const Study& study = *loaded.value;
  EXPECT_EQ(study.hardware, "h100_sxm");
  EXPECT_EQ(study.hardware_location.line, 1);
  EXPECT_EQ(study.hardware_location.column, 11);
  ASSERT_EQ(study.workloads.size(), 3u);

  const GemmWorkload& first = gemm(study, 0);
  EXPECT_EQ(workload_name(study.workloads[0]), "square_1536");
  EXPECT_EQ(first.problem.m, 1536);
  EXPECT_EQ(first.problem.input_type, hw::DataType::bf16);
  EXPECT_EQ(first.problem.output_type, hw::DataType::bf16);
  EXPECT_EQ(first.schedule, "stream_k");
  EXPECT_EQ(first.kernel, "tilesim_ref");
  EXPECT_EQ(first.tile.m, 128);
  EXPECT_EQ(first.tile.k, 64);
  EXPECT_EQ(first.tile.stages, 4);
  EXPECT_EQ(first.tile.warps, 8);
  EXPECT_EQ(first.tile.registers_per_thread, 128);
  EXPECT_EQ(first.tile.swizzle, 8);
  ASSERT_TRUE(first.tile.cluster.has_value());
  EXPECT_EQ(first.tile.cluster->m, 1);
  EXPECT_EQ(first.tile.cluster->n, 2);
  EXPECT_EQ(first.splits, 4);
  EXPECT_EQ(first.where.line, 3);
  EXPECT_EQ(first.where.column, 5);
  EXPECT_EQ(first.kernel_where.line, 7);
  EXPECT_EQ(first.kernel_where.column, 13);

  const GemmWorkload& second = gemm(study, 1);
  EXPECT_EQ(second.problem.input_type, hw::DataType::fp8);
  EXPECT_EQ(second.problem.output_type, hw::DataType::bf16);  // fp8 writes bf16 by default
  EXPECT_EQ(second.schedule, "data_parallel");
  EXPECT_EQ(second.kernel, "library");
  EXPECT_EQ(second.kernel_where.line, 9);  // no `kernel:`: the entry
  EXPECT_FALSE(second.tile.m.has_value());
  EXPECT_FALSE(second.tile.cluster.has_value());
  EXPECT_FALSE(second.splits.has_value());

  const GemmWorkload& third = gemm(study, 2);
  EXPECT_EQ(third.problem.n, 2147483648);
  EXPECT_EQ(third.problem.output_type, hw::DataType::fp32);
  ASSERT_TRUE(third.tile.cluster.has_value());
  EXPECT_EQ(third.tile.cluster->m, 1);  // the unset half of a cluster is 1
  EXPECT_EQ(third.tile.cluster->n, 2);
}

// Attention entries are read by workloads/attention (tests/workloads/attention).
TEST(LoadStudy, AttentionEntriesAreReadAsAttention) {
  const std::string text = std::string(kValid) +
                           "  - name: prefill\n"
                           "    attention: {batch: 1, heads: 32, q_len: 4096, kv_len: 4096}\n"
                           "    variant: flash\n";
  const auto loaded = load_text(text);
  ASSERT_EQ(loaded.diagnostics.size(), 1u) << loaded.diagnostics.format();
  EXPECT_TRUE(
      HasDiagnostic(loaded.diagnostics, 15, 16, "workloads[3].attention.head_dim", "missing"));
}

TEST(LoadStudy, RootProblems) {
  EXPECT_TRUE(HasDiagnostic(problems_with_line(1, "hardwre: h100_sxm"), 1, 1, "hardwre",
                            "unknown key `hardwre`; did you mean `hardware`? allowed keys: "
                            "hardware, workloads"));
  const auto missing = load_text("workloads: []\n");
  EXPECT_TRUE(HasDiagnostic(missing.diagnostics, 1, 1, "hardware", "missing required key"));
  EXPECT_TRUE(
      HasDiagnostic(missing.diagnostics, 1, 12, "workloads", "must not be empty; expected a list"));
  const auto not_list = load_text("hardware: h100_sxm\nworkloads: {name: a}\n");
  EXPECT_TRUE(
      HasDiagnostic(not_list.diagnostics, 2, 12, "workloads", "expected a list, got a map"));
}

TEST(LoadStudy, GemmValueProblems) {
  const std::string line = "    gemm: {m: 0, n: 2147483649, k: -3, dtype: bf61, out_dtype: fp4}";
  const auto d = problems_with_line(4, line);
  EXPECT_TRUE(HasDiagnostic(d, 4, column_of(line, "0,"), "workloads[0].gemm.m",
                            "must be > 0, got \"0\"; allowed: 1 to 2147483648"));
  EXPECT_TRUE(
      HasDiagnostic(d, 4, column_of(line, "2147483649"), "workloads[0].gemm.n", "is out of range"));
  EXPECT_TRUE(HasDiagnostic(d, 4, column_of(line, "-3"), "workloads[0].gemm.k", "must be > 0"));
  EXPECT_TRUE(HasDiagnostic(d, 4, column_of(line, "bf61"), "workloads[0].gemm.dtype",
                            "unknown value `bf61`; did you mean `bf16`? allowed: fp16, bf16, fp32, "
                            "tf32, fp8"));
  EXPECT_TRUE(HasDiagnostic(d, 4, column_of(line, "fp4"), "workloads[0].gemm.out_dtype",
                            "unknown value `fp4`"));
  EXPECT_EQ(d.size(), 5u) << d.format();
}

TEST(LoadStudy, ScheduleKernelSplitsProblems) {
  EXPECT_TRUE(HasDiagnostic(problems_with_line(5, "    schedule: streamk"), 5, 15,
                            "workloads[0].schedule",
                            "unknown value `streamk`; did you mean `stream_k`? allowed: "
                            "data_parallel, split_k, stream_k, auto, compare"));
  EXPECT_TRUE(HasDiagnostic(problems_with_line(7, "    kernel: [library]"), 7, 13,
                            "workloads[0].kernel", "got a list"));
  EXPECT_TRUE(HasDiagnostic(problems_with_line(8, "    splits: 5000"), 8, 13, "workloads[0].splits",
                            "\"5000\" is out of range; allowed: 1 to 4096"));
}

TEST(LoadStudy, PersistentIsADataParallelChoice) {
  EXPECT_TRUE(HasDiagnostic(problems_with_line(8, "    persistent: yes"), 8, 17,
                            "workloads[0].persistent",
                            "unknown value `yes`; allowed: true, false"));
  EXPECT_TRUE(HasDiagnostic(problems_with_line(8, "    persistent: true"), 8, 17,
                            "workloads[0].persistent",
                            "`persistent: true` applies to schedule data_parallel only, not "
                            "`stream_k`"));
  const auto loaded = load_text(replace_line(kValid, 5, "    persistent: true"));
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  EXPECT_TRUE(gemm(*loaded.value, 0).persistent);
  EXPECT_FALSE(gemm(*loaded.value, 1).persistent);
}

TEST(LoadStudy, TileProblems) {
  const std::string line =
      "    tile: {m: 100, n: 1024, k: 4, stages: 17, warps: 0, registers_per_thread: 128, "
      "swizzle: 8, cluster: {m: 1, q: 2}}";
  const auto d = problems_with_line(6, line);
  EXPECT_TRUE(HasDiagnostic(d, 6, column_of(line, "100"), "workloads[0].tile.m",
                            "must be a multiple of 16, got 100"));
  EXPECT_TRUE(HasDiagnostic(d, 6, column_of(line, "1024"), "workloads[0].tile.n",
                            "\"1024\" is out of range; allowed: 16 to 512"));
  EXPECT_TRUE(HasDiagnostic(d, 6, column_of(line, "4, stages"), "workloads[0].tile.k",
                            "must be a multiple of 8, got 4"));
  EXPECT_TRUE(
      HasDiagnostic(d, 6, column_of(line, "17"), "workloads[0].tile.stages", "allowed: 1 to 16"));
  EXPECT_TRUE(
      HasDiagnostic(d, 6, column_of(line, "0, reg"), "workloads[0].tile.warps", "must be > 0"));
  EXPECT_TRUE(HasDiagnostic(d, 6, column_of(line, "q: 2"), "workloads[0].tile.cluster.q",
                            "unknown key `q`; allowed keys: m, n"));
  EXPECT_EQ(d.size(), 6u) << d.format();
}

TEST(LoadStudy, EntryProblems) {
  // Misspelt key, missing gemm, duplicate name, an entry that is not a map: all at once.
  const std::string text = R"(hardware: h100_sxm
workloads:
  - name: a
    gemm: {m: 1, n: 1, k: 1, dtype: bf16}
    shedule: split_k
  - name: b
  - name: a
    gemm: {m: 1, n: 1, k: 1, dtype: bf16}
  - just_a_name
  - name: "bad name!"
    gemm: {m: 1, n: 1, k: 1}
)";
  const auto loaded = load_text(text);
  const auto& d = loaded.diagnostics;
  EXPECT_TRUE(HasDiagnostic(d, 5, 5, "workloads[0].shedule",
                            "unknown key `shedule`; did you mean `schedule`?"));
  EXPECT_TRUE(HasDiagnostic(d, 6, 5, "workloads[1].gemm",
                            "missing required map; expected a map with keys m, n, k, dtype, "
                            "out_dtype"));
  EXPECT_TRUE(HasDiagnostic(d, 7, 11, "workloads[2].name",
                            "duplicate workload name `a`; first used on line 3"));
  EXPECT_TRUE(HasDiagnostic(
      d, 9, 5, "workloads[3]",
      "expected a map with keys name, gemm, schedule, persistent, kernel, tile, splits, "
      "reduction, "
      "stream_k_mode, fixup, "
      "got \"just_a_name\""));
  EXPECT_TRUE(HasDiagnostic(d, 10, 11, "workloads[4].name", "is not a valid name"));
  EXPECT_TRUE(HasDiagnostic(d, 11, 11, "workloads[4].gemm.dtype", "missing required key"));
  EXPECT_EQ(d.size(), 6u) << d.format();
}

TEST(LoadStudy, SyntaxErrorAndMissingFile) {
  const auto syntax = load_text("hardware: h100_sxm\nworkloads:\n  - name: [a\n");
  ASSERT_EQ(syntax.diagnostics.size(), 1u) << syntax.diagnostics.format();
  EXPECT_NE(syntax.diagnostics.items()[0].message.find("YAML syntax error"), std::string::npos);
  EXPECT_GT(syntax.diagnostics.items()[0].where.line, 0);

  const auto missing = load_study("/nonexistent/study.yaml", kSchedules);
  EXPECT_EQ(missing.diagnostics.format(), "/nonexistent/study.yaml: error: cannot open file\n");
}

TEST(LoadStudy, WithoutScheduleRegistryAnyScheduleNameIsKept) {
  const auto loaded = load_study(write_temp_file("study.yaml", kValid), {});
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  EXPECT_EQ(gemm(*loaded.value, 0).schedule, "stream_k");
}

}  // namespace
}  // namespace tilesim::workloads
