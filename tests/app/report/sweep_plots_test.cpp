#include "app/report/sweep_plots.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "app/report/color_scale.hpp"
#include "app/report/plot_axis.hpp"
#include "tests/support/well_formed_xml.hpp"

namespace tilesim::report {
namespace {

using testing::IsWellFormedXml;

using workloads::SweepAxis;
using workloads::SweepResult;
using workloads::SweepSpec;

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t found = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1)) {
    ++found;
  }
  return found;
}

SweepAxis axis(std::string key, std::vector<std::string> values, bool numeric) {
  SweepAxis made;
  made.key = std::move(key);
  for (const std::string& value : values) {
    made.values.push_back({value, numeric ? std::optional(std::stod(value)) : std::nullopt, {}});
  }
  return made;
}

workloads::RunSummary run_taking(double time_us) {
  workloads::RunSummary run;
  run.time_us = time_us;
  run.tflops = 1e9 / (time_us * 1e-6) * 1e-12;
  return run;
}

// Runs of `series` schedules at every point, the time of each given by `time_us`.
SweepResult result_of(const SweepSpec& spec, const std::vector<std::string>& series,
                      double (*time_us)(std::size_t point, std::size_t series)) {
  SweepResult result;
  for (std::size_t point = 0; point < spec.point_count(); ++point) {
    for (std::size_t s = 0; s < series.size(); ++s) {
      result.runs.push_back(run_taking(time_us(point, s)));
      result.run_points.push_back(point);
      result.run_series.push_back(series[s]);
    }
  }
  return result;
}

TEST(SweepPlot, LineChartHasOnePolylinePerSchedule) {
  SweepSpec spec;
  spec.hardware_reference = "h100_sxm";
  spec.axes = {axis("gemm.m", {"256", "512", "1024", "2048", "8192"}, true)};
  const SweepResult result = result_of(
      spec, {"data_parallel", "stream_k", "split_k"}, [](std::size_t point, std::size_t series) {
        return 10.0 * static_cast<double>(point + 1) + static_cast<double>(series);
      });
  const std::string svg = sweep_plot_svg(spec, result);
  EXPECT_TRUE(IsWellFormedXml(svg)) << svg;
  EXPECT_EQ(count(svg, "<polyline"), 3u);
  EXPECT_EQ(count(svg, R"(<polyline class="stream_k")"), 1u);
  EXPECT_EQ(count(svg, "<circle"), 3u * 5u + 3u);  // markers and legend
  EXPECT_NE(svg.find("Predicted time vs gemm.m on h100_sxm"), std::string::npos);
  EXPECT_NE(svg.find("gemm.m, log scale"), std::string::npos);  // 32x span
  EXPECT_NE(svg.find(">time (us)<"), std::string::npos);
  // The same input, the same bytes.
  EXPECT_EQ(svg, sweep_plot_svg(spec, result));
}

TEST(SweepPlot, CategoriesAndEscapedNames) {
  SweepSpec spec;
  spec.hardware_reference = "gpu";
  spec.plot_y = workloads::PlotMetric::tflops;
  spec.plot_title = "A <title> & more";
  spec.axes = {axis("stream_k_mode", {"pure", "dp_one_tile", "two_tile"}, false)};
  const SweepResult result = result_of(spec, {"a&b"}, [](std::size_t point, std::size_t) {
    return 1.0 + static_cast<double>(point);
  });
  const std::string svg = sweep_plot_svg(spec, result);
  EXPECT_TRUE(IsWellFormedXml(svg)) << svg;
  EXPECT_EQ(count(svg, "<polyline"), 1u);
  EXPECT_NE(svg.find("A &lt;title&gt; &amp; more"), std::string::npos);
  EXPECT_NE(svg.find(">dp_one_tile<"), std::string::npos);
  EXPECT_NE(svg.find(">throughput (TFLOP/s)<"), std::string::npos);
}

