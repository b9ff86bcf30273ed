#include "app/report/hierarchy_table.hpp"

#include <fmt/format.h>

#include "hwmodels/quantity.hpp"

namespace tilesim::report {

std::string capacity_text(std::optional<double> bytes) {
  return bytes ? config::format_quantity(*bytes, config::QuantityKind::size) : "-";
}

std::string bandwidth_text(std::optional<double> bytes_per_s) {
  return bytes_per_s ? config::format_quantity(*bytes_per_s, config::QuantityKind::bandwidth) : "-";
}

std::string latency_text(std::optional<double> seconds, double clock_hz) {
  if (!seconds) return "-";
  return fmt::format("{} ({:.0f} clk)",
                     config::format_quantity(*seconds, config::QuantityKind::time),
                     *seconds * clock_hz);
}

std::string hierarchy_table(const hw::HardwareSpec& spec,
                            const std::vector<explain::MemoryLevel>& levels) {
  std::string out =
      fmt::format("hardware: {} ({}), {} SMs at {}\n\n", spec.name, spec.description, spec.sm.count,
                  config::format_quantity(spec.sm.clock_hz, config::QuantityKind::frequency));
  out += fmt::format("{:<20} {:>12} {:>12} {:>14} {:>12} {:>18}  {}\n", "level", "capacity/SM",
                     "capacity", "bandwidth/SM", "bandwidth", "latency", "notes");
  for (const explain::MemoryLevel& level : levels) {
    out +=
        fmt::format("{:<20} {:>12} {:>12} {:>14} {:>12} {:>18}  {}\n", level.name,
                    capacity_text(level.capacity_per_sm_bytes), capacity_text(level.capacity_bytes),
                    bandwidth_text(level.bandwidth_per_sm_bytes_per_s),
                    bandwidth_text(level.bandwidth_bytes_per_s),
                    latency_text(level.latency_s, spec.sm.clock_hz), level.note);
  }
  out +=
      "\n'-': not stated by the hardware file. Bandwidths are what the model uses (HBM: "
      "sustained); per SM, L2 is the SM's port and HBM an equal share. No host link is "
      "described.\n";
  return out;
}

}  // namespace tilesim::report
