#pragma once
// The clock a kernel runs its tensor-core work at when the board's power limit
// holds it: board power is a static part plus, per busy SM, switching power
// that grows with the clock f and with the square of the voltage, which the
// DVFS curve raises with f; energy per tensor-core flop follows the same
// voltage; HBM traffic costs energy per byte on its own rail. At the limit the
// clock falls until the kernel's power fits (a GEMM that keeps the tensor
// cores busier runs slower: cuBLAS at 8192^3 ~1330 MHz, our mma.sync kernel
// ~1600 MHz, a lone column of tiles 1980). Fitted by
// kernels/microbench/fit_power_law.py on clock-under-load calibration rows.

#include "hwmodels/hardware_spec.hpp"

namespace tilesim::hw {

// What one kernel does, as simulated with its tensor work at `clock_hz`.
struct KernelLoad {
  int busy_sms = 0;
  double flops_per_s = 0;      // tensor-core flops issued / kernel time
  double hbm_bytes_per_s = 0;  // DRAM reads and writes / kernel time
  double clock_hz = 0;
};

// Board power of `load` with the SMs at `clock_hz`; flop and byte rates scale
// with the clock (a compute-bound kernel's do).
double board_power_w(const PowerSpec& power, double max_clock_hz, const KernelLoad& load,
                     double clock_hz);

// The highest clock, at most max_clock_hz, at which board_power_w fits
// power.limit_w; max_clock_hz when the file has no power law (limit_w 0).
double power_limited_clock_hz(const PowerSpec& power, double max_clock_hz, const KernelLoad& load);

}  // namespace tilesim::hw
