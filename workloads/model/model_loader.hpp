#pragma once
// Reads a study's `model:` workload: a preset (configs/models/*.yaml, every
// key checked where it is written) and the study's keys over it.

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/yaml_schema.hpp"
#include "workloads/model/model_workload.hpp"

namespace tilesim::workloads {

// `gemm_schedules`: the names `schedule:` may take; `config_dir`: where
// preset names are looked up (<config_dir>/models/); empty: only paths.
config::Values read_model_workload(const YAML::Node& item, const config::ReadContext& context,
                                   const std::vector<std::string>& gemm_schedules,
                                   const std::filesystem::path& config_dir, ModelWorkload& workload,
                                   config::Diagnostics& diagnostics);

// The declared keys, for the configuration reference (docs/config.md).
std::vector<config::Param> model_workload_params();
std::vector<config::Param> model_preset_params();

}  // namespace tilesim::workloads
