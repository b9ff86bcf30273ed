#pragma once
// The values of a sweep axis: numbers as written ("256", "0.5", "25 MiB"), a
// `values:` list brought to one unit for plotting, and `range:` expansion,
// linear ({from, to, step}) or geometric ({from, to, factor}).
//
// Generated values keep the unit of `from` ("25 MiB" .. "200 MiB"), so they read
// like values written by hand and are checked by the workload or hardware loader
// exactly like them. Integers in give integers out: a geometric range over
// integers is rounded to the nearest integer (duplicates dropped).

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "hwmodels/quantity.hpp"

namespace tilesim::workloads {

// A number with an optional unit.
struct AxisNumber {
  double value = 0;                          // in `unit`
  std::string unit;                          // "MiB"; empty for a plain number
  std::optional<config::QuantityKind> kind;  // set when there is a unit
  double unit_si = 1;                        // SI value of one `unit` (2^20 for MiB)
  bool integer = false;                      // written as a plain integer
};

// nullopt when `text` is neither a plain number nor a quantity (e.g. "bf16",
// or a per-clock quantity such as "260 clk", which needs the hardware's clock).
std::optional<AxisNumber> parse_axis_number(std::string_view text);

// Up to 12 significant digits, no trailing zeros: 0.1 + 0.2 -> "0.3".
std::string format_axis_number(double value);

// A `values:` list as numbers in one unit (that of the first value with a unit).
// A value that is not a number of the same kind as the first has no number.
struct AxisNumbers {
  std::string unit;
  std::vector<std::optional<double>> numbers;
};
AxisNumbers axis_numbers(std::span<const std::string> texts);

// `range:` as written.
struct RangeSpec {
  std::string from;
  std::string to;
  std::optional<std::string> step;  // linear
  std::optional<double> factor;     // geometric (> 1)
};

struct RangeValue {
  std::string text;   // "50 MiB"
  double number = 0;  // 50, in the unit of `from`
};

struct ExpandedRange {
  std::string unit;  // of `from`
  std::vector<RangeValue> values;
};

// What is wrong with a range: the field ("from", "to", "step", "factor"; empty
// for the range as a whole) and the message.
struct RangeProblem {
  std::string field;
  std::string message;
};

std::variant<ExpandedRange, RangeProblem> expand_range(const RangeSpec& range,
                                                       std::size_t max_values);

}  // namespace tilesim::workloads
