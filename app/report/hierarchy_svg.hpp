#pragma once
// `tilesim hierarchy --svg`: the memory hierarchy as stacked levels, the
// registers on top and HBM at the bottom; each level's width grows with the
// logarithm of its capacity, and its label gives capacity, bandwidth and
// latency (per SM where that is what the level is).

#include <string>
#include <vector>

#include "app/explain/memory_hierarchy.hpp"
#include "hwmodels/hardware_spec.hpp"

namespace tilesim::report {

std::string hierarchy_svg(const hw::HardwareSpec& spec,
                          const std::vector<explain::MemoryLevel>& levels);

}  // namespace tilesim::report
