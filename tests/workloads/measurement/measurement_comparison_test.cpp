#include "workloads/measurement/measurement_comparison.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tests/support/shipped_hardware.hpp"

namespace tilesim::workloads {
namespace {

const GemmScheduleRegistry& schedules() {
  static const GemmScheduleRegistry registry = builtin_gemm_schedules();
  return registry;
}

std::vector<MeasuredGemm> rows(const std::string& body) {
  const auto loaded = read_measured_csv_text("name,kernel,schedule,m,n,k,dtype,time_us\n" + body,
                                             "m.csv", schedules().names());
  EXPECT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  return loaded.ok() ? loaded.value->gemms : std::vector<MeasuredGemm>{};
}

// A row over the budget is skipped at its line with the budget's message; the
// rows around it are still compared, in file order.
TEST(MeasurementComparison, SkipsTheRowOverTheBudgetAndComparesTheRest) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const auto compared =
      simulate_measured(rows("small,tilesim_ref,data_parallel,1024,1024,1024,bf16,20\n"
                             "huge,tilesim_ref,data_parallel,2147483648,1536,4096,bf16,12.5\n"
                             "other,tilesim_ref,data_parallel,2048,1024,1024,bf16,30\n"),
                        spec, schedules(), LibrarySchedule::choose);
  ASSERT_TRUE(compared.ok()) << compared.diagnostics.format();
  ASSERT_EQ(compared.value->compared.size(), 2u);
  EXPECT_EQ(compared.value->compared[0].measured.workload.name, "small");
  EXPECT_EQ(compared.value->compared[1].measured.workload.name, "other");
  EXPECT_GT(compared.value->compared[1].predicted_us, 0);
  ASSERT_EQ(compared.value->skipped.size(), 1u);
  const SkippedRow& skipped = compared.value->skipped.front();
  EXPECT_EQ(skipped.name, "huge");
  EXPECT_EQ(skipped.where.line, 3);
  EXPECT_NE(skipped.reason.find("above the budget of 1e+07"), std::string::npos) << skipped.reason;
  EXPECT_NE(skipped.reason.find("--max-events"), std::string::npos) << skipped.reason;
}

// The budget is the caller's: a tiny one skips every row, a larger one none.
TEST(MeasurementComparison, TheBudgetDecidesWhatIsSkipped) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const std::vector<MeasuredGemm> measured =
      rows("small,tilesim_ref,data_parallel,1024,1024,1024,bf16,20\n");
  const auto tiny = simulate_measured(measured, spec, schedules(), LibrarySchedule::choose, 10);
  ASSERT_TRUE(tiny.ok()) << tiny.diagnostics.format();
  EXPECT_TRUE(tiny.value->compared.empty());
  EXPECT_EQ(tiny.value->skipped.size(), 1u);
  const auto enough = simulate_measured(measured, spec, schedules(), LibrarySchedule::choose);
  ASSERT_TRUE(enough.ok()) << enough.diagnostics.format();
  EXPECT_EQ(enough.value->compared.size(), 1u);
  EXPECT_TRUE(enough.value->skipped.empty());
}

}  // namespace
}  // namespace tilesim::workloads
