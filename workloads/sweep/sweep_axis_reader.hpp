#pragma once
// Reads the `vary:` list of a sweep file into axes: each entry's key, checked
// for what it may name, and its values, listed or expanded from a range. What a
// value does to the workload or the hardware is checked later, point by point,
// by the study and hardware loaders.

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/yaml_schema.hpp"
#include "workloads/sweep/sweep_spec.hpp"

namespace tilesim::workloads {

// Values one axis may take, after expansion.
inline constexpr std::size_t kMaxAxisValues = 10000;

// The keys of one `vary:` entry, for validation and docs.
config::Schema<SweepAxis> vary_entry_schema();

// The axes that can be used. An entry with a bad key is left out. One with a
// good key keeps its good values; a workload key without any is kept aside, so
// that the points can still be checked for the file's other problems, with a
// stand-in value whose own problems are not reported.
struct SweepAxes {
  std::vector<SweepAxis> axes;
  std::vector<SweepAxis> unchecked;  // one stand-in value each
};

// The key path of a stand-in value's SweepSource.
inline constexpr std::string_view kStandInKeyPath = "<stand-in>";

// Problems are added to `diagnostics`.
SweepAxes read_sweep_axes(const YAML::Node& vary, const std::string& file,
                          config::Diagnostics& diagnostics);

}  // namespace tilesim::workloads
