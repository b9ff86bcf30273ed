#include "app/report/hierarchy_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "app/report/color_scale.hpp"
#include "app/report/hierarchy_table.hpp"
#include "app/report/svg_canvas.hpp"

namespace tilesim::report {
namespace {

constexpr double kWidthPx = 900;
constexpr double kTopPx = 56;
constexpr double kLevelPx = 74;  // height of one level, gap included
constexpr double kGapPx = 8;
constexpr double kNarrowestPx = 470;  // the smallest level: room for its label
constexpr double kWidestPx = 820;
constexpr double kSideNotePx = 40;  // left margin for "faster" / "larger"

double level_width(double capacity, double smallest, double largest) {
  if (largest <= smallest) return kWidestPx;
  const double fraction = std::log(capacity / smallest) / std::log(largest / smallest);
  return kNarrowestPx + fraction * (kWidestPx - kNarrowestPx);
}

std::string capacity_line(const explain::MemoryLevel& level) {
  std::string line = "capacity " + capacity_text(level.capacity_bytes);
  if (level.capacity_per_sm_bytes) {
    line += fmt::format(" ({} per SM)", capacity_text(level.capacity_per_sm_bytes));
  }
  return line;
}

std::string speed_line(const explain::MemoryLevel& level, double clock_hz) {
  std::string line;
  if (level.bandwidth_bytes_per_s) {
    line = "bandwidth " + bandwidth_text(level.bandwidth_bytes_per_s);
    if (level.bandwidth_per_sm_bytes_per_s) {
      line += fmt::format(" ({} per SM)", bandwidth_text(level.bandwidth_per_sm_bytes_per_s));
    }
  } else {
    line = "bandwidth not stated";
  }
  if (level.latency_s) line += ", latency " + latency_text(level.latency_s, clock_hz);
  return line;
}

}  // namespace

std::string hierarchy_svg(const hw::HardwareSpec& spec,
                          const std::vector<explain::MemoryLevel>& levels) {
  const double height = kTopPx + kLevelPx * static_cast<double>(levels.size()) + 24;
  SvgCanvas canvas(kWidthPx, height);
  canvas.text({kWidthPx / 2, 30},
              fmt::format("Memory hierarchy: {} ({} SMs)", spec.description, spec.sm.count),
              {15, TextAnchor::middle, "#000000", true, 0});
  double smallest = 1e300;
  double largest = 0;
  for (const explain::MemoryLevel& level : levels) {
    smallest = std::min(smallest, level.capacity_bytes);
    largest = std::max(largest, level.capacity_bytes);
  }
  const double centre = kSideNotePx + (kWidthPx - kSideNotePx) / 2;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const explain::MemoryLevel& level = levels[i];
    const double width = level_width(level.capacity_bytes, smallest, largest);
    const double top = kTopPx + kLevelPx * static_cast<double>(i);
    const double fraction =
        levels.size() > 1 ? static_cast<double>(i) / static_cast<double>(levels.size() - 1) : 0;
    // Light shades of the sequential scale, so dark text stays readable.
    const RgbColor shade = sequential_color(0.55 + 0.45 * fraction);
    canvas.rect({centre - width / 2, top}, width, kLevelPx - kGapPx, shade.hex());
    const std::string ink = shade.is_dark() ? "#ffffff" : "#000000";
    canvas.text({centre, top + 20}, level.name, {13, TextAnchor::middle, ink, true, 0});
    canvas.text({centre, top + 38}, capacity_line(level), {11, TextAnchor::middle, ink, false, 0});
    canvas.text({centre, top + 54}, speed_line(level, spec.sm.clock_hz),
                {11, TextAnchor::middle, ink, false, 0});
  }
  const double middle = kTopPx + kLevelPx * static_cast<double>(levels.size()) / 2;
  canvas.text({20, middle}, "faster and smaller  ←→  larger and slower",
              {11, TextAnchor::middle, "#333333", false, 90});
  return canvas.document();
}

}  // namespace tilesim::report
