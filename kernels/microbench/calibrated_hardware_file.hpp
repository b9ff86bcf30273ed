#pragma once
// The whole text of a calibrated hardware file: a header saying where it came
// from, then the base file with every measured value replaced. One function
// for `tilesim-measure calibrate` (fresh results) and for the test that
// rebuilds each committed `*.measured.yaml` from its raw results, so a
// calibrated file cannot drift from its base when the base gains a key.

#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "kernels/microbench/microbench_result.hpp"

namespace tilesim::microbench {

// What the header says about the run (from the GPU, or a raw results' sidecar).
struct CalibrationProvenance {
  std::string gpu;
  int sm_count = 0;
  std::string driver_version;
  int cuda_runtime = 0;  // e.g. 13000
  std::string date_utc;  // ISO 8601; its date goes into every `measured:` comment
};

struct CalibratedFileSources {
  std::string base_path;     // the base hardware YAML
  std::string raw_csv_name;  // file name of the raw results, or empty
  std::string name;          // the calibrated file's `name:`
};

// Loads the base (kernel profiles from `config_dir`), rewrites it; a problem
// names the base file.
config::Loaded<std::string> calibrated_hardware_yaml(const CalibratedFileSources& sources,
                                                     const std::string& config_dir,
                                                     const std::vector<MicrobenchResult>& results,
                                                     const CalibrationProvenance& provenance);

}  // namespace tilesim::microbench
