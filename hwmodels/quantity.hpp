#pragma once
// Physical quantities as written in configuration files ("3.35 TB/s", "228 KiB",
// "4096 flop/clk") and plain numbers, parsed to SI values (bytes, seconds, Hz,
// bytes/s, flop/s, op/s). Parsing never throws: a failure is a message that says
// what was written, what is wrong and what is allowed.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace tilesim::config {

enum class QuantityKind { size, time, frequency, bandwidth, compute_rate, op_rate };

// One accepted unit. Decimal units scale by 10^decimal_exponent and binary units by
// 2^binary_exponent, so that "3.35 TB/s" gives exactly the double 3.35e12.
struct Unit {
  std::string_view symbol;
  QuantityKind kind;
  int decimal_exponent = 0;
  int binary_exponent = 0;
  // Per SM clock cycle: rates are multiplied by the clock ("4096 flop/clk"), times
  // divided by it ("260 clk").
  bool per_clock = false;
};

// Every accepted unit, grouped by kind, smallest first.
std::span<const Unit> units();

// "size", "time", "frequency", "bandwidth", "compute rate", "op rate".
std::string_view kind_name(QuantityKind kind);
// With its article, for messages: "a size", "an op rate".
std::string kind_phrase(QuantityKind kind);
// The SI unit values are returned in: "B", "s", "Hz", "B/s", "flop/s", "op/s".
std::string_view si_unit(QuantityKind kind);
// A typical value, for messages: "50 MiB", "3.35 TB/s", ...
std::string_view example(QuantityKind kind);
// "B, KB, MB, ..." for messages and docs.
std::string allowed_units(QuantityKind kind);

// A parsed value or the reason there is none.
template <typename T>
struct Parsed {
  std::optional<T> value;
  std::string error;
  bool ok() const { return value.has_value(); }
  static Parsed success(T parsed) {
    Parsed result;
    result.value = std::move(parsed);
    return result;
  }
  static Parsed failure(std::string message) {
    Parsed result;
    result.error = std::move(message);
    return result;
  }
};

// Parses `text` as a quantity of `expected` kind. A space between number and unit
// is optional. Per-clock units need `clock_hz`; without it they are an error that
// starts with kPerClockWithoutClock.
Parsed<double> parse_quantity(std::string_view text, QuantityKind expected,
                              std::optional<double> clock_hz = std::nullopt);
inline constexpr std::string_view kPerClockWithoutClock = "per-clock unit";

// A unitless number: "0.92", "1e-3", or a fraction "3.09/3.35" (so that a measured
// ratio can be written as the measurement).
Parsed<double> parse_number(std::string_view text);
// A plain decimal integer: "132", "-4". No fraction, exponent or unit.
Parsed<std::int64_t> parse_integer(std::string_view text);

// SI value -> readable text with a fitting unit: 3.35e12 bytes/s -> "3.35 TB/s".
std::string format_quantity(double value_in_si, QuantityKind kind);
// Up to 4 significant digits, no trailing zeros: 0.92 -> "0.92", 1e6 -> "1000000".
std::string format_number(double value);

}  // namespace tilesim::config
