// The cost budget: estimates grow with the work a workload asks for, every
// run `compare` and `auto` would make counts, and a workload or a study over
// the budget is refused at its place in the file.

#include "workloads/workload_cost.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/support/shipped_hardware.hpp"
#include "workloads/study_loader.hpp"
#include "workloads/study_runner.hpp"

namespace tilesim::workloads {
namespace {

Study study_of(const std::string& workloads) {
  const GemmScheduleRegistry schedules = builtin_gemm_schedules();
  auto study = load_study_text("hardware: h100_sxm\nworkloads:\n" + workloads, "study.yaml",
                               study_schedule_names(schedules));
  EXPECT_TRUE(study.ok()) << study.diagnostics.format();
  return study.ok() ? *study.value : Study{};
}

double events_of(const std::string& workload) {
  const Study study = study_of(workload);
  auto cost = estimate_workload_cost(study.workloads.front(), testing::shipped_hardware("h100_sxm"),
                                     builtin_gemm_schedules());
  EXPECT_TRUE(cost.ok()) << cost.diagnostics.format();
  return cost.ok() ? cost.value->events() : 0;
}

constexpr const char* kGemm = "  - {name: g, gemm: {m: 8192, n: 8192, k: 4096, dtype: bf16}";

TEST(WorkloadCost, GrowsWithTheGrid) {
  const double small = events_of("  - {name: g, gemm: {m: 4096, n: 4096, k: 4096, dtype: bf16}}");
  const double large = events_of(std::string(kGemm) + "}");
  EXPECT_GT(large, 3.5 * small);
  EXPECT_LT(large, 4.5 * small);
}

TEST(WorkloadCost, CompareAndAutoCountEveryCandidate) {
  const double one = events_of(std::string(kGemm) + "}");
  EXPECT_GT(events_of(std::string(kGemm) + ", schedule: compare}"), 5 * one);
  EXPECT_GT(events_of(std::string(kGemm) + ", schedule: auto}"),
            events_of(std::string(kGemm) + ", schedule: compare}"));
  EXPECT_GT(events_of("  - {name: l, layer: {phase: decode, context: 1024, launch: compare}}"),
            1.9 * events_of("  - {name: l, layer: {phase: decode, context: 1024}}"));
}

TEST(WorkloadCost, AWorkloadThatCannotLowerSaysWhy) {
  const Study study = study_of(
      "  - {name: g, gemm: {m: 256, n: 256, k: 256, dtype: bf16}, tile: {m: 256, n: 256, k: 128, "
      "stages: 8}}");
  const auto cost = estimate_workload_cost(
      study.workloads.front(), testing::shipped_hardware("h100_sxm"), builtin_gemm_schedules());
  ASSERT_FALSE(cost.ok());
  EXPECT_NE(cost.diagnostics.format().find("shared memory"), std::string::npos);
}

TEST(StudyCost, WithinTheBudgetThereIsNothingToSay) {
  EXPECT_TRUE(check_study_cost(study_of(std::string(kGemm) + "}"),
                               testing::shipped_hardware("h100_sxm"), builtin_gemm_schedules(),
                               kDefaultMaxEvents)
                  .empty());
}

TEST(StudyCost, AWorkloadOverTheBudgetIsRefusedAtItsEntry) {
  const config::Diagnostics problems =
      check_study_cost(study_of("  - {name: a, gemm: {m: 64, n: 64, k: 64, dtype: bf16}}\n" +
                                std::string(kGemm) + "}"),
                       testing::shipped_hardware("h100_sxm"), builtin_gemm_schedules(), 10000);
  ASSERT_EQ(problems.size(), 1u) << problems.format();
  const config::Diagnostic& problem = problems.items().front();
  EXPECT_EQ(problem.key_path, "workloads[1].gemm");
  EXPECT_EQ(problem.where.line, 4);
  EXPECT_NE(problem.message.find("above the budget of 1e+04"), std::string::npos)
      << problem.message;
  EXPECT_NE(problem.message.find("--max-events"), std::string::npos);
}

TEST(StudyCost, WorkloadsThatFitAloneButNotTogetherAreRefusedOnceWhereTheyCross) {
  const double one = events_of(std::string(kGemm) + "}");
  std::string three;
  for (const char* name : {"a", "b", "c"}) {
    three +=
        fmt::format("  - {{name: {}, gemm: {{m: 8192, n: 8192, k: 4096, dtype: bf16}}}}\n", name);
  }
  const config::Diagnostics problems = check_study_cost(
      study_of(three), testing::shipped_hardware("h100_sxm"), builtin_gemm_schedules(), 2.5 * one);
  ASSERT_EQ(problems.size(), 1u) << problems.format();
  EXPECT_EQ(problems.items().front().key_path, "workloads[2].gemm");
  EXPECT_NE(problems.items().front().message.find("the study up to this workload"),
            std::string::npos);
}

}  // namespace
}  // namespace tilesim::workloads
