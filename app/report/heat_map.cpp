#include "app/report/heat_map.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "app/report/color_scale.hpp"
#include "app/report/plot_axis.hpp"
#include "app/report/svg_canvas.hpp"

namespace tilesim::report {

namespace {

constexpr double kGridWidthPx = 560;
constexpr double kGridHeightPx = 360;
constexpr double kTopPx = 54;
constexpr double kColorBarWidthPx = 16;
constexpr double kCharWidthPx = 6.5;  // of 11 px text, to size margins and rotate labels
constexpr int kColorBarSlices = 64;
constexpr const char* kMissingColor = "#dddddd";

struct Layout {
  double cell_width = 0;
  double cell_height = 0;
  double left = 0;  // of the grid
  double top = kTopPx;
  double grid_width = 0;
  double grid_height = 0;
  bool rotate_columns = false;
  double bottom_margin = 0;
  double width = 0;
  double height = 0;
};

double longest(const std::vector<std::string>& labels) {
  std::size_t size = 0;
  for (const std::string& label : labels) size = std::max(size, label.size());
  return static_cast<double>(size) * kCharWidthPx;
}

Layout layout(const HeatMap& map) {
  Layout at;
  const auto columns = static_cast<double>(std::max<std::size_t>(map.columns.size(), 1));
  const auto rows = static_cast<double>(std::max<std::size_t>(map.rows.size(), 1));
  at.cell_width = std::clamp(kGridWidthPx / columns, 12.0, 80.0);
  at.cell_height = std::clamp(kGridHeightPx / rows, 10.0, 36.0);
  at.grid_width = at.cell_width * columns;
  at.grid_height = at.cell_height * rows;
  at.left = std::max(90.0, longest(map.rows) + 48);
  at.rotate_columns = longest(map.columns) > at.cell_width - 4;
  at.bottom_margin = (at.rotate_columns ? longest(map.columns) * 0.75 + 24 : 24) + 32;
  at.width = at.left + at.grid_width + std::max(140.0, longest({map.value_label}) + 44);
  at.height = at.top + at.grid_height + at.bottom_margin;
  return at;
}

// Ratios with two decimals; metrics with four significant digits of the largest
// value, the same decimals in every cell.
int cell_decimals(const HeatMap& map) {
  if (map.scale == HeatScale::ratio) return 2;
  double largest = 0;
  for (const std::optional<double>& value : map.values) {
    if (value) largest = std::max(largest, std::abs(*value));
  }
  if (largest == 0) return 0;
  return std::clamp(3 - static_cast<int>(std::floor(std::log10(largest))), 0, 6);
}

// The colour of each value, and the scale's ends for the colour bar.
struct Coloring {
  HeatScale scale;
  double low = 0;
  double high = 1;
  double max_ratio = 1;

