// Shards' files merged give the result of one run: the same CSV bytes for any
// split; a file edited, cut short or of another split is refused at its line.

#include "app/report/sweep_shard_file.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/report/sweep_csv.hpp"
#include "workloads/study_runner.hpp"
#include "workloads/sweep/sweep_loader.hpp"

namespace tilesim::report {
namespace {

// Three points x (data_parallel, compare): one row, then one per candidate
// (six), so that rows per job vary.
constexpr std::string_view kSweep = R"(hardware: h100_sxm
workload: {gemm: {m: 256, n: 256, k: 1024, dtype: bf16}, tile: {m: 128, n: 128, k: 64}}
schedules: [data_parallel, compare]
vary:
  - key: gemm.n
    values: [256, 512, 768]
)";
constexpr std::string_view kFingerprint = "0123456789abcdef";

workloads::SweepSpec sweep_spec() {
  workloads::SweepLoadOptions options;
  options.config_dir = TILESIM_CONFIG_DIR;
  options.schedule_names = workloads::study_schedule_names(workloads::builtin_gemm_schedules());
  auto loaded = workloads::load_sweep_text(std::string(kSweep), "small.yaml", options);
  EXPECT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  return std::move(*loaded.value);
}

workloads::SweepResult run(const workloads::SweepSpec& spec) {
  auto ran = workloads::run_sweep(spec, workloads::builtin_gemm_schedules(), {});
  EXPECT_TRUE(ran.ok()) << ran.diagnostics.format();
  return std::move(*ran.value);
}

std::string shard_text(const workloads::SweepSpec& spec, workloads::SweepShard shard) {
  const workloads::SweepSpec part = workloads::shard_spec(spec, shard);
  const workloads::SweepResult result = run(part);
  return sweep_csv(part, result, JobColumn::yes) +
         shard_closing_line(shard, std::string(kFingerprint), part.jobs.size(), result.runs.size());
}

class SweepShardFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           (std::string("tilesim_sweep_shard_test_") +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // The files of all shards of N, their paths in reverse order.
  std::vector<std::string> write_shards(std::size_t count) const {
    std::vector<std::string> paths;
    for (std::size_t index = count; index-- > 0;) {
      paths.push_back(
          write(fmt::format("shard{}of{}.csv", index, count), shard_text(spec_, {index, count})));
    }
    return paths;
  }
  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::string merge_problems(const std::vector<std::string>& paths) const {
    const auto merged = merge_sweep_shards(spec_, std::string(kFingerprint), paths);
    EXPECT_FALSE(merged.ok());
    return merged.diagnostics.format();
  }

  workloads::SweepSpec spec_ = sweep_spec();
  std::filesystem::path dir_;
};

TEST_F(SweepShardFileTest, AnySplitMergesToTheBytesOfOneRun) {
  const std::string whole = sweep_csv(spec_, run(spec_));
  for (const std::size_t count : {1u, 2u, 4u, 6u, 9u}) {
    const auto merged = merge_sweep_shards(spec_, std::string(kFingerprint), write_shards(count));
    ASSERT_TRUE(merged.ok()) << count << ": " << merged.diagnostics.format();
    EXPECT_EQ(sweep_csv(spec_, *merged.value), whole) << count << " shards";
  }
}

TEST_F(SweepShardFileTest, AShardFileIsACsvWithJobNumbersAndAClosingLine) {
  const std::string text = shard_text(spec_, {1, 2});
  EXPECT_TRUE(text.starts_with("job,gemm.n,name,kind,schedule,")) << text;
  EXPECT_NE(text.find("\n1,256,point/data_parallel,gemm,data_parallel,"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\n3,512,point/split_k:serial:splits=16,"), std::string::npos) << text;
  EXPECT_TRUE(
      text.ends_with("\n# tilesim sweep shard 1/2 of sweep 0123456789abcdef: 3 jobs, "
                     "18 rows\n"))
      << text;
}

TEST_F(SweepShardFileTest, ARowMovedIsReportedAtItsLine) {
  std::vector<std::string> paths = write_shards(2);
  std::string text = shard_text(spec_, {0, 2});
  // Lines 2 and 3 are jobs 0 and 2: swap them.
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  std::swap(lines[1], lines[2]);
  std::string swapped;
  for (const std::string& line : lines) swapped += line + "\n";
  paths[1] = write("swapped.csv", swapped);
  const std::string problems = merge_problems(paths);
  EXPECT_NE(problems.find("swapped.csv:2:1: error: job: 2: expected job 0: shard 0/2 holds the "
                          "sweep's jobs 0, 2, 4, ... in order"),
            std::string::npos)
      << problems;
}

TEST_F(SweepShardFileTest, AnEditedClosingLineIsRefused) {
  std::vector<std::string> paths = write_shards(2);
  std::string text = shard_text(spec_, {0, 2});
  text.replace(text.find(": 3 jobs"), 8, ": 4 jobs");
  paths[1] = write("edited.csv", text);
  const std::string problems = merge_problems(paths);
  EXPECT_NE(problems.find("counts 4 jobs and 3 rows, but shard 0/2 of this sweep has 3 jobs"),
            std::string::npos)
      << problems;
}

TEST_F(SweepShardFileTest, ARowOfAnotherPointIsRefused) {
  std::vector<std::string> paths = write_shards(2);
  std::string text = shard_text(spec_, {0, 2});
  text.replace(text.find("\n2,512,"), 7, "\n2,768,");
  paths[1] = write("other_point.csv", text);
  const std::string problems = merge_problems(paths);
  EXPECT_NE(problems.find("other_point.csv:3:1: error: row: not a row of this sweep's job 2 "
                          "(point gemm.n = 512)"),
            std::string::npos)
      << problems;
}

TEST_F(SweepShardFileTest, EveryFilesProblemIsReportedAtOnce) {
  const std::vector<std::string> paths = {
      write("empty.csv", ""), write("torn.csv", "job,gemm.n\n0,256"),
      write("whole.csv", sweep_csv(spec_, run(spec_))), (dir_ / "missing.csv").string()};
  const std::string problems = merge_problems(paths);
  EXPECT_NE(problems.find("empty.csv:1:1: error: empty file"), std::string::npos) << problems;
  EXPECT_NE(problems.find("torn.csv:2:1: error: cut short: the last line has no line end"),
            std::string::npos)
      << problems;
  EXPECT_NE(problems.find("whole.csv:1:1: error: not a shard's file"), std::string::npos)
      << problems;
  EXPECT_NE(problems.find("missing.csv: error: cannot read file"), std::string::npos) << problems;
}

}  // namespace
}  // namespace tilesim::report
