#pragma once
// Simulated time: an integer count of picoseconds, so event order and results
// are exact and reproducible. Rates are converted to and from it at the edges.

#include <algorithm>
#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>

namespace tilesim::sim {

class SimTime {
 public:
  constexpr SimTime() = default;
  static constexpr SimTime from_ps(std::int64_t ps) { return SimTime(ps); }
  // Rounds up so that a non-zero duration never becomes zero; a value within
  // floating-point noise of a whole picosecond (1e-9 s -> 1000.0000000000001 ps)
  // stays that picosecond.
  static SimTime from_seconds(double seconds) { return from_ps_rounded_up(seconds * 1e12); }
  static SimTime from_ps_rounded_up(double ps) {
    // Noise grows with the value: beyond ~1e10 ps a fixed 1e-6 ps is less than
    // one unit in the last place (34e-3 s -> 34000000000.000004 ps).
    // std::max and std::min rather than std::fmax and std::fmin, and the
    // ceiling by truncation, which are the same for every value that is not
    // NaN and fits the count, without three library calls (every flow's end
    // is rounded here: 0.5% of a sweep's instructions, bench/README.md round 21).
    const double noise = std::max(1e-6, std::min(std::abs(ps) * 1e-15, 0.5));
    const double rounded = ps - noise;
    const auto whole = static_cast<std::int64_t>(rounded);  // toward zero
    return SimTime(static_cast<double>(whole) < rounded ? whole + 1 : whole);
  }
  static constexpr SimTime infinite() { return SimTime(std::numeric_limits<std::int64_t>::max()); }

  constexpr std::int64_t ps() const { return ps_; }
  constexpr double us() const { return static_cast<double>(ps_) * 1e-6; }
  constexpr double seconds() const { return static_cast<double>(ps_) * 1e-12; }

  constexpr auto operator<=>(const SimTime&) const = default;
  constexpr SimTime operator+(SimTime other) const { return SimTime(ps_ + other.ps_); }
  constexpr SimTime operator-(SimTime other) const { return SimTime(ps_ - other.ps_); }
  constexpr SimTime operator*(std::int64_t times) const { return SimTime(ps_ * times); }
  constexpr SimTime& operator+=(SimTime other) {
    ps_ += other.ps_;
    return *this;
  }

 private:
  constexpr explicit SimTime(std::int64_t ps) : ps_(ps) {}
  std::int64_t ps_ = 0;
};

}  // namespace tilesim::sim
