#include "app/explain/memory_hierarchy.hpp"

#include <fmt/format.h>

namespace tilesim::explain {
namespace {
constexpr double kRegisterBytes = 4;  // 32-bit registers
}  // namespace

std::vector<MemoryLevel> memory_hierarchy(const hw::HardwareSpec& spec) {
  const double sms = spec.sm.count;
  std::vector<MemoryLevel> levels;

  MemoryLevel registers;
  registers.name = "registers";
  registers.note = fmt::format("{} x 32-bit per SM", spec.sm.registers);
  registers.capacity_per_sm_bytes = spec.sm.registers * kRegisterBytes;
  registers.capacity_bytes = sms * *registers.capacity_per_sm_bytes;
  levels.push_back(registers);

  const hw::SharedMemorySpec& shared = spec.sm.shared_memory;
  MemoryLevel shared_memory;
  shared_memory.name = "shared memory / L1";
  shared_memory.note =
      fmt::format("usable for CTAs; {:.0f} KiB at most per CTA", shared.per_cta_max_bytes / 1024);
  shared_memory.capacity_per_sm_bytes = shared.capacity_bytes;
  shared_memory.capacity_bytes = sms * shared.capacity_bytes;
  shared_memory.bandwidth_per_sm_bytes_per_s = shared.bandwidth_bytes_per_s;
  shared_memory.bandwidth_bytes_per_s = sms * shared.bandwidth_bytes_per_s;
  levels.push_back(shared_memory);

  MemoryLevel l2;
  l2.name = "L2";
  l2.note = "shared by all SMs; per SM: its port";
  l2.capacity_bytes = spec.l2.capacity_bytes;
  l2.bandwidth_per_sm_bytes_per_s = spec.sm.l2_port_bytes_per_s;
  l2.bandwidth_bytes_per_s = spec.l2.bandwidth_bytes_per_s;
  l2.latency_s = spec.l2.latency_s;
  levels.push_back(l2);

  MemoryLevel hbm;
  hbm.name = "HBM";
  hbm.note = fmt::format("peak {:.3g} TB/s x efficiency {:.3f} = sustained",
                         spec.hbm.bandwidth_bytes_per_s * 1e-12, spec.hbm.efficiency);
  hbm.capacity_bytes = spec.hbm.capacity_bytes;
  hbm.bandwidth_per_sm_bytes_per_s = spec.hbm.sustained_bytes_per_s() / sms;
  hbm.bandwidth_bytes_per_s = spec.hbm.sustained_bytes_per_s();
  hbm.latency_s = spec.hbm.latency_s;
  levels.push_back(hbm);
  return levels;
}

}  // namespace tilesim::explain
