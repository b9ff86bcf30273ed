// The plain C++ half of `tilesim-measure calibrate`: microbenchmark results
// become hardware-file values, written into a copy of the base file that the
// hardware loader accepts.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "hwmodels/hardware_loader.hpp"
#include "kernels/microbench/hardware_yaml_rewrite.hpp"
#include "kernels/microbench/least_squares_slope.hpp"
#include "kernels/microbench/measured_hardware_fields.hpp"
#include "kernels/microbench/microbench_table.hpp"
#include "tests/support/shipped_hardware.hpp"

namespace tilesim::microbench {
namespace {

std::string shipped_text(const std::string& name) {
  std::ifstream file(std::filesystem::path(TILESIM_CONFIG_DIR) / "hw" / (name + ".yaml"));
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

MicrobenchResult result(std::string name, double value, std::string unit) {
  return {std::move(name), value, value, value, std::move(unit), 10, "test"};
}

TEST(LeastSquaresSlope, HandComputed) {
  // y = 2 + 0.75 x with noise that cancels: (0, 2.1), (4, 4.8), (8, 8.1), (12, 10.8) -> 0.735.
  EXPECT_NEAR(least_squares_slope({{0, 2.1}, {4, 4.8}, {8, 8.1}, {12, 10.8}}), 0.735, 1e-12);
}

TEST(MeasuredFields, ConvertsResultsToHardwareValues) {
  const hw::HardwareSpec base = testing::shipped_hardware("h100_sxm");
  const std::vector<MicrobenchResult> results = {
      result("sm_clock_under_load", 1799.6, "MHz"), result("l2_bandwidth", 7758, "GB/s"),
      result("hbm_read_bandwidth", 3044, "GB/s"),   result("l2_hit_latency", 145.1, "ns"),
      result("cta_dispatch_per_wave", -0.01, "us"),  // not positive: left out
  };
  const std::vector<MeasuredField> fields = measured_fields(results, base, "2026-11-21");
  ASSERT_EQ(fields.size(), 4u);
  EXPECT_EQ(fields[0].key_path, "sm.power_limited_clock");
  EXPECT_EQ(fields[0].value, "1800 MHz");
  EXPECT_EQ(fields[1].key_path, "l2.bandwidth");
  EXPECT_EQ(fields[1].value, "7.76 TB/s");
  EXPECT_EQ(fields[2].key_path, "l2.latency");
  EXPECT_EQ(fields[2].value, "145 ns");
  EXPECT_EQ(fields[3].key_path, "hbm.efficiency");
  EXPECT_EQ(fields[3].value, "3.044/3.35");
  EXPECT_NE(fields[3].comment.find("measured: hbm_read_bandwidth 3044 GB/s"), std::string::npos);
  EXPECT_NE(fields[3].comment.find("2026-11-21"), std::string::npos);
}

// A graph node of a real kernel writes memory: the storing kernels' slope is the
// node cost where it was measured; raw results from before it keep the empty one.
TEST(MeasuredFields, GraphNodeIsTheStoringKernelsSlopeWhenMeasured) {
  const hw::HardwareSpec base = testing::shipped_hardware("h200_sxm");
  const std::vector<MicrobenchResult> both = {result("graph_node", 0.531, "us"),
                                              result("graph_node_store", 0.784, "us")};
  const std::vector<MeasuredField> fields = measured_fields(both, base, "2026-11-28");
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields[0].key_path, "launch.graph_node");
  EXPECT_EQ(fields[0].value, "0.78 us");
  EXPECT_NE(fields[0].comment.find("measured: graph_node_store 0.784 us"), std::string::npos);

  const std::vector<MeasuredField> older =
      measured_fields({result("graph_node", 0.7785, "us")}, base, "2026-11-21");
  ASSERT_EQ(older.size(), 1u);
  EXPECT_EQ(older[0].value, "0.78 us");
  EXPECT_NE(older[0].comment.find("measured: graph_node 0.7785 us"), std::string::npos);
}

TEST(HardwareYamlRewrite, ReplacesValuesKeepsTheRestAndLoads) {
  const std::string base = shipped_text("h100_sxm");
  const std::vector<MeasuredField> fields = {
      {"l2.bandwidth", "7.76 TB/s", "measured: test"},
      {"launch.graph_node", "0.78 us", "measured: graph slope"},
      {"name", "h100_sxm.calibrated", "calibrated copy"},
  };
  const config::Loaded<std::string> text = rewrite_hardware_yaml(base, "h100_sxm.yaml", fields);
  ASSERT_TRUE(text.ok()) << text.diagnostics.format();
  EXPECT_NE(text.value->find("  bandwidth: 7.76 TB/s"), std::string::npos);
  EXPECT_NE(text.value->find("# measured: graph slope\n"), std::string::npos);
  EXPECT_EQ(text.value->find("0.9 us"), std::string::npos);  // the old graph_node value
  // Everything else is the base's, line for line.
  EXPECT_NE(text.value->find("  count: 132                            # datasheet"),
            std::string::npos);
  EXPECT_EQ(std::count(text.value->begin(), text.value->end(), '\n'),
            std::count(base.begin(), base.end(), '\n'));
  const std::filesystem::path written =
      std::filesystem::temp_directory_path() / "tilesim_calibration_yaml_test.yaml";
  std::ofstream(written) << *text.value;
  const config::Loaded<hw::HardwareSpec> spec =
      hw::load_hardware_spec(written, {}, TILESIM_CONFIG_DIR);
  ASSERT_TRUE(spec.ok()) << spec.diagnostics.format();
  EXPECT_EQ(spec.value->name, "h100_sxm.calibrated");
  EXPECT_DOUBLE_EQ(spec.value->l2.bandwidth_bytes_per_s, 7.76e12);
  EXPECT_NEAR(spec.value->launch.graph_node_s, 0.78e-6, 1e-15);
}

TEST(HardwareYamlRewrite, UnknownKeyIsAProblem) {
  const config::Loaded<std::string> text =
      rewrite_hardware_yaml(shipped_text("h100_sxm"), "h100_sxm.yaml",
                            {{"l2.bandwith", "1 TB/s", "x"}, {"sm", "1", "a map, not a scalar"}});
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.diagnostics.size(), 2u);
  EXPECT_NE(text.diagnostics.format().find("l2.bandwith: no scalar value"), std::string::npos);
}

TEST(MicrobenchTable, CsvQuotesTheMethod) {
  const std::string csv = microbench_csv({{"graph_node", 0.78, 0.7, 0.9, "us", 21, "a, \"b\""}});
  EXPECT_EQ(csv,
            "name,value,unit,lowest,highest,runs,method\n"
            "graph_node,0.78,us,0.7,0.9,21,\"a, \"\"b\"\"\"\n");
}

}  // namespace
}  // namespace tilesim::microbench
