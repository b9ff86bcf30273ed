#pragma once
// The memory hierarchy of a hardware description, level by level from the
// registers out to HBM: capacity, bandwidth and latency per SM and for the
// whole GPU, as far as the hardware file states them (a figure it does not
// state is absent, never guessed). The files have no host link yet.

#include <optional>
#include <string>
#include <vector>

#include "hwmodels/hardware_spec.hpp"

namespace tilesim::explain {

struct MemoryLevel {
  std::string name;  // "registers", "shared memory / L1", "L2", "HBM"
  std::string note;  // what the figures mean, e.g. "sustained 3.09 TB/s (efficiency 0.922)"
  std::optional<double> capacity_per_sm_bytes;
  double capacity_bytes = 0;  // whole GPU
  std::optional<double> bandwidth_per_sm_bytes_per_s;
  std::optional<double> bandwidth_bytes_per_s;  // whole GPU
  std::optional<double> latency_s;
};

std::vector<MemoryLevel> memory_hierarchy(const hw::HardwareSpec& spec);

}  // namespace tilesim::explain
