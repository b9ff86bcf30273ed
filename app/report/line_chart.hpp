#pragma once
// A line chart as an SVG document: one line with markers per series over shared
// x positions, a legend, axis labels and a title. A numeric x axis is drawn to
// scale, logarithmic when its values span more than 20x; otherwise the x
// positions are evenly spaced categories. The y axis starts at zero.

#include <optional>
#include <string>
#include <vector>

namespace tilesim::report {

struct LineSeries {
  std::string name;
  std::vector<std::optional<double>> y;  // one per x position; none: no point there
};

// A horizontal dashed line across the plot, e.g. a capacity.
struct LimitLine {
  double y = 0;
  std::string label;
};

struct LineChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<std::string> x_names;              // one per x position, for categories
  std::optional<std::vector<double>> x_numbers;  // set: a numeric x axis
  std::vector<LineSeries> series;
  std::optional<LimitLine> limit;  // drawn and labelled; the y axis reaches it
};

std::string render_line_chart(const LineChart& chart);

}  // namespace tilesim::report
