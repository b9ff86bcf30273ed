#pragma once
// Lowers each workload of a study with its registered schedule and simulates it
// on the study's hardware, each on a fresh GPU (cold L2).

#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/gpu_simulation.hpp"
#include "workloads/gemm/gemm_runner.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/study.hpp"
#include "workloads/workload_run.hpp"

namespace tilesim::workloads {

// Every workload's problems are reported, not only the first's. A `compare`
// workload yields one run per candidate schedule, named "<name>/<schedule>".
config::Loaded<std::vector<WorkloadRun>> run_study(const Study& study, const hw::HardwareSpec& spec,
                                                   const GemmScheduleRegistry& schedules,
                                                   const gpu::SimulationOptions& options = {});

}  // namespace tilesim::workloads
