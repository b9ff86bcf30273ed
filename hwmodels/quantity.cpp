#include "hwmodels/quantity.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "hwmodels/closest_match.hpp"

namespace tilesim::config {

namespace {

using K = QuantityKind;

// Per kind, smallest first; format_quantity relies on that order.
constexpr std::array kUnits = {
    Unit{"B", K::size},
    Unit{"KB", K::size, 3},
    Unit{"MB", K::size, 6},
    Unit{"GB", K::size, 9},
    Unit{"TB", K::size, 12},
    Unit{"KiB", K::size, 0, 10},
    Unit{"MiB", K::size, 0, 20},
    Unit{"GiB", K::size, 0, 30},
    Unit{"TiB", K::size, 0, 40},
    Unit{"ps", K::time, -12},
    Unit{"ns", K::time, -9},
    Unit{"us", K::time, -6},
    Unit{"ms", K::time, -3},
    Unit{"s", K::time},
    Unit{"clk", K::time, 0, 0, true},
    Unit{"Hz", K::frequency},
    Unit{"kHz", K::frequency, 3},
    Unit{"MHz", K::frequency, 6},
    Unit{"GHz", K::frequency, 9},
    Unit{"B/s", K::bandwidth},
    Unit{"KB/s", K::bandwidth, 3},
    Unit{"MB/s", K::bandwidth, 6},
    Unit{"GB/s", K::bandwidth, 9},
    Unit{"TB/s", K::bandwidth, 12},
    Unit{"KiB/s", K::bandwidth, 0, 10},
    Unit{"MiB/s", K::bandwidth, 0, 20},
    Unit{"GiB/s", K::bandwidth, 0, 30},
    Unit{"TiB/s", K::bandwidth, 0, 40},
    Unit{"B/clk", K::bandwidth, 0, 0, true},
    Unit{"flop/s", K::compute_rate},
    Unit{"GFLOP/s", K::compute_rate, 9},
    Unit{"TFLOP/s", K::compute_rate, 12},
    Unit{"PFLOP/s", K::compute_rate, 15},
    Unit{"flop/clk", K::compute_rate, 0, 0, true},
    Unit{"op/s", K::op_rate},
    Unit{"Gop/s", K::op_rate, 9},
    Unit{"Top/s", K::op_rate, 12},
    Unit{"op/clk", K::op_rate, 0, 0, true},
};

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) {
    return {};
  }
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// A decimal number split into its digits and its power of ten, so that unit
// prefixes can be added to the exponent and the value rounded only once.
struct DecimalNumber {
  std::string mantissa;  // "-3.35"
  long exponent = 0;
};

// Accepts [+-]? (d+ (.d*)? | .d+) ([eE] [+-]? d+)? and nothing else.
std::optional<DecimalNumber> split_decimal(std::string_view text) {
  std::size_t i = 0;
  DecimalNumber number;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
    if (text[i] == '-') {
      number.mantissa += '-';
    }
    ++i;
  }
  std::size_t digits = 0;
  const std::size_t mantissa_start = i;
  while (i < text.size() && is_digit(text[i])) {
    ++i;
    ++digits;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && is_digit(text[i])) {
      ++i;
      ++digits;
    }
  }
  if (digits == 0) {
    return std::nullopt;
  }
  number.mantissa += text.substr(mantissa_start, i - mantissa_start);
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    const std::size_t exponent_start = i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
      ++i;
    }
    const std::size_t exponent_digits = i;
    while (i < text.size() && is_digit(text[i])) {
      ++i;
    }
    if (i == exponent_digits) {
      return std::nullopt;
    }
    std::string exponent_text(text.substr(exponent_start, i - exponent_start));
    if (exponent_text.front() == '+') {
      exponent_text.erase(0, 1);
    }
    const auto [end, ec] = std::from_chars(
        exponent_text.data(), exponent_text.data() + exponent_text.size(), number.exponent);
    if (ec != std::errc{} || end != exponent_text.data() + exponent_text.size()) {
      return std::nullopt;
    }
  }
  if (i != text.size()) {
    return std::nullopt;
  }
  return number;
}

