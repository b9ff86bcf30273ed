#include "app/explain/roofline.hpp"

namespace tilesim::explain {

double RooflineCeilings::peak_flops_per_s() const {
  return on_tensor_cores() ? tensor_flops_per_s : fp32_flops_per_s;
}

RooflineCeilings roofline_ceilings(const hw::HardwareSpec& spec, hw::DataType type) {
  const double sms = spec.sm.count;
  RooflineCeilings ceilings;
  ceilings.data_type = type;
  // fp32 inputs have no tensor-core path (sm_mma_flops_per_s gives the CUDA cores).
  ceilings.tensor_flops_per_s =
      type == hw::DataType::fp32 ? 0 : sms * spec.sm_mma_flops_per_s(type);
  ceilings.fp32_flops_per_s = sms * spec.sm.fp32_flops_per_s;
  ceilings.hbm_bytes_per_s = spec.hbm.sustained_bytes_per_s();
  ceilings.l2_bytes_per_s = spec.l2.bandwidth_bytes_per_s;
  ceilings.shared_memory_bytes_per_s = sms * spec.sm.shared_memory.bandwidth_bytes_per_s;
  return ceilings;
}

RooflinePosition roofline_position(const workloads::WorkloadRun& run) {
  const gpu::MemoryTraffic traffic = run.result.traffic();
  return {run.useful_flops, run.result.flops(), traffic.hbm_bytes(),
          traffic.l2_read_bytes + traffic.write_bytes, run.result.time_us() * 1e-6};
}

hw::DataType run_data_type(const workloads::WorkloadRun& run) {
  for (const workloads::WorkloadParameter& parameter : run.parameters) {
    if (parameter.key != "dtype") continue;
    if (const auto* text = std::get_if<std::string>(&parameter.value)) {
      if (const auto type = hw::parse_data_type(*text)) return *type;
    }
  }
  return hw::DataType::bf16;
}

}  // namespace tilesim::explain
