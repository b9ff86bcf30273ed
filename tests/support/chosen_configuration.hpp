#pragma once
// What a run chose, as tests compare it between modes: its schedule with the
// tile and splits it ran.

#include <cstdint>
#include <string>
#include <variant>

#include "workloads/study_runner.hpp"

namespace tilesim::testing {

inline std::string chosen_configuration(const workloads::WorkloadRun& run) {
  std::string chosen = run.schedule;
  for (const workloads::WorkloadParameter& parameter : run.parameters) {
    if (parameter.key.starts_with("tile_") || parameter.key == "splits") {
      chosen += " " + parameter.key + "=" + std::to_string(std::get<std::int64_t>(parameter.value));
    }
  }
  return chosen;
}

}  // namespace tilesim::testing
