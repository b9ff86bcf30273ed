#pragma once
// Where a measurement ran: GPU, clocks, driver and CUDA versions, date and git
// revision, for the JSON sidecar of a measurement CSV.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace tilesim::measure {

struct RunEnvironment {
  std::string gpu;
  std::string compute_capability;
  int sm_count = 0;
  long long l2_bytes = 0;
  long long global_memory_bytes = 0;
  int sm_clock_max_mhz = 0;      // cudaDevAttrClockRate
  int memory_clock_max_mhz = 0;  // cudaDevAttrMemoryClockRate
  int cuda_driver = 0;           // cudaDriverGetVersion, e.g. 13000
  int cuda_runtime = 0;
  int cublas_version = 0;
  std::string driver_version;  // nvidia-smi, e.g. 580.159.04; empty without nvidia-smi
  std::string date_utc;        // ISO 8601
  std::string git_revision;    // $TILESIM_GIT_REVISION, else the build's
  std::string hostname;
};

// Reads the current device; throws kernels::CudaError when there is none.
RunEnvironment read_run_environment();

// One nvidia-smi sample of the GPU's clocks, power and state (nothing when
// nvidia-smi is missing): taken before and after the runs.
std::optional<nlohmann::json> sample_gpu_clocks();

nlohmann::json to_json(const RunEnvironment& environment);

}  // namespace tilesim::measure