// number x 10^extra_exponent, correctly rounded; nullopt when out of double range.
std::optional<double> to_double(const DecimalNumber& number, long extra_exponent) {
  const std::string text = fmt::format("{}e{}", number.mantissa, number.exponent + extra_exponent);
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::vector<std::string> symbols_of(QuantityKind kind) {
  std::vector<std::string> symbols;
  for (const Unit& unit : kUnits) {
    if (unit.kind == kind) {
      symbols.emplace_back(unit.symbol);
    }
  }
  return symbols;
}

double unit_factor(const Unit& unit) {
  return std::ldexp(std::pow(10.0, unit.decimal_exponent), unit.binary_exponent);
}

// The characters a number may be written with; a token made of them that does not
// parse is a malformed number (e.g. "3..35", "3,35") rather than an unknown unit.
bool is_number_char(char c) {
  return is_digit(c) || c == '.' || c == '+' || c == '-' || c == 'e' || c == 'E' || c == ',' ||
         c == '_';
}

}  // namespace

std::span<const Unit> units() {
  return kUnits;
}

std::string_view kind_name(QuantityKind kind) {
  switch (kind) {
    case K::size:
      return "size";
    case K::time:
      return "time";
    case K::frequency:
      return "frequency";
    case K::bandwidth:
      return "bandwidth";
    case K::compute_rate:
      return "compute rate";
    case K::op_rate:
      return "op rate";
  }
  return "quantity";
}

std::string kind_phrase(QuantityKind kind) {
  return fmt::format("{} {}", kind == K::op_rate ? "an" : "a", kind_name(kind));
}

std::string_view si_unit(QuantityKind kind) {
  switch (kind) {
    case K::size:
      return "B";
    case K::time:
      return "s";
    case K::frequency:
      return "Hz";
    case K::bandwidth:
      return "B/s";
    case K::compute_rate:
      return "flop/s";
    case K::op_rate:
      return "op/s";
  }
  return "";
}

std::string_view example(QuantityKind kind) {
  switch (kind) {
    case K::size:
      return "50 MiB";
    case K::time:
      return "4.5 us";
    case K::frequency:
      return "1980 MHz";
    case K::bandwidth:
      return "3.35 TB/s";
    case K::compute_rate:
      return "989 TFLOP/s";
    case K::op_rate:
      return "16 op/clk";
  }
  return "";
}

std::string allowed_units(QuantityKind kind) {
  return join_names(symbols_of(kind));
}

Parsed<double> parse_quantity(std::string_view text, QuantityKind expected,
                              std::optional<double> clock_hz) {
  const std::string_view value_text = trim(text);
  if (value_text.empty()) {
    return Parsed<double>::failure(
        fmt::format("value is empty; write e.g. \"{}\"", example(expected)));
  }
  std::size_t number_end = 0;
  while (number_end < value_text.size() && is_number_char(value_text[number_end])) {
    ++number_end;
  }
  const std::string_view number_text = value_text.substr(0, number_end);
  const std::string_view unit_text = trim(value_text.substr(number_end));
  if (number_text.empty()) {
    return Parsed<double>::failure(fmt::format(
        "\"{}\" does not start with a number; write e.g. \"{}\"", value_text, example(expected)));
  }
  const std::optional<DecimalNumber> number = split_decimal(number_text);
  if (!number) {
    return Parsed<double>::failure(
        fmt::format("malformed number \"{}\" in \"{}\"; write e.g. \"{}\"", number_text, value_text,
                    example(expected)));
  }
  if (unit_text.empty()) {
    return Parsed<double>::failure(fmt::format("unit missing: write e.g. \"{}\"; allowed units: {}",
                                               example(expected), allowed_units(expected)));
  }
  const Unit* unit = nullptr;
  for (const Unit& candidate : kUnits) {
    if (candidate.symbol == unit_text) {
      unit = &candidate;
    }
  }
  if (unit == nullptr) {
    const auto suggestion = closest_match(unit_text, symbols_of(expected));
    return Parsed<double>::failure(
        fmt::format("unknown unit \"{}\" in \"{}\"; {}allowed units: {}", unit_text, value_text,
                    suggestion ? fmt::format("did you mean \"{}\"? ", *suggestion) : "",
                    allowed_units(expected)));
  }
  if (unit->kind != expected) {
    return Parsed<double>::failure(fmt::format("\"{}\" is {}, expected {}; allowed units: {}",
                                               value_text, kind_phrase(unit->kind),
                                               kind_phrase(expected), allowed_units(expected)));
  }
  std::optional<double> value = to_double(*number, unit->decimal_exponent);
  if (!value) {
    return Parsed<double>::failure(fmt::format("\"{}\" is out of range", value_text));
  }
  *value = std::ldexp(*value, unit->binary_exponent);
  if (unit->per_clock) {
    if (!clock_hz) {
      return Parsed<double>::failure(
          fmt::format("{} \"{}\" needs the SM clock (sm.clock) to convert \"{}\"",
                      kPerClockWithoutClock, unit->symbol, value_text));
    }
    *value = expected == K::time ? *value / *clock_hz : *value * *clock_hz;
  }
  return Parsed<double>::success(*value);
}

