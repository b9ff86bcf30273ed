#include "hwmodels/yaml_schema.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "hwmodels/closest_match.hpp"

namespace tilesim::config {

// ---- declarations ----------------------------------------------------------

namespace {

Param make(std::string key, ValueType type) {
  Param param;
  param.key = std::move(key);
  param.type = type;
  return param;
}

Bound integer_bound(double value, bool inclusive) {
  return {value, inclusive, format_number(value)};
}

}  // namespace

Param Param::integer(std::string key) {
  return make(std::move(key), ValueType::integer);
}
Param Param::number(std::string key) {
  return make(std::move(key), ValueType::number);
}
Param Param::text(std::string key) {
  return make(std::move(key), ValueType::text);
}
Param Param::entries(std::string key) {
  return make(std::move(key), ValueType::entries);
}
Param Param::sequence(std::string key) {
  return make(std::move(key), ValueType::sequence);
}

Param Param::choice(std::string key, std::vector<std::string> allowed) {
  Param param = make(std::move(key), ValueType::choice);
  param.choices = std::move(allowed);
  return param;
}

Param Param::quantity(std::string key, QuantityKind kind) {
  Param param = make(std::move(key), ValueType::quantity);
  param.quantity_kind = kind;
  return param;
}

Param& Param::range(double low_inclusive, double high_inclusive) {
  low = integer_bound(low_inclusive, true);
  high = integer_bound(high_inclusive, true);
  return *this;
}

Param& Param::range(std::string_view low_inclusive, std::string_view high_inclusive) {
  // A bound that does not parse is a declaration bug; NaN makes the schema test fail.
  auto bound = [&](std::string_view text) {
    return Bound{parse_quantity(text, quantity_kind).value.value_or(std::nan("")), true,
                 std::string(text)};
  };
  low = bound(low_inclusive);
  high = bound(high_inclusive);
  return *this;
}

Param& Param::greater_than(double low_exclusive) {
  low = integer_bound(low_exclusive, false);
  return *this;
}

Param& Param::at_most(double high_inclusive) {
  high = integer_bound(high_inclusive, true);
  return *this;
}

Param& Param::multiple_of(std::int64_t step_value) {
  step = step_value;
  return *this;
}

Param& Param::optional() {
  required = false;
  default_value.reset();
  computed_default.clear();
  return *this;
}

Param& Param::default_to(std::string yaml_text) {
  required = false;
  default_value = std::move(yaml_text);
  return *this;
}

Param& Param::default_computed(std::string description) {
  required = false;
  computed_default = std::move(description);
  return *this;
}

Param& Param::name_like() {
  identifier = true;
  return *this;
}

Param& Param::clock() {
  sets_clock = true;
  return *this;
}

Param& Param::not_empty() {
  non_empty = true;
  return *this;
}

Param& Param::by_gpu() {
  varies_by_gpu = true;
  return *this;
}

Param& Param::describe(std::string one_line_doc) {
  doc = std::move(one_line_doc);
  return *this;
}

Param Param::keyed(std::string new_key) const {
  Param copy = *this;
  copy.key = std::move(new_key);
  return copy;
}

// ---- messages ---------------------------------------------------------------

SourceLocation location_of(const YAML::Mark& mark, const std::string& file) {
  if (mark.is_null()) {
    return {"--set", 0, 0};
  }
  return {file, mark.line + 1, mark.column + 1};
}

std::string join_keys(std::string_view prefix, std::string_view key) {
  if (prefix.empty()) {
    return std::string(key);
  }
  if (key.empty()) {
    return std::string(prefix);
  }
  return fmt::format("{}.{}", prefix, key);
}

bool is_name_like(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

std::string unknown_key_message(std::string_view key, std::span<const std::string> allowed) {
  const auto suggestion = closest_match(key, allowed);
  return fmt::format("unknown key `{}`; {}allowed keys: {}", key,
                     suggestion ? fmt::format("did you mean `{}`? ", *suggestion) : "",
                     join_names(allowed));
}

std::string range_text(const Param& param) {
  const auto& low = param.low;
  const auto& high = param.high;
  if (low && high && low->inclusive && high->inclusive) {
    return fmt::format("{} to {}", low->text, high->text);
  }
  std::string text;
  if (low) {
    text = fmt::format("{} {}", low->inclusive ? ">=" : ">", low->text);
  }
  if (high) {
    text += fmt::format("{}{} {}", text.empty() ? "" : " and ", high->inclusive ? "<=" : "<",
                        high->text);
  }
  return text;
}

std::string expected_text(const Param& param) {
  const std::string range = range_text(param);
  const std::string from = range.empty() ? ""
                           : range.front() == '>' || range.front() == '<'
                               ? fmt::format(" {}", range)
                               : fmt::format(" from {}", range);
  switch (param.type) {
    case ValueType::integer:
      return param.step > 1 ? fmt::format("a multiple of {}{}", param.step, from)
                            : fmt::format("an integer{}", from);
    case ValueType::number:
      return fmt::format("a number{}", from);
    case ValueType::text:
      return param.identifier ? "a name (letters, digits, _ - .)" : "a string";
    case ValueType::choice:
      return param.choices.empty() ? "a name" : fmt::format("one of {}", join_names(param.choices));
    case ValueType::quantity:
      return fmt::format("{}{}, e.g. \"{}\"", kind_phrase(param.quantity_kind), from,
                         example(param.quantity_kind));
    case ValueType::entries:
      return "a map of named entries";
    case ValueType::sequence:
      return "a list";
  }
  return "a value";
}

}  // namespace tilesim::config
