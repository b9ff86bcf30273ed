#pragma once
// `tilesim hierarchy`: the memory hierarchy of a hardware file as a table,
// one row per level with capacity, bandwidth and latency per SM and in total.

#include <optional>
#include <string>
#include <vector>

#include "app/explain/memory_hierarchy.hpp"
#include "hwmodels/hardware_spec.hpp"

namespace tilesim::report {

std::string hierarchy_table(const hw::HardwareSpec& spec,
                            const std::vector<explain::MemoryLevel>& levels);

// "50 MiB", "7.3 TB/s", "131 ns (260 clk)"; "-" for a figure the file does not state.
std::string capacity_text(std::optional<double> bytes);
std::string bandwidth_text(std::optional<double> bytes_per_s);
std::string latency_text(std::optional<double> seconds, double clock_hz);

}  // namespace tilesim::report