TEST(SweepPlot, TwoKeysAndTwoSchedulesGiveASpeedupHeatMap) {
  SweepSpec spec;
  spec.hardware_reference = "h100_sxm";
  spec.axes = {axis("gemm.m", {"256", "512", "1024"}, true),
               axis("hw.l2.capacity", {"25 MiB", "50 MiB"}, false)};
  // The second schedule is twice as fast at the first point, half as fast at the last.
  const SweepResult result =
      result_of(spec, {"data_parallel", "stream_k"}, [](std::size_t point, std::size_t series) {
        if (series == 0) return 10.0;
        return point == 0 ? 5.0 : point == 5 ? 20.0 : 10.0;
      });
  const std::string svg = sweep_plot_svg(spec, result);
  EXPECT_TRUE(IsWellFormedXml(svg)) << svg;
  EXPECT_EQ(count(svg, "<polyline"), 0u);
  EXPECT_NE(svg.find("Speedup of stream_k over data_parallel on h100_sxm"), std::string::npos);
  EXPECT_NE(svg.find(">2.00<"), std::string::npos);
  EXPECT_NE(svg.find(">0.50<"), std::string::npos);
  EXPECT_NE(svg.find(">1.00<"), std::string::npos);
  // The neutral colour at 1.0, the ends of the scale at 2x and 0.5x.
  EXPECT_NE(svg.find(diverging_color(1.0, 2.0).hex()), std::string::npos);
  EXPECT_NE(svg.find(diverging_color(2.0, 2.0).hex()), std::string::npos);
  EXPECT_NE(svg.find(diverging_color(0.5, 2.0).hex()), std::string::npos);
}

TEST(SweepPlot, TwoKeysAndOneScheduleGiveAMetricHeatMap) {
  SweepSpec spec;
  spec.hardware_reference = "h100_sxm";
  spec.axes = {axis("gemm.m", {"256", "512"}, true), axis("gemm.k", {"64", "128"}, true)};
  const SweepResult result = result_of(spec, {"data_parallel"}, [](std::size_t point, std::size_t) {
    return 100.0 + static_cast<double>(point);
  });
  const std::string svg = sweep_plot_svg(spec, result);
  EXPECT_TRUE(IsWellFormedXml(svg)) << svg;
  EXPECT_NE(svg.find("Predicted time on h100_sxm"), std::string::npos);
  // Cells are labelled with their values: point 1 is m = 256, k = 128.
  for (const char* label : {">100<", ">101<", ">102<", ">103<"}) {
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  }
}

TEST(PlotAxis, NiceLinearTicks) {
  const PlotAxis axis = PlotAxis::linear(0.3, 9.2, true);
  EXPECT_EQ(axis.ticks(), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  EXPECT_EQ(axis.low(), 0);
  EXPECT_EQ(axis.high(), 10);
  const PlotAxis tenths = PlotAxis::linear(0.1, 0.5, false);
  EXPECT_EQ(tenths.ticks(), (std::vector<double>{0.1, 0.2, 0.3, 0.4, 0.5}));
}

TEST(PlotAxis, LogTicksAndPixels) {
  PlotAxis axis = PlotAxis::logarithmic(100, 10000);
  EXPECT_EQ(axis.ticks(), (std::vector<double>{100, 200, 500, 1000, 2000, 5000, 10000}));
  axis.set_pixels(0, 200);
  EXPECT_DOUBLE_EQ(axis.pixel(1000), 100);
  const PlotAxis wide = PlotAxis::logarithmic(1, 1e6);
  EXPECT_EQ(wide.ticks(), (std::vector<double>{1, 10, 100, 1000, 10000, 100000, 1e6}));
  EXPECT_EQ(tick_label(1024), "1024");
  EXPECT_EQ(tick_label(0.25), "0.25");
}

TEST(ColorScale, DivergingIsCentredOnOneAndLogSymmetric) {
  EXPECT_EQ(diverging_color(1.0, 3.0).hex(), "#f7f7f7");
  EXPECT_EQ(diverging_color(3.0, 3.0).hex(), "#2166ac");
  EXPECT_EQ(diverging_color(1 / 3.0, 3.0).hex(), "#b2182b");
  EXPECT_EQ(diverging_color(10.0, 3.0).hex(), "#2166ac");  // clamped
  EXPECT_EQ(sequential_color(0).hex(), "#440154");
  EXPECT_EQ(sequential_color(1).hex(), "#fde725");
  EXPECT_TRUE(sequential_color(0).is_dark());
  EXPECT_FALSE(sequential_color(1).is_dark());
}

}  // namespace
}  // namespace tilesim::report
