// A sweep's CSV read back gives the rows it was written from, and the journal
// resumes exactly where the progress file says, dropping what a kill tore.

#include "app/report/sweep_journal.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/report/sweep_csv.hpp"
#include "workloads/study_runner.hpp"
#include "workloads/sweep/sweep_loader.hpp"

namespace tilesim::report {
namespace {

// Two points x (data_parallel, compare): one row, then six with a `splits`
// column the first row lacks.
constexpr std::string_view kSweep = R"(hardware: h100_sxm
workload: {gemm: {m: 256, n: 256, k: 1024, dtype: bf16}, tile: {m: 128, n: 128, k: 64}}
schedules: [data_parallel, compare]
vary:
  - key: gemm.n
    values: [256, 512]
)";

workloads::SweepSpec sweep_spec() {
  workloads::SweepLoadOptions options;
  options.config_dir = TILESIM_CONFIG_DIR;
  options.schedule_names = workloads::study_schedule_names(workloads::builtin_gemm_schedules());
  auto loaded = workloads::load_sweep_text(std::string(kSweep), "small.yaml", options);
  EXPECT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  return std::move(*loaded.value);
}

std::vector<workloads::SweepJobRuns> run_jobs(const workloads::SweepSpec& spec) {
  std::vector<workloads::SweepJobRuns> jobs;
  workloads::SweepRunOptions options;
  options.on_job = [&jobs](workloads::SweepJobRuns&& job) { jobs.push_back(std::move(job)); };
  EXPECT_TRUE(workloads::run_sweep(spec, workloads::builtin_gemm_schedules(), options).ok());
  return jobs;
}

std::string read(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

class SweepJournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           (std::string("tilesim_sweep_journal_test_") +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string whole_csv() const {
    SweepCsvTable table(spec_);
    for (const workloads::SweepJobRuns& job : jobs_) {
      for (const workloads::RunSummary& run : job.runs) table.add(run, spec_.jobs[job.job]);
    }
    return table.text();
  }

  workloads::SweepSpec spec_ = sweep_spec();
  std::vector<workloads::SweepJobRuns> jobs_ = run_jobs(spec_);
  std::filesystem::path dir_;
};

TEST_F(SweepJournalTest, TheCsvReadBackGivesTheSameRowsAndBytes) {
  const std::string text = whole_csv();
  std::vector<std::size_t> row_jobs;
  for (const workloads::SweepJobRuns& job : jobs_) {
    row_jobs.insert(row_jobs.end(), job.runs.size(), job.job);
  }
  const auto runs = SweepCsvTable::read(spec_, JobColumn::no, text, "x.csv", row_jobs);
  ASSERT_TRUE(runs.ok()) << runs.diagnostics.format();
  SweepCsvTable again(spec_);
  for (std::size_t row = 0; row < runs.value->size(); ++row) {
    again.add((*runs.value)[row], spec_.jobs[row_jobs[row]]);
  }
  EXPECT_EQ(again.text(), text);
}

TEST_F(SweepJournalTest, ARowOfAnotherPointIsNotReadBack) {
  const auto runs = SweepCsvTable::read(spec_, JobColumn::no, whole_csv(), "x.csv", {2});
  ASSERT_FALSE(runs.ok());
  EXPECT_EQ(runs.diagnostics.items().front().where.line, 2);
  EXPECT_NE(runs.diagnostics.format().find("not a row of this sweep's point gemm.n = 512"),
            std::string::npos)
      << runs.diagnostics.format();
}

TEST_F(SweepJournalTest, StoppedAfterTwoJobsResumesWithThemAndFinishesTheSameBytes) {
  ASSERT_EQ(jobs_.size(), 4u);
  const std::filesystem::path csv = dir_ / "sweep.csv";
  {
    auto journal = SweepJournal::start(spec_, JobColumn::no, csv, "fingerprint");
    ASSERT_TRUE(journal.ok()) << journal.diagnostics.format();
    ASSERT_FALSE(journal.value->add(jobs_[0]));
    ASSERT_FALSE(journal.value->add(jobs_[1]));  // brings the `splits` column
    EXPECT_FALSE(std::filesystem::exists(csv));
  }
  // A kill tore the next row and its count.
  std::ofstream(dir_ / "sweep.csv.partial", std::ios::app) << "512,point,gemm,data_par";
  std::ofstream(dir_ / "sweep.csv.progress", std::ios::app) << "1";

  auto resumed = SweepJournal::resume(spec_, JobColumn::no, csv, "fingerprint");
  ASSERT_TRUE(resumed.ok()) << resumed.diagnostics.format();
  ASSERT_EQ(resumed.value->jobs_done(), 2u);
  EXPECT_EQ(resumed.value->done()[1].runs.size(), jobs_[1].runs.size());
  EXPECT_EQ(resumed.value->done()[1].series, jobs_[1].series);
  ASSERT_FALSE(resumed.value->add(jobs_[2]));
  ASSERT_FALSE(resumed.value->add(jobs_[3]));
  ASSERT_FALSE(resumed.value->finish());
  EXPECT_EQ(read(csv), whole_csv());
  EXPECT_FALSE(std::filesystem::exists(dir_ / "sweep.csv.partial"));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "sweep.csv.progress"));
}

TEST_F(SweepJournalTest, AnotherSweepsProgressIsNotResumed) {
  const std::filesystem::path csv = dir_ / "sweep.csv";
  auto journal = SweepJournal::start(spec_, JobColumn::no, csv, "fingerprint");
  ASSERT_TRUE(journal.ok());
  ASSERT_FALSE(journal.value->add(jobs_[0]));
  const auto resumed = SweepJournal::resume(spec_, JobColumn::no, csv, "another fingerprint");
  ASSERT_FALSE(resumed.ok());
  EXPECT_NE(resumed.diagnostics.format().find("not the progress of this sweep"), std::string::npos);
}

TEST_F(SweepJournalTest, WithoutProgressResumingStartsAfresh) {
  auto resumed = SweepJournal::resume(spec_, JobColumn::no, dir_ / "sweep.csv", "fingerprint");
  ASSERT_TRUE(resumed.ok()) << resumed.diagnostics.format();
  EXPECT_EQ(resumed.value->jobs_done(), 0u);
}

TEST(SweepFingerprint, DependsOnEveryInputAndTheirBoundaries) {
  EXPECT_EQ(sweep_fingerprint({"a", "b"}), sweep_fingerprint({"a", "b"}));
  EXPECT_NE(sweep_fingerprint({"a", "b"}), sweep_fingerprint({"ab", ""}));
  EXPECT_NE(sweep_fingerprint({"a", "b"}), sweep_fingerprint({"a", "c"}));
  EXPECT_EQ(sweep_fingerprint({}).size(), 16u);
}

}  // namespace
}  // namespace tilesim::report
