#pragma once
// The roofline of a GPU and where a run sits on it. Arithmetic intensity is
// FLOPs per byte moved at one level of the memory hierarchy (HBM: reads that
// missed L2 plus writes; L2: what SMs read plus what they wrote); a level's
// ridge point is the intensity at which its bandwidth and the compute peak
// allow the same FLOP/s: peak / bandwidth.

#include "hwmodels/data_type.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "workloads/workload_run.hpp"

namespace tilesim::explain {

struct RooflineCeilings {
  hw::DataType data_type = hw::DataType::bf16;
  double tensor_flops_per_s = 0;         // all SMs at sm.clock, dense; 0 without a tensor path
  double fp32_flops_per_s = 0;           // all SMs' CUDA cores
  double hbm_bytes_per_s = 0;            // sustained: bandwidth x efficiency
  double l2_bytes_per_s = 0;             // aggregate
  double shared_memory_bytes_per_s = 0;  // all SMs

  // The roof that applies to the data type: tensor cores, or CUDA cores for fp32.
  double peak_flops_per_s() const;
  bool on_tensor_cores() const { return tensor_flops_per_s > 0; }
  double hbm_ridge_flops_per_byte() const { return peak_flops_per_s() / hbm_bytes_per_s; }
  double l2_ridge_flops_per_byte() const { return peak_flops_per_s() / l2_bytes_per_s; }
};

RooflineCeilings roofline_ceilings(const hw::HardwareSpec& spec, hw::DataType type);

struct RooflinePosition {
  double flops = 0;         // useful: padding excluded
  double issued_flops = 0;  // as the CTAs issued them: padded tiles count in full
  double hbm_bytes = 0;
  double l2_bytes = 0;
  double time_s = 0;

  double flops_per_s() const { return time_s > 0 ? flops / time_s : 0; }
  double hbm_flops_per_byte() const { return hbm_bytes > 0 ? flops / hbm_bytes : 0; }
  double l2_flops_per_byte() const { return l2_bytes > 0 ? flops / l2_bytes : 0; }
  double hbm_bytes_per_s() const { return time_s > 0 ? hbm_bytes / time_s : 0; }
  double l2_bytes_per_s() const { return time_s > 0 ? l2_bytes / time_s : 0; }
};

RooflinePosition roofline_position(const workloads::WorkloadRun& run);
// The run's `dtype` parameter; bf16 where it has none (kernel graphs).
hw::DataType run_data_type(const workloads::WorkloadRun& run);

}  // namespace tilesim::explain
