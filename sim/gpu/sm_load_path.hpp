#pragma once
// What a CTA step takes of its SM's L2 port. The port is the SM's one load
// path in the model: aligned reads and all writes cross it at its rate; narrow
// gathered reads (CtaStep::load_path_bytes_per_clock) are held by the L1 and
// its load/store units, which move whole sectors of which such loads use a
// few bytes, so each of their bytes counts as port_rate / path_rate of the
// port's. Sharing one resource keeps the SM's other traffic on the same path.

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

inline double sm_port_bytes(const CtaStep& step, double read_bytes, const hw::HardwareSpec& spec) {
  const double path_bytes_per_s = step.load_path_bytes_per_clock * spec.sm.clock_hz;
  const double read_weight =
      path_bytes_per_s > 0 ? spec.sm.l2_port_bytes_per_s / path_bytes_per_s : 1.0;
  return read_bytes * read_weight + step.write_bytes;
}

}  // namespace tilesim::gpu
