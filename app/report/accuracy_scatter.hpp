#pragma once
// Predicted against measured time as an SVG: log-log axes over the same range,
// the y = x line with bands at +-10% and +-20%, and one colour per series
// (e.g. per schedule), so misses and their direction show at a glance. The
// marker tells kinds of rows apart (GEMM circles, attention squares).

#include <string>
#include <vector>

namespace tilesim::report {

enum class ScatterMarker { circle, square };

struct ScatterPoint {
  double measured_us = 0;
  double predicted_us = 0;
  std::string series;
  ScatterMarker marker = ScatterMarker::circle;  // one per series: its first point's
};

// Series are drawn and listed in order of first appearance.
std::string render_accuracy_scatter(const std::vector<ScatterPoint>& points,
                                    const std::string& title);

}  // namespace tilesim::report
