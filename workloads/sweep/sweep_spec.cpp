#include "workloads/sweep/sweep_spec.hpp"

#include <algorithm>

namespace tilesim::workloads {

namespace {
constexpr std::string_view kHardwarePrefix = "hw.";
}  // namespace

std::string SweepAxis::hardware_key() const {
  return key.starts_with(kHardwarePrefix) ? key.substr(kHardwarePrefix.size()) : std::string();
}

bool SweepAxis::numeric() const {
  return std::all_of(values.begin(), values.end(),
                     [](const SweepValue& value) { return value.number.has_value(); });
}

std::string SweepAxis::label() const {
  return unit.empty() ? key : key + " (" + unit + ")";
}

std::size_t SweepSpec::point_count() const {
  std::size_t count = 1;
  for (const SweepAxis& axis : axes) count *= axis.values.size();
  return count;
}

std::vector<std::size_t> SweepSpec::value_indices(std::size_t point) const {
  std::vector<std::size_t> indices(axes.size());
  for (std::size_t i = axes.size(); i-- > 0;) {
    indices[i] = point % axes[i].values.size();
    point /= axes[i].values.size();
  }
  return indices;
}

}  // namespace tilesim::workloads
