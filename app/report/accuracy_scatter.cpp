#include "app/report/accuracy_scatter.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "app/report/color_scale.hpp"
#include "app/report/plot_axis.hpp"
#include "app/report/svg_canvas.hpp"

namespace tilesim::report {
namespace {

constexpr double kPlotPx = 460;  // square: the y = x line at 45 degrees
constexpr double kLeftPx = 80;
constexpr double kTopPx = 50;
constexpr double kLegendPx = 230;
constexpr double kBottomPx = 60;
constexpr double kMarginFactor = 1.25;  // room around the extreme points, in log scale

const SvgStroke kGrid{"#e5e5e5", 1, ""};
const SvgStroke kAxis{"#333333", 1, ""};

std::vector<std::string> series_in_order(const std::vector<ScatterPoint>& points) {
  std::vector<std::string> names;
  for (const ScatterPoint& p : points) {
    if (std::find(names.begin(), names.end(), p.series) == names.end()) names.push_back(p.series);
  }
  return names;
}

PlotAxis shared_axis(const std::vector<ScatterPoint>& points) {
  double low = points.empty() ? 1 : points.front().measured_us;
  double high = low;
  for (const ScatterPoint& p : points) {
    low = std::min({low, p.measured_us, p.predicted_us});
    high = std::max({high, p.measured_us, p.predicted_us});
  }
  return PlotAxis::logarithmic(low / kMarginFactor, high * kMarginFactor);
}

void draw_marker(SvgCanvas& canvas, SvgPoint centre, double radius_px, ScatterMarker marker,
                 const std::string& color) {
  if (marker == ScatterMarker::circle) {
    canvas.circle(centre, radius_px, color);
  } else {
    canvas.rect({centre.x - radius_px, centre.y - radius_px}, 2 * radius_px, 2 * radius_px, color);
  }
}

// The line y = factor * x across the plot, clipped to it.
void ratio_line(SvgCanvas& canvas, const PlotAxis& x, const PlotAxis& y, double factor,
                const SvgStroke& stroke) {
  const double from = std::max(x.low(), y.low() / factor);
  const double to = std::min(x.high(), y.high() / factor);
  if (from >= to) return;
  canvas.line({x.pixel(from), y.pixel(from * factor)}, {x.pixel(to), y.pixel(to * factor)}, stroke);
}

void draw_frame(SvgCanvas& canvas, const PlotAxis& x, const PlotAxis& y) {
  const TextStyle tick{11, TextAnchor::end, "#333333", false, 0};
  TextStyle x_tick = tick;
  x_tick.anchor = TextAnchor::middle;
  const double bottom = kTopPx + kPlotPx;
  const double right = kLeftPx + kPlotPx;
  for (const double value : x.ticks()) {
    canvas.line({x.pixel(value), kTopPx}, {x.pixel(value), bottom}, kGrid);
    canvas.text({x.pixel(value), bottom + 18}, tick_label(value), x_tick);
  }
  for (const double value : y.ticks()) {
    canvas.line({kLeftPx, y.pixel(value)}, {right, y.pixel(value)}, kGrid);
    canvas.text({kLeftPx - 6, y.pixel(value)}, tick_label(value), tick, true);
  }
  canvas.line({kLeftPx, bottom}, {right, bottom}, kAxis);
  canvas.line({kLeftPx, kTopPx}, {kLeftPx, bottom}, kAxis);
  canvas.text({kLeftPx + kPlotPx / 2, bottom + 44}, "measured time (us), log scale",
              {13, TextAnchor::middle, "#000000", false, 0});
  canvas.text({22, kTopPx + kPlotPx / 2}, "predicted time (us), log scale",
              {13, TextAnchor::middle, "#000000", false, -90});
}

}  // namespace

std::string render_accuracy_scatter(const std::vector<ScatterPoint>& points,
                                    const std::string& title) {
  const double width = kLeftPx + kPlotPx + kLegendPx;
  SvgCanvas canvas(width, kTopPx + kPlotPx + kBottomPx);
  canvas.text({width / 2, 28}, title, {15, TextAnchor::middle, "#000000", true, 0});
  PlotAxis x = shared_axis(points);
  PlotAxis y = shared_axis(points);
  x.set_pixels(kLeftPx, kLeftPx + kPlotPx);
  y.set_pixels(kTopPx + kPlotPx, kTopPx);
  draw_frame(canvas, x, y);
  ratio_line(canvas, x, y, 1.2, {"#bbbbbb", 1, "2 3"});
  ratio_line(canvas, x, y, 1 / 1.2, {"#bbbbbb", 1, "2 3"});
  ratio_line(canvas, x, y, 1.1, {"#888888", 1, "5 3"});
  ratio_line(canvas, x, y, 1 / 1.1, {"#888888", 1, "5 3"});
  ratio_line(canvas, x, y, 1.0, {"#333333", 1.5, ""});
  const std::vector<std::string> series = series_in_order(points);
  const TextStyle legend{12, TextAnchor::start, "#000000", false, 0};
  for (std::size_t s = 0; s < series.size(); ++s) {
    const std::string color = series_color(s);
    const ScatterMarker marker =
        std::find_if(points.begin(), points.end(), [&](const ScatterPoint& p) {
          return p.series == series[s];
        })->marker;
    for (const ScatterPoint& p : points) {
      if (p.series == series[s]) {
        draw_marker(canvas, {x.pixel(p.measured_us), y.pixel(p.predicted_us)}, 3.5, marker, color);
      }
    }
    const double legend_y = kTopPx + 10 + 22 * static_cast<double>(s);
    draw_marker(canvas, {kLeftPx + kPlotPx + 28, legend_y}, 4, marker, color);
    canvas.text({kLeftPx + kPlotPx + 40, legend_y}, series[s], legend, true);
  }
  const double note_y = kTopPx + 20 + 22 * static_cast<double>(series.size());
  canvas.line({kLeftPx + kPlotPx + 18, note_y}, {kLeftPx + kPlotPx + 38, note_y},
              {"#333333", 1.5, ""});
  canvas.text({kLeftPx + kPlotPx + 40, note_y}, "predicted = measured", legend, true);
  canvas.line({kLeftPx + kPlotPx + 18, note_y + 20}, {kLeftPx + kPlotPx + 38, note_y + 20},
              {"#888888", 1, "5 3"});
  canvas.text({kLeftPx + kPlotPx + 40, note_y + 20}, "+-10%", legend, true);
  canvas.line({kLeftPx + kPlotPx + 18, note_y + 40}, {kLeftPx + kPlotPx + 38, note_y + 40},
              {"#bbbbbb", 1, "2 3"});
  canvas.text({kLeftPx + kPlotPx + 40, note_y + 40}, "+-20%", legend, true);
  return canvas.document();
}

}  // namespace tilesim::report
