#include "app/report/timeline_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "app/report/svg_canvas.hpp"

namespace tilesim::report {
namespace {

constexpr double kWidthPx = 960;
constexpr double kLeftPx = 60;
constexpr double kRightPx = 20;
constexpr double kRowPx = 3;
constexpr double kPanelTitlePx = 34;
constexpr double kAxisPx = 34;
constexpr double kPanelGapPx = 16;

// A few distinguishable fills; neighbouring tiles get different ones.
constexpr std::array<const char*, 8> kTileColors = {"#4e79a7", "#f28e2b", "#59a14f", "#76b7b2",
                                                    "#edc948", "#b07aa1", "#9c755f", "#bab0ac"};
constexpr const char* kWaitColor = "#e15759";

TextStyle text_style(double size_px, TextAnchor anchor = TextAnchor::start, bool bold = false) {
  TextStyle style;
  style.size_px = size_px;
  style.anchor = anchor;
  style.bold = bold;
  return style;
}

SvgStroke stroke(const char* color) {
  SvgStroke line;
  line.color = color;
  return line;
}

const char* tile_color(const gpu::CtaWorkLabel& label) {
  return kTileColors[static_cast<std::size_t>(label.tile_row * 3 + label.tile_col) %
                     kTileColors.size()];
}

struct TimeAxis {
  double end_us;
  double to_px(double us) const { return kLeftPx + us / end_us * (kWidthPx - kLeftPx - kRightPx); }
};

double nice_step(double span) {
  const double raw = span / 8;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double factor : {1.0, 2.0, 5.0}) {
    if (factor * magnitude >= raw) return factor * magnitude;
  }
  return 10 * magnitude;
}

void draw_axis(SvgCanvas& canvas, const TimeAxis& axis, double y) {
  canvas.line({kLeftPx, y}, {kWidthPx - kRightPx, y}, {});
  const double step = nice_step(axis.end_us);
  for (double us = 0; us <= axis.end_us * (1 + 1e-9); us += step) {
    canvas.line({axis.to_px(us), y}, {axis.to_px(us), y + 4}, {});
    canvas.text({axis.to_px(us), y + 16}, fmt::format("{:g}", us),
                text_style(10, TextAnchor::middle));
  }
  canvas.text({(kLeftPx + kWidthPx) / 2, y + 30}, "time since the first kernel started (us)",
              text_style(11, TextAnchor::middle));
}

double draw_panel(SvgCanvas& canvas, const workloads::WorkloadRun& run, const TimeAxis& axis,
                  double top) {
  const gpu::SimulationResult& result = run.result;
  canvas.text({kLeftPx, top + 20},
              fmt::format("{}: {} ({:.2f} us, SM busy {:.0f}%)", run.name, run.schedule,
                          result.time_us(), 100 * result.sm_utilization()),
              text_style(13, TextAnchor::start, true));
  const double rows_top = top + kPanelTitlePx;
  const double rows_px = result.sm_count * kRowPx;
  canvas.outlined_rect({kLeftPx, rows_top}, kWidthPx - kLeftPx - kRightPx, rows_px,
                       stroke("#cccccc"));
  canvas.text({kLeftPx - 6, rows_top + rows_px / 2}, "SM", text_style(11, TextAnchor::end), true);
  const double origin_us = result.start().us();
  // Rows split among the CTA slots actually used, not the hardware maximum.
  int slots = 1;
  for (const gpu::CtaRecord& cta : result.ctas) slots = std::max(slots, cta.slot + 1);
  for (const gpu::CtaRecord& cta : result.ctas) {
    const double y = rows_top + cta.sm * kRowPx + (cta.slot % slots) * kRowPx / slots;
    const double height = kRowPx / slots;
    auto bar = [&](const gpu::TimeSpan& span, const char* color) {
      const double x0 = axis.to_px(span.begin.us() - origin_us);
      const double x1 = axis.to_px(span.end.us() - origin_us);
      canvas.rect({x0, y}, std::max(0.5, x1 - x0), height, color);
    };
    for (const gpu::SegmentSpan& segment : cta.outcome.segments) {
      bar(segment.span, tile_color(segment.label));
    }
    for (const gpu::TimeSpan& wait : cta.outcome.waits) bar(wait, kWaitColor);
  }
  draw_axis(canvas, axis, rows_top + rows_px);
  return kPanelTitlePx + rows_px + kAxisPx + kPanelGapPx;
}

}  // namespace

std::string timeline_svg(const StudyReport& report) {
  double end_us = 0;
  double height_px = 30;
  for (const workloads::WorkloadRun& run : report.runs) {
    end_us = std::max(end_us, run.result.time_us());
    height_px += kPanelTitlePx + run.result.sm_count * kRowPx + kAxisPx + kPanelGapPx;
  }
  SvgCanvas canvas(kWidthPx, height_px);
  canvas.text({kLeftPx, 18},
              fmt::format("{} on {}: one row per SM; colour = output tile, red = fixup wait",
                          report.study_path, report.hardware->name),
              text_style(12));
  const TimeAxis axis{end_us > 0 ? end_us : 1};
  double top = 26;
  for (const workloads::WorkloadRun& run : report.runs) top += draw_panel(canvas, run, axis, top);
  return canvas.document();
}

}  // namespace tilesim::report
