#include "app/report/roofline_svg.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "app/report/color_scale.hpp"
#include "app/report/plot_axis.hpp"
#include "app/report/svg_canvas.hpp"

namespace tilesim::report {
namespace {

constexpr double kPlotWidthPx = 560;
constexpr double kPlotHeightPx = 420;
constexpr double kLeftPx = 80;
constexpr double kTopPx = 50;
constexpr double kBottomPx = 60;
constexpr double kLegendPx = 300;
constexpr double kTeraFlops = 1e12;  // the y axis is in TFLOP/s
constexpr double kMarkPx = 4;
constexpr double kMarginFactor = 2;  // room around the extreme marks and ridges, in log scale

constexpr std::array<const char*, 4> kCeilingColors = {"#555555", "#8c6d31", "#7f7f7f", "#393b79"};
const SvgStroke kGrid{"#e5e5e5", 1, ""};
const SvgStroke kAxis{"#333333", 1, ""};

bool drawable(const RooflineMark& mark) {
  return mark.flops_per_byte > 0 && mark.flops_per_s > 0 && std::isfinite(mark.flops_per_byte) &&
         std::isfinite(mark.flops_per_s);
}

struct Axes {
  PlotAxis x;
  PlotAxis y;
};

double top_roof(const RooflineChart& chart) {
  double top = 0;
  for (const RooflineRoof& roof : chart.compute_roofs) top = std::max(top, roof.value);
  return top;
}

double steepest_ceiling(const RooflineChart& chart) {
  double steepest = 0;
  for (const RooflineRoof& ceiling : chart.bandwidth_ceilings) {
    steepest = std::max(steepest, ceiling.value);
  }
  return steepest;
}

// Wide enough for every mark and every ridge point (where a ceiling meets a roof).
Axes axes_for(const RooflineChart& chart) {
  double x_low = 1e300;
  double x_high = 0;
  double y_low = 1e300;
  const double y_high = top_roof(chart) / kTeraFlops * 1.6;
  for (const RooflineMark& mark : chart.marks) {
    if (!drawable(mark)) continue;
    x_low = std::min(x_low, mark.flops_per_byte);
    x_high = std::max(x_high, mark.flops_per_byte);
    y_low = std::min(y_low, mark.flops_per_s / kTeraFlops);
  }
  for (const RooflineRoof& roof : chart.compute_roofs) {
    for (const RooflineRoof& ceiling : chart.bandwidth_ceilings) {
      x_low = std::min(x_low, roof.value / ceiling.value);
      x_high = std::max(x_high, roof.value / ceiling.value);
    }
    y_low = std::min(y_low, roof.value / kTeraFlops);
  }
  Axes axes{PlotAxis::logarithmic(x_low / kMarginFactor, x_high * kMarginFactor),
            PlotAxis::logarithmic(y_low / kMarginFactor, y_high)};
  axes.x.set_pixels(kLeftPx, kLeftPx + kPlotWidthPx);
  axes.y.set_pixels(kTopPx + kPlotHeightPx, kTopPx);
  return axes;
}

void draw_frame(SvgCanvas& canvas, const Axes& axes) {
  const TextStyle tick{11, TextAnchor::end, "#333333", false, 0};
  TextStyle x_tick = tick;
  x_tick.anchor = TextAnchor::middle;
  const double bottom = kTopPx + kPlotHeightPx;
  const double right = kLeftPx + kPlotWidthPx;
  for (const double value : axes.x.ticks()) {
    canvas.line({axes.x.pixel(value), kTopPx}, {axes.x.pixel(value), bottom}, kGrid);
    canvas.text({axes.x.pixel(value), bottom + 18}, tick_label(value), x_tick);
  }
  for (const double value : axes.y.ticks()) {
    canvas.line({kLeftPx, axes.y.pixel(value)}, {right, axes.y.pixel(value)}, kGrid);
    canvas.text({kLeftPx - 6, axes.y.pixel(value)}, tick_label(value), tick, true);
  }
  canvas.line({kLeftPx, bottom}, {right, bottom}, kAxis);
  canvas.line({kLeftPx, kTopPx}, {kLeftPx, bottom}, kAxis);
  canvas.text({kLeftPx + kPlotWidthPx / 2, bottom + 44},
              "arithmetic intensity (FLOP/byte), log scale",
              {13, TextAnchor::middle, "#000000", false, 0});
  canvas.text({22, kTopPx + kPlotHeightPx / 2}, "attained TFLOP/s, log scale",
              {13, TextAnchor::middle, "#000000", false, -90});
}

// A ceiling from the left edge (or where it enters the plot) to the top roof.
void draw_ceiling(SvgCanvas& canvas, const Axes& axes, const RooflineRoof& ceiling, double top,
                  const std::string& color) {
  const double tera_per_byte = ceiling.value / kTeraFlops;
  const double from = std::max(axes.x.low(), axes.y.low() / tera_per_byte);
  const double to = std::min({axes.x.high(), top / ceiling.value, axes.y.high() / tera_per_byte});
  if (from >= to) return;
  const SvgPoint start{axes.x.pixel(from), axes.y.pixel(from * tera_per_byte)};
  const SvgPoint end{axes.x.pixel(to), axes.y.pixel(to * tera_per_byte)};
  canvas.line(start, end, {color, 1.5, ""});
  // The label sits along the line, a little above its lower end.
  const double angle_deg = std::atan2(end.y - start.y, end.x - start.x) * 180 / std::numbers::pi;
  canvas.text({start.x + 0.12 * (end.x - start.x), start.y + 0.12 * (end.y - start.y) - 5},
              ceiling.name, {11, TextAnchor::start, color, false, angle_deg});
}

// A compute roof from where it meets the steepest ceiling to the right edge.
void draw_roof(SvgCanvas& canvas, const Axes& axes, const RooflineRoof& roof, double steepest) {
  const double from = std::max(axes.x.low(), roof.value / steepest);
  const double y = axes.y.pixel(roof.value / kTeraFlops);
  canvas.line({axes.x.pixel(from), y}, {axes.x.pixel(axes.x.high()), y}, {"#333333", 1.5, "6 3"});
  canvas.text({axes.x.pixel(axes.x.high()) - 4, y - 5}, roof.name,
              {11, TextAnchor::end, "#333333", false, 0});
}

void draw_mark(SvgCanvas& canvas, SvgPoint at, RooflineMarkShape shape, const std::string& color) {
  switch (shape) {
    case RooflineMarkShape::circle:
      canvas.circle(at, kMarkPx, color);
      break;
    case RooflineMarkShape::square:
      canvas.rect({at.x - kMarkPx, at.y - kMarkPx}, 2 * kMarkPx, 2 * kMarkPx, color);
      break;
    case RooflineMarkShape::hollow_square:
      canvas.outlined_rect({at.x - kMarkPx, at.y - kMarkPx}, 2 * kMarkPx, 2 * kMarkPx,
                           {color, 1.5, ""});
      break;
  }
}

std::vector<std::string> series_in_order(const std::vector<RooflineMark>& marks) {
  std::vector<std::string> names;
  for (const RooflineMark& mark : marks) {
    if (std::find(names.begin(), names.end(), mark.series) == names.end()) {
      names.push_back(mark.series);
    }
  }
  return names;
}

void draw_legend(SvgCanvas& canvas, const RooflineChart& chart,
                 const std::vector<std::string>& series) {
  const double x = kLeftPx + kPlotWidthPx + 24;
  const TextStyle text{12, TextAnchor::start, "#000000", false, 0};
  double y = kTopPx + 10;
  for (std::size_t s = 0; s < series.size(); ++s, y += 20) {
    canvas.circle({x + 6, y}, kMarkPx, series_color(s));
    canvas.text({x + 18, y}, series[s], text, true);
  }
  y += 10;
  for (const RooflineShapeNote& note : chart.shape_notes) {
    draw_mark(canvas, {x + 6, y}, note.shape, "#333333");
    canvas.text({x + 18, y}, note.text, text, true);
    y += 20;
  }
}

}  // namespace

std::string render_roofline(const RooflineChart& chart) {
  const double width = kLeftPx + kPlotWidthPx + kLegendPx;
  SvgCanvas canvas(width, kTopPx + kPlotHeightPx + kBottomPx);
  canvas.text({width / 2, 28}, chart.title, {15, TextAnchor::middle, "#000000", true, 0});
  const Axes axes = axes_for(chart);
  draw_frame(canvas, axes);
  const double top = top_roof(chart);
  for (std::size_t i = 0; i < chart.bandwidth_ceilings.size(); ++i) {
    draw_ceiling(canvas, axes, chart.bandwidth_ceilings[i], top,
                 kCeilingColors[i % kCeilingColors.size()]);
  }
  for (const RooflineRoof& roof : chart.compute_roofs) {
    draw_roof(canvas, axes, roof, steepest_ceiling(chart));
  }
  const std::vector<std::string> series = series_in_order(chart.marks);
  auto pixel = [&](const RooflineMark& mark) {
    return SvgPoint{axes.x.pixel(mark.flops_per_byte), axes.y.pixel(mark.flops_per_s / kTeraFlops)};
  };
  auto color = [&](const RooflineMark& mark) {
    const auto s = static_cast<std::size_t>(std::find(series.begin(), series.end(), mark.series) -
                                            series.begin());
    return series_color(s);
  };
  for (const RooflineMark& mark : chart.marks) {
    if (drawable(mark) && mark.joined_to && *mark.joined_to < chart.marks.size() &&
        drawable(chart.marks[*mark.joined_to])) {
      canvas.line(pixel(mark), pixel(chart.marks[*mark.joined_to]), {color(mark), 1, "2 2"});
    }
  }
  for (const RooflineMark& mark : chart.marks)
    draw_mark(canvas, pixel(mark), mark.shape, color(mark));
  draw_legend(canvas, chart, series);
  return canvas.document();
}

}  // namespace tilesim::report