  RgbColor operator()(double value) const {
    if (scale == HeatScale::ratio) return diverging_color(value, max_ratio);
    return sequential_color(high > low ? (value - low) / (high - low) : 0.5);
  }
};

Coloring coloring(const HeatMap& map) {
  Coloring color{map.scale};
  bool first = true;
  for (const std::optional<double>& value : map.values) {
    if (!value) continue;
    color.low = first ? *value : std::min(color.low, *value);
    color.high = first ? *value : std::max(color.high, *value);
    if (*value > 0) color.max_ratio = std::max({color.max_ratio, *value, 1 / *value});
    first = false;
  }
  return color;
}

void draw_cells(SvgCanvas& canvas, const HeatMap& map, const Layout& at, const Coloring& color) {
  const bool labelled = at.cell_width >= 34 && at.cell_height >= 14;
  const int decimals = cell_decimals(map);
  for (std::size_t row = 0; row < map.rows.size(); ++row) {
    for (std::size_t column = 0; column < map.columns.size(); ++column) {
      const std::optional<double> value = map.values.at(row * map.columns.size() + column);
      const SvgPoint corner{
          at.left + static_cast<double>(column) * at.cell_width,
          at.top + at.grid_height - static_cast<double>(row + 1) * at.cell_height};
      const RgbColor fill = value ? color(*value) : RgbColor{};
      canvas.rect(corner, at.cell_width, at.cell_height, value ? fill.hex() : kMissingColor);
      if (!value || !labelled) continue;
      canvas.text({corner.x + at.cell_width / 2, corner.y + at.cell_height / 2},
                  fmt::format("{:.{}f}", *value, decimals),
                  {10, TextAnchor::middle, fill.is_dark() ? "#ffffff" : "#000000", false, 0}, true);
    }
  }
}

void draw_labels(SvgCanvas& canvas, const HeatMap& map, const Layout& at) {
  const TextStyle row_style{11, TextAnchor::end, "#333333", false, 0};
  for (std::size_t row = 0; row < map.rows.size(); ++row) {
    const double y = at.top + at.grid_height - (static_cast<double>(row) + 0.5) * at.cell_height;
    canvas.text({at.left - 6, y}, map.rows[row], row_style, true);
  }
  TextStyle column_style{11, TextAnchor::middle, "#333333", false, 0};
  if (at.rotate_columns) {
    column_style.anchor = TextAnchor::end;
    column_style.rotate_deg = -45;
  }
  for (std::size_t column = 0; column < map.columns.size(); ++column) {
    const double x = at.left + (static_cast<double>(column) + 0.5) * at.cell_width;
    canvas.text({x, at.top + at.grid_height + 16}, map.columns[column], column_style);
  }
  canvas.text({at.left + at.grid_width / 2, at.height - 14}, map.x_label,
              {13, TextAnchor::middle, "#000000", false, 0});
  canvas.text({18, at.top + at.grid_height / 2}, map.y_label,
              {13, TextAnchor::middle, "#000000", false, -90});
  canvas.text({at.width / 2, 28}, map.title, {15, TextAnchor::middle, "#000000", true, 0});
}

std::vector<double> color_bar_ticks(double low, double high, HeatScale scale) {
  if (scale == HeatScale::ratio) return {low, 1, high};
  return PlotAxis::linear_within(low, high).ticks();
}

void draw_color_bar(SvgCanvas& canvas, const HeatMap& map, const Layout& at,
                    const Coloring& color) {
  const bool ratio = map.scale == HeatScale::ratio;
  const double low = ratio ? 1 / color.max_ratio : color.low;
  const double high = ratio ? color.max_ratio : color.high;
  // Position on the bar from the bottom, 0 to 1; log scale for ratios.
  auto fraction_of = [&](double value) {
    if (high <= low) return 0.5;
    return ratio ? std::log(value / low) / std::log(high / low) : (value - low) / (high - low);
  };
  auto value_at = [&](double fraction) {
    return ratio ? low * std::pow(high / low, fraction) : low + (high - low) * fraction;
  };
  const double x = at.left + at.grid_width + 28;
  const double slice = at.grid_height / kColorBarSlices;
  for (int i = 0; i < kColorBarSlices; ++i) {
    // Slightly taller than a slice, so that no hairline gaps show between them.
    canvas.rect({x, at.top + at.grid_height - (i + 1) * slice}, kColorBarWidthPx, slice + 0.5,
                color(value_at((i + 0.5) / kColorBarSlices)).hex());
  }
  canvas.outlined_rect({x, at.top}, kColorBarWidthPx, at.grid_height, {"#333333", 1, ""});
  const TextStyle tick_style{11, TextAnchor::start, "#333333", false, 0};
  for (const double tick : color_bar_ticks(low, high, map.scale)) {
    const double y = at.top + at.grid_height - fraction_of(tick) * at.grid_height;
    canvas.line({x + kColorBarWidthPx, y}, {x + kColorBarWidthPx + 4, y}, {"#333333", 1, ""});
    const std::string label = ratio ? fmt::format("{:.2f}", tick) : tick_label(tick);
    canvas.text({x + kColorBarWidthPx + 7, y}, label, tick_style, true);
  }
  canvas.text({x, at.top - 8}, map.value_label, {11, TextAnchor::start, "#000000", false, 0});
}

}  // namespace

std::string render_heat_map(const HeatMap& map) {
  const Layout at = layout(map);
  const Coloring color = coloring(map);
  SvgCanvas canvas(at.width, at.height);
  draw_cells(canvas, map, at, color);
  draw_labels(canvas, map, at);
  draw_color_bar(canvas, map, at, color);
  return canvas.document();
}

}  // namespace tilesim::report
