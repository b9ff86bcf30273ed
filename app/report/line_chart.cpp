#include "app/report/line_chart.hpp"

#include <algorithm>

#include "app/report/color_scale.hpp"
#include "app/report/plot_axis.hpp"
#include "app/report/svg_canvas.hpp"

namespace tilesim::report {

namespace {

constexpr double kPlotWidthPx = 490;
constexpr double kHeightPx = 460;
constexpr double kLeftPx = 80;
constexpr double kLegendPx = 64;    // right of the plot, before the series names
constexpr double kCharWidthPx = 7;  // of 12 px legend text, to make room for it
constexpr double kTopPx = 50;
constexpr double kBottomPx = 64;
constexpr double kInsetPx = 12;  // between the axes and the first and last point
constexpr double kLogSpan = 20;  // wider numeric spans get a log axis
constexpr std::size_t kMaxValueTicks = 12;

const SvgStroke kGrid{"#e5e5e5", 1, ""};
const SvgStroke kAxis{"#333333", 1, ""};

struct Frame {
  double left = kLeftPx;
  double right = kLeftPx + kPlotWidthPx;
  double top = kTopPx;
  double bottom = kHeightPx - kBottomPx;
  double width = 0;  // of the whole picture, legend included
};

Frame frame_for(const LineChart& chart) {
  std::size_t longest = 0;
  for (const LineSeries& series : chart.series) longest = std::max(longest, series.name.size());
  Frame frame;
  frame.width =
      frame.right + std::max(190.0, kLegendPx + kCharWidthPx * static_cast<double>(longest));
  return frame;
}

PlotAxis x_axis(const LineChart& chart, const Frame& frame) {
  if (!chart.x_numbers || chart.x_numbers->empty()) {
    return PlotAxis::linear(0, 1, false);  // categories are placed by x_pixel
  }
  const std::vector<double>& x = *chart.x_numbers;
  const auto [low, high] = std::minmax_element(x.begin(), x.end());
  const bool logarithmic = *low > 0 && *high / *low > kLogSpan;
  PlotAxis axis =
      logarithmic ? PlotAxis::logarithmic(*low, *high) : PlotAxis::linear_within(*low, *high);
  if (logarithmic && x.size() <= kMaxValueTicks) axis.set_ticks(x);
  axis.set_pixels(frame.left + kInsetPx, frame.right - kInsetPx);
  return axis;
}

double x_pixel(const LineChart& chart, const PlotAxis& axis, const Frame& frame, std::size_t i) {
  if (chart.x_numbers && !chart.x_numbers->empty()) return axis.pixel((*chart.x_numbers)[i]);
  const double step = (frame.right - frame.left) / static_cast<double>(chart.x_names.size());
  return frame.left + (static_cast<double>(i) + 0.5) * step;
}

PlotAxis y_axis(const LineChart& chart, const Frame& frame) {
  double low = 0;
  double high = chart.limit ? chart.limit->y : 0;
  for (const LineSeries& series : chart.series) {
    for (const std::optional<double>& y : series.y) {
      if (!y) continue;
      low = std::min(low, *y);
      high = std::max(high, *y);
    }
  }
  PlotAxis axis = PlotAxis::linear(low, high, true);
  axis.set_pixels(frame.bottom, frame.top);
  return axis;
}

void draw_axes(SvgCanvas& canvas, const LineChart& chart, const PlotAxis& x, const PlotAxis& y,
               const Frame& frame) {
  const TextStyle tick_style{11, TextAnchor::end, "#333333", false, 0};
  for (const double tick : y.ticks()) {
    const double pixel = y.pixel(tick);
    canvas.line({frame.left, pixel}, {frame.right, pixel}, kGrid);
    canvas.text({frame.left - 6, pixel}, tick_label(tick), tick_style, true);
  }
  TextStyle x_tick_style = tick_style;
  x_tick_style.anchor = TextAnchor::middle;
  if (chart.x_numbers && !chart.x_numbers->empty()) {
    for (const double tick : x.ticks()) {
      const double pixel = x.pixel(tick);
      canvas.line({pixel, frame.top}, {pixel, frame.bottom}, kGrid);
      canvas.text({pixel, frame.bottom + 18}, tick_label(tick), x_tick_style);
    }
  } else {
    for (std::size_t i = 0; i < chart.x_names.size(); ++i) {
      const double pixel = x_pixel(chart, x, frame, i);
      canvas.line({pixel, frame.top}, {pixel, frame.bottom}, kGrid);
      canvas.text({pixel, frame.bottom + 18}, chart.x_names[i], x_tick_style);
    }
  }
  canvas.line({frame.left, frame.bottom}, {frame.right, frame.bottom}, kAxis);
  canvas.line({frame.left, frame.top}, {frame.left, frame.bottom}, kAxis);
  std::string x_label = chart.x_label;
  if (x.is_logarithmic()) x_label += ", log scale";
  canvas.text({(frame.left + frame.right) / 2, kHeightPx - 18}, x_label,
              {13, TextAnchor::middle, "#000000", false, 0});
  canvas.text({20, (frame.top + frame.bottom) / 2}, chart.y_label,
              {13, TextAnchor::middle, "#000000", false, -90});
}

}  // namespace

std::string render_line_chart(const LineChart& chart) {
  const Frame frame = frame_for(chart);
  SvgCanvas canvas(frame.width, kHeightPx);
  canvas.text({frame.width / 2, 28}, chart.title, {15, TextAnchor::middle, "#000000", true, 0});
  const PlotAxis x = x_axis(chart, frame);
  const PlotAxis y = y_axis(chart, frame);
  draw_axes(canvas, chart, x, y, frame);
  if (chart.limit) {
    const double pixel = y.pixel(chart.limit->y);
    canvas.line({frame.left, pixel}, {frame.right, pixel}, {"#c0392b", 1.5, "6 4"});
    canvas.text({frame.right - 4, pixel - 6}, chart.limit->label,
                {11, TextAnchor::end, "#c0392b", false, 0});
  }
  for (std::size_t s = 0; s < chart.series.size(); ++s) {
    const LineSeries& series = chart.series[s];
    const std::string color = series_color(s);
    std::vector<SvgPoint> points;
    for (std::size_t i = 0; i < series.y.size() && i < chart.x_names.size(); ++i) {
      if (series.y[i]) points.push_back({x_pixel(chart, x, frame, i), y.pixel(*series.y[i])});
    }
    canvas.polyline(points, {color, 2, ""}, series.name);
    for (const SvgPoint& point : points) canvas.circle(point, 3, color);
    // Legend, right of the plot.
    const double legend_y = frame.top + 10 + 22 * static_cast<double>(s);
    const double legend_x = frame.right + 20;
    canvas.line({legend_x, legend_y}, {legend_x + 26, legend_y}, {color, 2, ""});
    canvas.circle({legend_x + 13, legend_y}, 3, color);
    canvas.text({legend_x + 34, legend_y}, series.name,
                {12, TextAnchor::start, "#000000", false, 0}, true);
  }
  return canvas.document();
}

}  // namespace tilesim::report
