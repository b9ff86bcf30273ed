#pragma once
// Element types of GEMM and attention operands.

#include <optional>
#include <string_view>

namespace tilesim::hw {

enum class DataType { fp32, tf32, fp16, bf16, fp8 };

// Bytes one element occupies in memory (tf32 is stored as fp32).
constexpr double bytes_per_element(DataType type) {
  switch (type) {
    case DataType::fp32:
    case DataType::tf32:
      return 4;
    case DataType::fp16:
    case DataType::bf16:
      return 2;
    case DataType::fp8:
      return 1;
  }
  return 4;
}

std::string_view to_string(DataType type);
std::optional<DataType> parse_data_type(std::string_view text);
// "fp32, tf32, fp16, bf16, fp8": for error messages.
std::string_view data_type_choices();

}  // namespace tilesim::hw
