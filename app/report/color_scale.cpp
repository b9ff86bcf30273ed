#include "app/report/color_scale.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <span>

namespace tilesim::report {

namespace {

constexpr std::array<const char*, 8> kOkabeIto = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                                  "#e69f00", "#56b4e9", "#000000", "#f0e442"};

constexpr std::array<RgbColor, 5> kViridis = {{
    {0x44 / 255.0, 0x01 / 255.0, 0x54 / 255.0},
    {0x3b / 255.0, 0x52 / 255.0, 0x8b / 255.0},
    {0x21 / 255.0, 0x91 / 255.0, 0x8c / 255.0},
    {0x5e / 255.0, 0xc9 / 255.0, 0x62 / 255.0},
    {0xfd / 255.0, 0xe7 / 255.0, 0x25 / 255.0},
}};

// Red (below 1) through near-white (1) to blue (above 1).
constexpr std::array<RgbColor, 7> kRedBlue = {{
    {0xb2 / 255.0, 0x18 / 255.0, 0x2b / 255.0},
    {0xef / 255.0, 0x8a / 255.0, 0x62 / 255.0},
    {0xfd / 255.0, 0xdb / 255.0, 0xc7 / 255.0},
    {0xf7 / 255.0, 0xf7 / 255.0, 0xf7 / 255.0},
    {0xd1 / 255.0, 0xe5 / 255.0, 0xf0 / 255.0},
    {0x67 / 255.0, 0xa9 / 255.0, 0xcf / 255.0},
    {0x21 / 255.0, 0x66 / 255.0, 0xac / 255.0},
}};

RgbColor interpolate(std::span<const RgbColor> stops, double fraction) {
  const double position = std::clamp(fraction, 0.0, 1.0) * static_cast<double>(stops.size() - 1);
  const auto index = std::min(static_cast<std::size_t>(position), stops.size() - 2);
  const double t = position - static_cast<double>(index);
  const RgbColor& a = stops[index];
  const RgbColor& b = stops[index + 1];
  return {a.red + (b.red - a.red) * t, a.green + (b.green - a.green) * t,
          a.blue + (b.blue - a.blue) * t};
}

int channel(double value) {
  return static_cast<int>(std::lround(std::clamp(value, 0.0, 1.0) * 255));
}

}  // namespace

std::string series_color(std::size_t index) {
  return kOkabeIto[index % kOkabeIto.size()];
}

std::string RgbColor::hex() const {
  return fmt::format("#{:02x}{:02x}{:02x}", channel(red), channel(green), channel(blue));
}

bool RgbColor::is_dark() const {
  // Rec. 709 luma of the sRGB values: good enough to pick black or white text.
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue < 0.5;
}

RgbColor sequential_color(double fraction) {
  return interpolate(kViridis, fraction);
}

RgbColor diverging_color(double ratio, double max_ratio) {
  const double reach = std::log(std::max(max_ratio, 1.0 + 1e-9));
  const double strength = std::clamp(std::log(ratio) / reach, -1.0, 1.0);
  return interpolate(kRedBlue, 0.5 + 0.5 * strength);
}

}  // namespace tilesim::report
