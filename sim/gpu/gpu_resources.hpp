#pragma once
// The shared-rate resources of one GPU, as fluid resources: HBM and L2 bandwidth
// shared by all SMs, and per SM its L2 port, tensor cores, FP32 cores and
// special-function units. Bandwidths are in bytes/ps; execution units in busy
// picoseconds per picosecond (capacity 1), so work of any data type can share them.

#include <cstdint>
#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "sim/engine/fluid_network.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

enum class GpuResourceKind : std::uint8_t { hbm, l2, l2_port, tensor, fp32, sfu };

class GpuResources {
 public:
  GpuResources(sim::Simulator& simulator, const hw::HardwareSpec& spec);

  sim::FluidNetwork& network() { return network_; }
  const sim::FluidNetwork& network() const { return network_; }
  sim::ResourceId hbm() const { return hbm_; }
  sim::ResourceId l2() const { return l2_; }
  // The slices' data arrays: hits and fills (GpuResourceKind::l2 too).
  sim::ResourceId l2_slices() const { return l2_slices_; }
  sim::ResourceId l2_port(int sm) const { return per_sm_[sm].l2_port; }
  // Inline: every CTA step asks for its unit (the executor's begin_step).
  sim::ResourceId unit(int sm, ExecutionUnit unit) const {
    switch (unit) {
      case ExecutionUnit::tensor:
        return per_sm_[sm].tensor;
      case ExecutionUnit::fp32:
        return per_sm_[sm].fp32;
      case ExecutionUnit::sfu:
        return per_sm_[sm].sfu;
    }
    return per_sm_[sm].tensor;
  }
  GpuResourceKind kind(sim::ResourceId resource) const { return kinds_[resource]; }

 private:
  struct SmResources {
    sim::ResourceId l2_port;
    sim::ResourceId tensor;
    sim::ResourceId fp32;
    sim::ResourceId sfu;
  };
  sim::FluidNetwork network_;
  sim::ResourceId hbm_;
  sim::ResourceId l2_;
  sim::ResourceId l2_slices_;
  std::vector<SmResources> per_sm_;
  std::vector<GpuResourceKind> kinds_;  // by resource id
};

}  // namespace tilesim::gpu
