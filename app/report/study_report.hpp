#pragma once
// What every report format is given: the study's simulated workloads and where
// they came from.

#include <string>
#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "workloads/workload_run.hpp"

namespace tilesim::report {

struct StudyReport {
  std::string study_path;
  std::string hardware_reference;  // as the user wrote it: a name or a path
  const hw::HardwareSpec* hardware = nullptr;
  std::vector<workloads::WorkloadRun> runs;
};

}  // namespace tilesim::report
