#pragma once
// A plot axis: maps data values to pixels, linearly or logarithmically, and
// picks readable ticks (1, 2 and 5 times a power of ten), or takes given ones
// (e.g. the swept values).

#include <string>
#include <vector>

namespace tilesim::report {

class PlotAxis {
 public:
  // [low, high], widened to the nearest ticks; `include_zero` widens it to 0.
  static PlotAxis linear(double low, double high, bool include_zero);
  // Exactly [low, high], with the ticks that fall inside (at least its ends).
  static PlotAxis linear_within(double low, double high);
  // [low, high] as given; both must be > 0.
  static PlotAxis logarithmic(double low, double high);

  // The pixel positions of low() and high() (high may be the smaller, for y).
  void set_pixels(double pixel_at_low, double pixel_at_high);
  // Ticks at these values instead of the computed ones.
  void set_ticks(std::vector<double> ticks) { ticks_ = std::move(ticks); }

  double pixel(double value) const;
  double low() const { return low_; }
  double high() const { return high_; }
  bool is_logarithmic() const { return logarithmic_; }
  const std::vector<double>& ticks() const& { return ticks_; }
  // By value from a temporary, so `for (double t : PlotAxis::linear(...).ticks())` is safe.
  std::vector<double> ticks() && { return std::move(ticks_); }

 private:
  PlotAxis(double low, double high, bool logarithmic, std::vector<double> ticks);

  double low_;
  double high_;
  bool logarithmic_;
  std::vector<double> ticks_;
  double pixel_at_low_ = 0;
  double pixel_at_high_ = 1;
};

// Up to 4 significant digits, no trailing zeros: 1024 -> "1024", 0.25 -> "0.25".
std::string tick_label(double value);

}  // namespace tilesim::report
