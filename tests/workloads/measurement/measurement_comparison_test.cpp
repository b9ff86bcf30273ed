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

std::vector<MeasuredAttention> attention_rows(const std::string& body) {
  const auto loaded = read_measured_csv_text(
      "name,kernel,variant,batch,heads,kv_heads,q_len,kv_len,kv_lens,head_dim,causal,dtype,"
      "splits,page_size,time_us,host_enqueue_us\n" +
          body,
      "a.csv", schedules().names());
  EXPECT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  return loaded.ok() ? loaded.value->attention : std::vector<MeasuredAttention>{};
}

// An unfused row of many short sequences is host-bound: simulated on the host
// that enqueued its runs (64 sequences x (2 x 8 calls + a softmax) = 1088
// launches in 6 ms or 11 ms), the slower host takes the 5 ms longer and each
// row names its host; `hardware` ignores the measured hosts.
TEST(MeasurementComparison, UnfusedRowsRunOnTheHostThatEnqueuedThem) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const std::string shape = "tilesim_ref,unfused,64,32,4,128,128,,128,false,bf16,,,9000,";
  const std::vector<MeasuredAttention> rows =
      attention_rows("fast," + shape + "6000\nslow," + shape + "11000\n");
  const auto measured = simulate_measured_attention(rows, spec, schedules(), HostDispatch::probe);
  ASSERT_TRUE(measured.ok()) << measured.diagnostics.format();
  ASSERT_EQ(measured.value->compared.size(), 2u);
  const double fast_us = measured.value->compared[0].predicted_us;
  const double slow_us = measured.value->compared[1].predicted_us;
  EXPECT_GE(fast_us, 0.99 * 6000.0);  // the run takes at least its host
  EXPECT_NEAR(slow_us - fast_us, 5000.0, 0.05 * 5000.0);
  EXPECT_EQ(measured.value->compared[0].note, "host 5.5 us a launch, measured");
  const auto file = simulate_measured_attention(rows, spec, schedules(), HostDispatch::hardware);
  ASSERT_TRUE(file.ok()) << file.diagnostics.format();
  EXPECT_DOUBLE_EQ(file.value->compared[0].predicted_us, file.value->compared[1].predicted_us);
  EXPECT_TRUE(file.value->compared[0].note.empty());
  // The launch and the cuBLAS call, scaled alike, cost the host what it measured.
  const hw::HardwareSpec host = attention_row_hardware(rows[0], spec, HostDispatch::probe);
  EXPECT_NEAR(1088 * host.launch.host_issue_s +
                  1024 * host.attention_profiles.at("tilesim_ref_unfused").gemm_call_host_s,
              6000e-6, 1e-9);
  EXPECT_NEAR(host.launch.host_issue_s / spec.launch.host_issue_s,
              host.attention_profiles.at("tilesim_ref_unfused").gemm_call_host_s /
                  spec.attention_profiles.at("tilesim_ref_unfused").gemm_call_host_s,
              1e-12);
}

}  // namespace
}  // namespace tilesim::workloads
