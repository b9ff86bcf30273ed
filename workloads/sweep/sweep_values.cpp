#include "workloads/sweep/sweep_values.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdint>

namespace tilesim::workloads {

namespace {

using config::QuantityKind;

constexpr std::array kKinds = {QuantityKind::size,         QuantityKind::time,
                               QuantityKind::frequency,    QuantityKind::bandwidth,
                               QuantityKind::compute_rate, QuantityKind::op_rate};

// Tolerance for "the last value lands on `to`" despite rounding of the step.
constexpr double kEndSlack = 1e-9;

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// The longest unit symbol of `kind` that `text` ends with ("MiB", not "B").
std::string unit_symbol(std::string_view text, QuantityKind kind) {
  std::string_view best;
  for (const config::Unit& unit : config::units()) {
    if (unit.kind == kind && !unit.per_clock && text.ends_with(unit.symbol) &&
        unit.symbol.size() > best.size()) {
      best = unit.symbol;
    }
  }
  return std::string(best);
}

std::string with_unit(const std::string& number, const std::string& unit) {
  return unit.empty() ? number : number + " " + unit;
}

std::string describe(const AxisNumber& number) {
  return number.kind ? config::kind_phrase(*number.kind) : "a plain number";
}

RangeProblem problem(std::string field, std::string message) {
  return {std::move(field), std::move(message)};
}

// `text` as a number of `from`'s kind, in `from`'s unit.
std::variant<double, RangeProblem> same_kind(const std::string& field, const std::string& text,
                                             const AxisNumber& from) {
  const std::optional<AxisNumber> number = parse_axis_number(text);
  if (!number) {
    return problem(field, fmt::format("\"{}\" is not a number; expected {} like `from`", text,
                                      describe(from)));
  }
  if (number->kind != from.kind) {
    return problem(field, fmt::format("\"{}\" is {}, but `from` is {}", text, describe(*number),
                                      describe(from)));
  }
  return number->value * number->unit_si / from.unit_si;
}

std::vector<RangeValue> integer_values(std::int64_t from, std::int64_t to,
                                       std::optional<std::int64_t> step, double factor) {
  std::vector<RangeValue> values;
  if (step) {
    for (std::int64_t value = from; value <= to; value += *step) {
      values.push_back({std::to_string(value), static_cast<double>(value)});
    }
    return values;
  }
  for (int i = 0;; ++i) {
    const double exact = static_cast<double>(from) * std::pow(factor, i);
    if (exact > static_cast<double>(to) * (1 + kEndSlack)) break;
    const auto value = static_cast<std::int64_t>(std::llround(exact));
    if (values.empty() || values.back().number != static_cast<double>(value)) {
      values.push_back({std::to_string(value), static_cast<double>(value)});
    }
  }
  return values;
}

}  // namespace

std::optional<AxisNumber> parse_axis_number(std::string_view text) {
  const std::string_view trimmed = trim(text);
  AxisNumber number;
  if (const auto integer = config::parse_integer(trimmed); integer.ok()) {
    number.value = static_cast<double>(*integer.value);
    number.integer = true;
    return number;
  }
  if (const auto plain = config::parse_number(trimmed); plain.ok()) {
    number.value = *plain.value;
    return number;
  }
  for (const QuantityKind kind : kKinds) {
    const auto quantity = config::parse_quantity(trimmed, kind);
    if (!quantity.ok()) continue;
    number.kind = kind;
    number.unit = unit_symbol(trimmed, kind);
    number.unit_si = config::parse_quantity("1 " + number.unit, kind).value.value_or(1);
    number.value = *quantity.value / number.unit_si;
    return number;
  }
  return std::nullopt;
}

std::string format_axis_number(double value) {
  return fmt::format("{:.12g}", value);
}

AxisNumbers axis_numbers(std::span<const std::string> texts) {
  std::vector<std::optional<AxisNumber>> parsed;
  for (const std::string& text : texts) parsed.push_back(parse_axis_number(text));
  const AxisNumber* first_with_unit = nullptr;
  for (const auto& number : parsed) {
    if (number && !number->unit.empty()) {
      first_with_unit = &*number;
      break;
    }
  }
  AxisNumbers result;
  if (first_with_unit != nullptr) result.unit = first_with_unit->unit;
  for (const auto& number : parsed) {
    const bool plain = number && number->unit.empty();
    const bool same_kind = first_with_unit != nullptr && number && !number->unit.empty() &&
                           number->kind == first_with_unit->kind;
    if (first_with_unit == nullptr ? plain : same_kind) {
      const double unit_si = first_with_unit != nullptr ? first_with_unit->unit_si : 1;
      result.numbers.emplace_back(number->value * number->unit_si / unit_si);
    } else {
      result.numbers.emplace_back();
    }
  }
  return result;
}

std::variant<ExpandedRange, RangeProblem> expand_range(const RangeSpec& range,
                                                       std::size_t max_values) {
  const std::optional<AxisNumber> from = parse_axis_number(range.from);
  if (!from) {
    return problem("from", fmt::format("\"{}\" is not a number; expected a number or a quantity "
                                       "with a unit, e.g. 256 or \"25 MiB\" (per-clock units "
                                       "cannot be expanded)",
                                       range.from));
  }
  if (range.step.has_value() == range.factor.has_value()) {
    return problem("", "give either `step` (a linear range) or `factor` (a geometric range)");
  }
  const auto to = same_kind("to", range.to, *from);
  if (const auto* bad = std::get_if<RangeProblem>(&to)) return *bad;
  const double to_value = std::get<double>(to);
  if (to_value < from->value) {
    return problem("to", fmt::format("\"{}\" is less than `from` (\"{}\"); a range goes upwards",
                                     range.to, range.from));
  }
  double step_value = 0;
  std::optional<std::int64_t> integer_step;
  if (range.step) {
    const auto step = same_kind("step", *range.step, *from);
    if (const auto* bad = std::get_if<RangeProblem>(&step)) return *bad;
    step_value = std::get<double>(step);
    if (step_value <= 0)
      return problem("step", fmt::format("must be > 0, got \"{}\"", *range.step));
    if (const auto integer = config::parse_integer(trim(*range.step)); integer.ok()) {
      integer_step = *integer.value;
    }
  } else if (from->value <= 0) {
    return problem("from",
                   fmt::format("a geometric range must start above 0, got \"{}\"", range.from));
  }
  const double factor = range.factor.value_or(1);
  const double count =
      range.step ? std::floor((to_value - from->value) / step_value + kEndSlack)
                 : std::floor(std::log(to_value / from->value) / std::log(factor) + kEndSlack);
  if (count + 1 > static_cast<double>(max_values)) {
    return problem("",
                   fmt::format("gives {} values; at most {} are allowed", count + 1, max_values));
  }
  ExpandedRange expanded;
  expanded.unit = from->unit;
  const auto to_integer = config::parse_integer(trim(range.to));
  if (from->integer && to_integer.ok() && (integer_step || !range.step)) {
    expanded.values = integer_values(static_cast<std::int64_t>(from->value), *to_integer.value,
                                     integer_step, factor);
    return expanded;
  }
  for (int i = 0; i <= static_cast<int>(count); ++i) {
    const double value =
        range.step ? from->value + i * step_value : from->value * std::pow(factor, i);
    expanded.values.push_back({with_unit(format_axis_number(value), from->unit), value});
  }
  return expanded;
}

}  // namespace tilesim::workloads
