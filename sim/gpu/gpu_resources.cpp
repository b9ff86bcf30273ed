#include "sim/gpu/gpu_resources.hpp"

namespace tilesim::gpu {
namespace {
constexpr double kPerSecondToPerPs = 1e-12;
constexpr double kFullyBusy = 1.0;  // an execution unit does one busy-ps per ps

double slice_bandwidth(const hw::L2Spec& l2) {
  return l2.slice_bandwidth_bytes_per_s > 0 ? l2.slice_bandwidth_bytes_per_s
                                            : l2.bandwidth_bytes_per_s;
}
}  // namespace

GpuResources::GpuResources(sim::Simulator& simulator, const hw::HardwareSpec& spec)
    : network_(simulator),
      hbm_(network_.add_resource(spec.hbm.sustained_bytes_per_s() * kPerSecondToPerPs)),
      l2_(network_.add_resource(spec.l2.bandwidth_bytes_per_s * kPerSecondToPerPs)),
      // Without a slice bandwidth no flow demands it (CtaExecutor).
      l2_slices_(network_.add_resource(slice_bandwidth(spec.l2) * kPerSecondToPerPs)) {
  const auto sm_count = static_cast<std::size_t>(spec.sm.count);
  network_.reserve_resources(3 + 4 * sm_count);
  per_sm_.reserve(sm_count);
  for (int sm = 0; sm < spec.sm.count; ++sm) {
    per_sm_.push_back(
        SmResources{network_.add_resource(spec.sm.l2_port_bytes_per_s * kPerSecondToPerPs),
                    network_.add_resource(kFullyBusy), network_.add_resource(kFullyBusy),
                    network_.add_resource(kFullyBusy)});
  }
  kinds_.resize(3 + per_sm_.size() * 4);
  kinds_[hbm_] = GpuResourceKind::hbm;
  kinds_[l2_] = GpuResourceKind::l2;
  kinds_[l2_slices_] = GpuResourceKind::l2;
  for (const SmResources& sm : per_sm_) {
    kinds_[sm.l2_port] = GpuResourceKind::l2_port;
    kinds_[sm.tensor] = GpuResourceKind::tensor;
    kinds_[sm.fp32] = GpuResourceKind::fp32;
    kinds_[sm.sfu] = GpuResourceKind::sfu;
  }
}

}  // namespace tilesim::gpu
