#pragma once
// Colour scales for heat maps: a sequential one (viridis: dark purple, low, to
// yellow, high) for a metric, and a diverging one (ColorBrewer RdBu) centred on
// 1.0 for ratios such as speedups, symmetric in log scale (2x and 0.5x are
// equally strong). Both are readable with the common colour-vision deficiencies.

#include <cstddef>
#include <string>

namespace tilesim::report {

struct RgbColor {
  double red = 0;  // 0..1
  double green = 0;
  double blue = 0;

  std::string hex() const;  // "#21918c"
  // Text on this background is easier to read in white.
  bool is_dark() const;
};

// The colour of plot series `index` (lines, scatter and roofline marks):
// Okabe-Ito, distinguishable with the common colour-vision deficiencies;
// the 8 colours repeat from the ninth series on.
std::string series_color(std::size_t index);

// `fraction` in [0, 1] (clamped).
RgbColor sequential_color(double fraction);

// `ratio` > 0; 1 is neutral, `ratio` >= `max_ratio` or <= 1 / `max_ratio` is the
// full colour (blue above 1, red below).
RgbColor diverging_color(double ratio, double max_ratio);

}  // namespace tilesim::report
