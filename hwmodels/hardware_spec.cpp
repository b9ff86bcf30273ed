#include "hwmodels/hardware_spec.hpp"

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

}  // namespace tilesim::hw
