#include "hwmodels/data_type.hpp"

#include <array>
#include <utility>

namespace tilesim::hw {

namespace {

constexpr std::array<std::pair<DataType, std::string_view>, 5> kNames = {{
    {DataType::fp32, "fp32"},
    {DataType::tf32, "tf32"},
    {DataType::fp16, "fp16"},
    {DataType::bf16, "bf16"},
    {DataType::fp8, "fp8"},
}};

}  // namespace

std::string_view to_string(DataType type) {
  for (const auto& [candidate, name] : kNames) {
    if (candidate == type) {
      return name;
    }
  }
  return "unknown";
}

std::optional<DataType> parse_data_type(std::string_view text) {
  for (const auto& [type, name] : kNames) {
    if (name == text) {
      return type;
    }
  }
  return std::nullopt;
}

std::string_view data_type_choices() {
  return "fp32, tf32, fp16, bf16, fp8";
}

}  // namespace tilesim::hw