Parsed<double> parse_number(std::string_view text) {
  const std::string_view value_text = trim(text);
  auto failure = [&] {
    return Parsed<double>::failure(fmt::format(
        "expected a number like 0.92 or a fraction like 3.09/3.35, got \"{}\"", value_text));
  };
  const auto slash = value_text.find('/');
  const std::optional<DecimalNumber> numerator = split_decimal(trim(value_text.substr(0, slash)));
  if (!numerator) {
    return failure();
  }
  const std::optional<double> top = to_double(*numerator, 0);
  if (!top) {
    return failure();
  }
  if (slash == std::string_view::npos) {
    return Parsed<double>::success(*top);
  }
  const std::optional<DecimalNumber> denominator =
      split_decimal(trim(value_text.substr(slash + 1)));
  const std::optional<double> bottom = denominator ? to_double(*denominator, 0) : std::nullopt;
  if (!bottom) {
    return failure();
  }
  if (*bottom == 0) {
    return Parsed<double>::failure(fmt::format("division by zero in \"{}\"", value_text));
  }
  return Parsed<double>::success(*top / *bottom);
}

Parsed<std::int64_t> parse_integer(std::string_view text) {
  const std::string_view value_text = trim(text);
  std::string digits(value_text);
  if (!digits.empty() && digits.front() == '+') {
    digits.erase(0, 1);
  }
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || end != digits.data() + digits.size()) {
    return Parsed<std::int64_t>::failure(
        fmt::format("expected an integer, got \"{}\"", value_text));
  }
  if (ec != std::errc{}) {
    return Parsed<std::int64_t>::failure(fmt::format("integer \"{}\" is out of range", value_text));
  }
  return Parsed<std::int64_t>::success(value);
}

std::string format_number(double value) {
  if (std::fabs(value) >= 1e4 && std::fabs(value) < 1e15 && value == std::floor(value)) {
    return fmt::format("{:.0f}", value);
  }
  return fmt::format("{:.4g}", value);
}

namespace {

// The largest unit of `kind` not above `magnitude` (or the smallest unit), among the
// decimal or the binary units; the base unit (B) belongs to both.
const Unit& display_unit(double magnitude, QuantityKind kind, bool binary) {
  const Unit* best = nullptr;
  for (const Unit& unit : kUnits) {
    const bool in_group =
        unit.binary_exponent == 0 ? (!binary || unit.decimal_exponent == 0) : binary;
    if (unit.kind != kind || unit.per_clock || !in_group) {
      continue;
    }
    if (best == nullptr || magnitude >= unit_factor(unit)) {
      best = &unit;
    }
  }
  return *best;
}

}  // namespace

std::string format_quantity(double value_in_si, QuantityKind kind) {
  const Unit& decimal = display_unit(std::fabs(value_in_si), kind, false);
  std::string text = format_number(value_in_si / unit_factor(decimal));
  // Binary units only where they read exactly (64 KiB rather than 65.54 KB, but 80 GB
  // rather than 74.51 GiB).
  if (kind == K::size && parse_number(text).value != value_in_si / unit_factor(decimal)) {
    const Unit& binary = display_unit(std::fabs(value_in_si), kind, true);
    const std::string binary_text = format_number(value_in_si / unit_factor(binary));
    if (parse_number(binary_text).value == value_in_si / unit_factor(binary)) {
      return fmt::format("{} {}", binary_text, binary.symbol);
    }
  }
  return fmt::format("{} {}", text, decimal.symbol);
}

}  // namespace tilesim::config
