// Fuzz target: a study YAML (every workload kind: gemm, attention, graph,
// layer), loaded as `tilesim simulate --hw h100_sxm` loads it, its cost
// estimated, and simulated when it fits a tiny budget.

#include "tests/fuzz/fuzz_support.hpp"
#include "workloads/study_loader.hpp"
#include "workloads/study_runner.hpp"

using namespace tilesim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string origin = "study.yaml";
  const config::Loaded<workloads::Study> study =
      workloads::load_study_text(std::string(reinterpret_cast<const char*>(data), size), origin,
                                 workloads::study_schedule_names(fuzz::schedules()));
  fuzz::require_clean_diagnostics(study.diagnostics, origin);
  if (study.ok()) fuzz::simulate_if_small(*study.value, fuzz::h100());
  return 0;
}
