#pragma once
// A GEMM schedule turns a problem and a resolved kernel into a KernelPlan: how
// CTAs map to tiles and k-ranges, and how partial results are fixed up. Each
// schedule is one file, registered by name in builtin_gemm_schedules().

#include <memory>
#include <string>
#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "workloads/gemm/gemm_kernel_config.hpp"
#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::workloads {

class GemmSchedule {
 public:
  virtual ~GemmSchedule() = default;
  virtual gpu::KernelPlan lower(const GemmWorkload& workload, const hw::KernelProfile& config,
                                const hw::HardwareSpec& spec) const = 0;
};

class GemmScheduleRegistry {
 public:
  void add(std::string name, std::unique_ptr<const GemmSchedule> schedule);
  // nullptr when no schedule has that name.
  const GemmSchedule* find(const std::string& name) const;
  std::vector<std::string> names() const;

 private:
  std::vector<std::pair<std::string, std::unique_ptr<const GemmSchedule>>> schedules_;
};

GemmScheduleRegistry builtin_gemm_schedules();

}  // namespace tilesim::workloads
