#include "hwmodels/hardware_spec.hpp"

#include <algorithm>
#include <cmath>

namespace tilesim::hw {

double HardwareSpec::sm_mma_flops_per_s(DataType type) const {
  switch (type) {
    case DataType::fp16:
      return sm.tensor.fp16_flops_per_s;
    case DataType::bf16:
      return sm.tensor.bf16_flops_per_s;
    case DataType::tf32:
      return sm.tensor.tf32_flops_per_s;
    case DataType::fp8:
      return sm.tensor.fp8_flops_per_s;  // 0 where the GPU has no fp8 tensor cores
    case DataType::fp32:
      return sm.fp32_flops_per_s;  // no fp32-input tensor-core path: CUDA cores
  }
  return 0;
}

double HardwareSpec::tensor_clock_fraction(int busy_sms) const {
  if (busy_sms <= 0 || sm.power_limited_clock_hz <= 0) return 1.0;
  const double allowed_hz =
      sm.power_limited_clock_hz * std::cbrt(static_cast<double>(sm.count) / busy_sms);
  return std::min(allowed_hz, sm.clock_hz) / sm.clock_hz;
}

}  // namespace tilesim::hw
