#include "app/report/accuracy_scatter.hpp"

#include <gtest/gtest.h>

namespace tilesim::report {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(AccuracyScatter, PointsPerSeriesBandsAndSameBytesEveryTime) {
  const std::vector<ScatterPoint> points = {
      {10, 11, "data_parallel"}, {100, 80, "stream_k"}, {1000, 1000, "data_parallel"}};
  const std::string svg = render_accuracy_scatter(points, "t");
  EXPECT_EQ(svg, render_accuracy_scatter(points, "t"));
  EXPECT_NE(svg.find("data_parallel"), std::string::npos);
  EXPECT_NE(svg.find("stream_k"), std::string::npos);
  // 3 points + 2 legend markers.
  EXPECT_EQ(count(svg, "<circle"), 5u);
  // y = x, +-10% and +-20% lines, dashed bands among them.
  EXPECT_EQ(count(svg, "stroke-dasharray=\"5 3\""), 3u);  // two bands + legend
  EXPECT_EQ(count(svg, "stroke-dasharray=\"2 3\""), 3u);
  EXPECT_NE(svg.find("log scale"), std::string::npos);
}

}  // namespace
}  // namespace tilesim::report
