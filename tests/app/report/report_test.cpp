// The report formats: determinism (same input, same bytes), the JSON contract
// of shared/DESIGN.md, and the Chrome trace's structure.

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "app/report/chrome_trace.hpp"
#include "app/report/csv_report.hpp"
#include "app/report/json_report.hpp"
#include "hwmodels/hardware_loader.hpp"
#include "tests/support/shipped_hardware.hpp"
#include "workloads/study_runner.hpp"

namespace tilesim::report {
namespace {

hw::HardwareSpec h100() {
  return testing::shipped_hardware("h100_sxm");
}

workloads::Study two_gemms() {
  workloads::Study study;
  study.source_path = "study.yaml";
  for (std::int64_t size : {1536, 3000}) {
    workloads::GemmWorkload gemm;
    gemm.name = "gemm_" + std::to_string(size);
    gemm.problem = {size, size, size, hw::DataType::bf16, hw::DataType::bf16};
    study.workloads.emplace_back(gemm);
  }
  return study;
}

StudyReport simulate(const hw::HardwareSpec& spec, bool trace) {
  gpu::SimulationOptions options;
  options.record_bandwidth = trace;
  auto runs = workloads::run_study(two_gemms(), spec, workloads::builtin_gemm_schedules(), options);
  EXPECT_TRUE(runs.ok()) << runs.diagnostics.format();
  return StudyReport{"study.yaml", "h100_sxm", &spec, std::move(*runs.value)};
}

TEST(Reports, SameInputGivesSameBytes) {
  const hw::HardwareSpec spec = h100();
  const StudyReport first = simulate(spec, true);
  const StudyReport second = simulate(spec, true);
  EXPECT_EQ(json_report(first).dump(), json_report(second).dump());
  EXPECT_EQ(chrome_trace(first)->dump(), chrome_trace(second)->dump());
  EXPECT_EQ(csv_report(first), csv_report(second));
}

TEST(Reports, JsonHasOneResultPerWorkloadWithTheContractKeys) {
  const hw::HardwareSpec spec = h100();
  const auto json = json_report(simulate(spec, false));
  ASSERT_EQ(json["results"].size(), 2u);
  for (const auto& result : json["results"]) {
    EXPECT_TRUE(result["name"].is_string());
    EXPECT_GT(result["time_us"].get<double>(), 0);
    EXPECT_EQ(result["schedule"], "data_parallel");
    EXPECT_GT(result["bytes"]["hbm_read"].get<double>(), 0);
    ASSERT_EQ(result["kernels"].size(), 1u);
    EXPECT_NEAR(result["kernels"][0]["time_us"].get<double>(), result["time_us"].get<double>(),
                1e-9);
  }
}

TEST(Reports, TraceHasASliceForEveryCtaOnNamedSlotTracks) {
  const hw::HardwareSpec spec = h100();
  const StudyReport report = simulate(spec, true);
  const auto trace = *chrome_trace(report);
  std::size_t cta_slices = 0;
  std::size_t counters = 0;
  std::set<std::pair<int, int>> named_tracks;
  std::set<std::pair<int, int>> used_tracks;
  for (const auto& event : trace["traceEvents"]) {
    const std::string phase = event["ph"];
    if (phase == "M" && event["name"] == "thread_name") {
      named_tracks.insert({event["pid"].get<int>(), event["tid"].get<int>()});
    } else if (phase == "X" && event["args"].contains("cta")) {
      ++cta_slices;
      used_tracks.insert({event["pid"].get<int>(), event["tid"].get<int>()});
      EXPECT_GE(event["dur"].get<double>(), 0);
    } else if (phase == "C") {
      ++counters;
    }
  }
  std::size_t ctas = 0;
  for (const auto& run : report.runs) ctas += run.result.ctas.size();
  EXPECT_EQ(cta_slices, ctas);
  EXPECT_GT(counters, 0u);
  for (const auto& track : used_tracks) EXPECT_TRUE(named_tracks.contains(track));
}

}  // namespace
TEST(Reports, ATraceOverItsEventLimitIsNotBuilt) {
  const hw::HardwareSpec spec = h100();
  const StudyReport report = simulate(spec, true);
  const std::size_t events = chrome_trace(report)->at("traceEvents").size();
  EXPECT_TRUE(chrome_trace(report, events).has_value());
  EXPECT_FALSE(chrome_trace(report, events / 2).has_value());
}

}  // namespace tilesim::report
