#include "workloads/sweep/sweep_runner.hpp"

#include <gtest/gtest.h>

#include "app/report/sweep_csv.hpp"
#include "workloads/study_runner.hpp"
#include "workloads/sweep/sweep_loader.hpp"

namespace tilesim::workloads {
namespace {

constexpr std::string_view kSmallSweep = R"(hardware: h100_sxm
workload:
  name: small
  gemm: {m: 256, n: 512, k: 512, dtype: bf16}
  tile: {m: 128, n: 128, k: 64}
vary:
  - key: gemm.m
    values: [128, 256, 384, 512, 640]
  - key: hw.hbm.bandwidth
    range: {from: "2 TB/s", to: "4 TB/s", step: "1 TB/s"}
)";

SweepSpec small_sweep() {
  SweepLoadOptions options;
  options.config_dir = TILESIM_CONFIG_DIR;
  options.schedule_names = study_schedule_names(builtin_gemm_schedules());
  auto loaded = load_sweep_text(std::string(kSmallSweep), "small.yaml", options);
  EXPECT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  return std::move(*loaded.value);
}

SweepResult run(const SweepSpec& spec, int threads) {
  SweepRunOptions options;
  options.threads = threads;
  auto result = run_sweep(spec, builtin_gemm_schedules(), options);
  EXPECT_TRUE(result.ok()) << result.diagnostics.format();
  return std::move(*result.value);
}

TEST(RunSweep, OneRunPerJobInGridOrder) {
  const SweepSpec spec = small_sweep();
  const SweepResult result = run(spec, 2);
  ASSERT_EQ(result.runs.size(), 15u);
  for (std::size_t i = 0; i < result.runs.size(); ++i) {
    EXPECT_EQ(result.run_points[i], i);
    EXPECT_EQ(result.run_series[i], "data_parallel");
    EXPECT_EQ(result.runs[i].name, "small");
  }
  // More bandwidth never makes the same GEMM slower; more rows never make it faster.
  EXPECT_GE(result.runs[0].time_us, result.runs[2].time_us);
  EXPECT_LE(result.runs[0].time_us, result.runs[12].time_us);
  EXPECT_EQ(result.jobs_done, 15u);
}

TEST(RunSweep, OutputIsTheSameBytesForAnyNumberOfThreads) {
  const SweepSpec spec = small_sweep();
  const std::string one = report::sweep_csv(spec, run(spec, 1));
  EXPECT_EQ(one, report::sweep_csv(spec, run(spec, 2)));
  EXPECT_EQ(one, report::sweep_csv(spec, run(spec, 7)));
  EXPECT_TRUE(one.starts_with("gemm.m,hw.hbm.bandwidth,name,kind,schedule,kernel,m,n,k,"))
      << one.substr(0, 200);
  EXPECT_NE(one.find("\n384,3 TB/s,small,gemm,data_parallel,library,384,512,512,"),
            std::string::npos)
      << one;
}

TEST(RunSweep, ReportsProgressOncePerJob) {
  const SweepSpec spec = small_sweep();
  std::vector<std::size_t> seen;
  SweepRunOptions options;
  options.threads = 3;
  options.progress = [&seen](std::size_t done, std::size_t total) {
    EXPECT_EQ(total, 15u);
    seen.push_back(done);
  };
  ASSERT_TRUE(run_sweep(spec, builtin_gemm_schedules(), options).ok());
  ASSERT_EQ(seen.size(), 15u);
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], i + 1);
}

TEST(RunSweep, HandsJobsOnInJobOrderWhateverFinishesFirst) {
  const SweepSpec spec = small_sweep();
  std::vector<std::size_t> handed_on;
  SweepRunOptions options;
  options.threads = 4;
  options.on_job = [&handed_on](SweepJobRuns&& job) {
    ASSERT_EQ(job.runs.size(), 1u);
    handed_on.push_back(job.job);
  };
  ASSERT_TRUE(run_sweep(spec, builtin_gemm_schedules(), options).ok());
  ASSERT_EQ(handed_on.size(), 15u);
  for (std::size_t i = 0; i < handed_on.size(); ++i) EXPECT_EQ(handed_on[i], i);
}

TEST(RunSweep, AStopRequestEndsTheSweepAfterAPrefixOfJobs) {
  const SweepSpec spec = small_sweep();
  std::size_t asked = 0;
  SweepRunOptions options;
  options.threads = 3;
  options.stop_requested = [&asked] { return ++asked > 6; };  // six jobs start
  const auto result = run_sweep(spec, builtin_gemm_schedules(), options);
  ASSERT_TRUE(result.ok()) << result.diagnostics.format();
  EXPECT_EQ(result.value->jobs_done, 6u);
  ASSERT_EQ(result.value->runs.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(result.value->run_points[i], i);
}

TEST(RunSweep, StartingPastDoneJobsRunsOnlyTheRest) {
  const SweepSpec spec = small_sweep();
  const SweepResult whole = run(spec, 1);
  SweepRunOptions options;
  options.threads = 2;
  options.first_job = 10;
  const auto rest = run_sweep(spec, builtin_gemm_schedules(), options);
  ASSERT_TRUE(rest.ok()) << rest.diagnostics.format();
  EXPECT_EQ(rest.value->jobs_done, 15u);
  ASSERT_EQ(rest.value->runs.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(rest.value->run_points[i], 10 + i);
    EXPECT_EQ(rest.value->runs[i].time_us, whole.runs[10 + i].time_us);
  }
}

TEST(RunSweep, ASimulationOverItsEffortBudgetStopsTheSweepAtItsPoint) {
  const SweepSpec spec = small_sweep();
  SweepRunOptions options;
  options.threads = 2;
  options.max_effort_events = 10;  // no simulation gets this far
  const auto result = run_sweep(spec, builtin_gemm_schedules(), options);
  ASSERT_FALSE(result.ok());
  ASSERT_EQ(result.diagnostics.size(), 1u);
  const config::Diagnostic& problem = result.diagnostics.items().front();
  EXPECT_EQ(problem.key_path, "vary[0].values[0]");
  EXPECT_NE(problem.message.find("at gemm.m = 128"), std::string::npos) << problem.message;
  EXPECT_NE(problem.message.find("simulation stopped"), std::string::npos) << problem.message;
}

}  // namespace
}  // namespace tilesim::workloads
