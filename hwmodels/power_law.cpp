#include "hwmodels/power_law.hpp"

#include <cmath>

namespace tilesim::hw {

double board_power_w(const PowerSpec& power, double max_clock_hz, const KernelLoad& load,
                     double clock_hz) {
  const double relative = clock_hz / max_clock_hz;
  const double rate_scale = load.clock_hz > 0 ? clock_hz / load.clock_hz : 1.0;
  // Switching energy ~ C V^2, with V^2 ~ (f / f_max)^voltage_exponent on the DVFS curve.
  const double voltage_squared = std::pow(relative, power.voltage_exponent);
  const double sms_w = load.busy_sms * power.sm_active_w * relative;
  const double tensor_w = load.flops_per_s * rate_scale * power.tensor_pj_per_flop * 1e-12;
  const double hbm_w = load.hbm_bytes_per_s * rate_scale * power.hbm_pj_per_byte * 1e-12;
  return power.static_w + (sms_w + tensor_w) * voltage_squared + hbm_w;
}

double power_limited_clock_hz(const PowerSpec& power, double max_clock_hz, const KernelLoad& load) {
  if (power.limit_w <= 0 ||
      board_power_w(power, max_clock_hz, load, max_clock_hz) <= power.limit_w) {
    return max_clock_hz;
  }
  // Power rises with the clock: bisect (0, max] to 0.1 MHz.
  double low = 0;
  double high = max_clock_hz;
  while (high - low > 1e5) {
    const double middle = 0.5 * (low + high);
    (board_power_w(power, max_clock_hz, load, middle) > power.limit_w ? high : low) = middle;
  }
  return low;
}

}  // namespace tilesim::hw
