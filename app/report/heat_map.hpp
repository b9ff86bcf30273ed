#pragma once
// A heat map as an SVG document: a grid of cells coloured by value and labelled
// with it (when cells are large enough), row and column labels, a colour bar and
// a title. Values are either a metric (sequential colours) or a ratio such as a
// speedup (diverging colours centred on 1.0).

#include <optional>
#include <string>
#include <vector>

namespace tilesim::report {

enum class HeatScale {
  sequential,  // low to high
  ratio,       // around 1.0, log-symmetric
};

struct HeatMap {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::string value_label;                    // above the colour bar: "speedup", "time (us)"
  std::vector<std::string> columns;           // x, left to right
  std::vector<std::string> rows;              // y, bottom to top
  std::vector<std::optional<double>> values;  // rows x columns, row-major; none: no value
  HeatScale scale = HeatScale::sequential;
};

std::string render_heat_map(const HeatMap& map);

}  // namespace tilesim::report
