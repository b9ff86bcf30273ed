#include "workloads/measurement/measured_csv.hpp"

#include <gtest/gtest.h>

#include <string>

namespace tilesim::workloads {
namespace {

const std::vector<std::string> kSchedules = {"data_parallel", "split_k", "stream_k"};

const std::string kHeader =
    "name,kernel,schedule,m,n,k,dtype,tile_m,tile_n,tile_k,splits,time_us,time_us_min,time_us_p90,"
    "out_dtype,reduction,stream_k_mode,fixup,warps,stages,swizzle\n";

config::Loaded<MeasuredRows> read(const std::string& text) {
  return read_measured_csv_text(text, "m.csv", kSchedules);
}

std::string first_problem(const config::Loaded<MeasuredRows>& loaded) {
  return loaded.diagnostics.empty() ? "" : loaded.diagnostics.format();
}

TEST(MeasuredCsv, ReadsEveryWorkloadFieldOfARow) {
  const auto loaded = read(
      kHeader +
      "lib,library,data_parallel,1536,1536,4096,bf16,,,,,30.272,27.840,47.782,bf16,,,,,,\n"
      "sk,tilesim_ref,stream_k,2560,1792,4096,bf16,256,128,64,,118.34,117.0,120.5,bf16,,pure,"
      "atomic,8,3,8\n"
      "\n"
      "spk,tilesim_ref,split_k,16,4096,4096,bf16,256,128,64,4,28.35,28.0,29.0,fp32,parallel,,,8,"
      "3,8\n");
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  EXPECT_TRUE(loaded.value->attention.empty());
  const std::vector<MeasuredGemm>& rows = loaded.value->gemms;
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].workload.kernel, "library");
  EXPECT_FALSE(rows[0].workload.tile.m.has_value());
  EXPECT_DOUBLE_EQ(rows[0].time_us, 30.272);
  EXPECT_DOUBLE_EQ(*rows[0].time_us_p90, 47.782);
  EXPECT_EQ(rows[0].line, 2);
  const GemmWorkload& sk = rows[1].workload;
  EXPECT_EQ(sk.schedule, "stream_k");
  EXPECT_EQ(sk.problem.m, 2560);
  EXPECT_EQ(*sk.tile.m, 256);
  EXPECT_EQ(*sk.tile.k, 64);
  EXPECT_EQ(*sk.tile.stages, 3);
  EXPECT_EQ(*sk.tile.warps, 8);
  EXPECT_EQ(*sk.tile.swizzle, 8);
  EXPECT_EQ(sk.stream_k_mode, StreamKMode::pure);
  EXPECT_EQ(sk.fixup, FixupOrder::atomic);
  const GemmWorkload& split = rows[2].workload;
  EXPECT_EQ(rows[2].line, 5);  // the blank line keeps the numbering
  EXPECT_EQ(*split.splits, 4);
  EXPECT_EQ(split.reduction, SplitKReduction::parallel);
  EXPECT_EQ(split.problem.output_type, hw::DataType::fp32);
}

TEST(MeasuredCsv, EmptyFileNamesTheColumnsItNeeds) {
  const auto loaded = read("");
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(first_problem(loaded),
            "m.csv:1:1: error: header: empty file; expected a header naming the columns, at least: "
            "name, kernel, schedule, m, n, k, dtype, time_us (GEMM rows) or name, kernel, variant, "
            "batch, heads, kv_heads, q_len, kv_len, kv_lens, head_dim, causal, dtype, splits, "
            "page_size, time_us (attention rows)\n");
}

TEST(MeasuredCsv, MissingColumn) {
  const auto loaded =
      read("name,kernel,schedule,m,n,k,dtype\nx,library,data_parallel,1,1,1,bf16\n");
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(first_problem(loaded).find("m.csv:1:1: error: header: missing column `time_us`"),
            std::string::npos)
      << first_problem(loaded);
}

TEST(MeasuredCsv, NotANumberIsReportedAtItsLineAndColumn) {
  const auto loaded = read(kHeader +
                           "a,library,data_parallel,12x,64,64,bf16,,,,,10,9,11,bf16,,,,,,\n"
                           "b,library,data_parallel,64,64,64,bf16,,,,,fast,9,11,bf16,,,,,,\n");
  ASSERT_FALSE(loaded.ok());
  const std::string problems = first_problem(loaded);
  EXPECT_NE(problems.find("m.csv:2:4: error: m: "), std::string::npos) << problems;
  EXPECT_NE(problems.find("\"12x\""), std::string::npos) << problems;
  EXPECT_NE(problems.find("m.csv:3:12: error: time_us: expected a positive number of "
                          "microseconds, got \"fast\""),
            std::string::npos)
      << problems;
}

TEST(MeasuredCsv, UnknownScheduleListsTheAllowedOnes) {
  const auto loaded =
      read(kHeader + "a,tilesim_ref,streamk,64,64,64,bf16,,,,,10,9,11,bf16,,,,,,\n");
  ASSERT_FALSE(loaded.ok());
  const std::string problems = first_problem(loaded);
  EXPECT_NE(problems.find("m.csv:2:3: error: schedule: "), std::string::npos) << problems;
  EXPECT_NE(problems.find("data_parallel, split_k, stream_k"), std::string::npos) << problems;
}

TEST(MeasuredCsv, RowWithTooFewFields) {
  const auto loaded = read(kHeader + "a,library,data_parallel,64\n");
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(first_problem(loaded).find("m.csv:2:1: error: row: 4 fields, but the header names 21"),
            std::string::npos)
      << first_problem(loaded);
}

TEST(MeasuredCsv, HeaderOnlyHasNoRows) {
  const auto loaded = read(kHeader);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(first_problem(loaded).find("no measured rows"), std::string::npos);
}

TEST(MeasuredCsv, MissingFile) {
  const auto loaded = read_measured_csv("/nonexistent/m.csv", kSchedules);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(first_problem(loaded).find("/nonexistent/m.csv: error"), std::string::npos)
      << first_problem(loaded);
}

}  // namespace
}  // namespace tilesim::workloads
