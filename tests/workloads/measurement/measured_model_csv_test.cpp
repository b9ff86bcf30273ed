#include "workloads/measurement/measured_model_csv.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tests/support/shipped_hardware.hpp"
#include "workloads/measurement/measurement_comparison.hpp"

namespace tilesim::workloads {
namespace {

const GemmScheduleRegistry& schedules() {
  static const GemmScheduleRegistry registry = builtin_gemm_schedules();
  return registry;
}

const std::string kHeader =
    "name,kind,split,phase,hidden,heads,kv_heads,head_dim,intermediate,layers,vocab,batch,"
    "tokens,context,dtype,fused,launch,time_us,dispatch_probe_us\n";

// A one-layer toy decode forward, launched `launch`, with the probe `probe_us`.
std::string row(const std::string& name, const std::string& launch, const std::string& probe_us) {
  return name + ",model,validation,decode,1024,8,2,128,2048,1,32000,4,,2048,bf16,framework," +
         launch + ",900," + probe_us + "\n";
}

std::vector<MeasuredModel> rows(const std::string& body) {
  const auto loaded = read_measured_model_csv_text(kHeader + body, "m.csv", schedules().names());
  EXPECT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  return loaded.ok() ? *loaded.value : std::vector<MeasuredModel>{};
}

TEST(MeasuredModelCsv, ReadsTheDispatchProbeAndLeavesAnEmptyCellUnset) {
  const std::vector<MeasuredModel> measured =
      rows(row("probed/eager", "eager", "21.5") + row("unprobed/eager", "eager", ""));
  ASSERT_EQ(measured.size(), 2u);
  ASSERT_TRUE(measured[0].dispatch_probe_us.has_value());
  EXPECT_DOUBLE_EQ(*measured[0].dispatch_probe_us, 21.5);
  EXPECT_FALSE(measured[1].dispatch_probe_us.has_value());
}

TEST(MeasuredModelCsv, RefusesAProbeThatIsNotAPositiveTime) {
  for (const std::string bad : {"0", "-3", "fast", "nan"}) {
    const auto loaded = read_measured_model_csv_text(kHeader + row("d/eager", "eager", bad),
                                                     "m.csv", schedules().names());
    ASSERT_FALSE(loaded.ok()) << bad;
    const std::string text = loaded.diagnostics.format();
    EXPECT_NE(text.find("m.csv:2:19: error: dispatch_probe_us: expected a positive number"),
              std::string::npos)
        << text;
  }
}

// An eager row runs on the host its probe measured (the probe less the CUDA
// launch the hardware file counts); `hardware` ignores the probe; a CUDA
// graph does not dispatch through the framework at all.
TEST(MeasuredModelComparison, EagerRowsRunOnTheHostTheirProbeMeasured) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const double host_issue_us = spec.launch.host_issue_s * 1e6;
  const std::vector<MeasuredModel> measured =
      rows(row("slow/eager", "eager", "40") + row("fast/eager", "eager", "15") +
           row("slow/cuda_graph", "cuda_graph", "40") + row("fast/cuda_graph", "cuda_graph", "15"));
  const auto probed = simulate_measured_models(measured, spec, schedules(), HostDispatch::probe);
  const auto file = simulate_measured_models(measured, spec, schedules(), HostDispatch::hardware);
  ASSERT_TRUE(probed.ok()) << probed.diagnostics.format();
  ASSERT_TRUE(file.ok()) << file.diagnostics.format();
  const std::vector<ComparedModel>& p = probed.value->compared;
  const std::vector<ComparedModel>& f = file.value->compared;
  ASSERT_EQ(p.size(), 4u);
  ASSERT_EQ(f.size(), 4u);

  ASSERT_TRUE(p[0].framework_dispatch_us.has_value());
  EXPECT_NEAR(*p[0].framework_dispatch_us, 40 - host_issue_us, 1e-9);
  EXPECT_NEAR(*p[1].framework_dispatch_us, 15 - host_issue_us, 1e-9);
  // A host-bound eager forward: every kernel pays the 25 us more.
  EXPECT_GT(p[0].predicted_us - p[1].predicted_us, 25.0 * 10);

  EXPECT_NEAR(*f[0].framework_dispatch_us, spec.launch.framework_dispatch_s * 1e6, 1e-9);
  EXPECT_DOUBLE_EQ(f[0].predicted_us, f[1].predicted_us);

  EXPECT_FALSE(p[2].framework_dispatch_us.has_value());
  EXPECT_DOUBLE_EQ(p[2].predicted_us, p[3].predicted_us);
  EXPECT_DOUBLE_EQ(p[2].predicted_us, f[2].predicted_us);
}

}  // namespace
}  // namespace tilesim::workloads
