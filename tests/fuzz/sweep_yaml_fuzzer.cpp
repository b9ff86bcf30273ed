// Fuzz target: a sweep YAML, loaded as `tilesim sweep` loads it (every point
// checked on its hardware) and checked against the fuzz budget, which admits
// 40 points: checking a point costs about what simulating a small one does,
// and a sweep over the budget is refused before its points are read, so a
// 10,000-point seed costs what a small one does. The points are not
// simulated: the study target covers that.

#include "tests/fuzz/fuzz_support.hpp"
#include "workloads/study_runner.hpp"
#include "workloads/sweep/sweep_cost.hpp"
#include "workloads/sweep/sweep_loader.hpp"

using namespace tilesim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string origin = "sweep.yaml";
  workloads::SweepLoadOptions options;
  options.config_dir = fuzz::config_dir();
  options.schedule_names = workloads::study_schedule_names(fuzz::schedules());
  options.max_events = fuzz::kFuzzMaxEvents;
  options.profile_cache = &fuzz::profile_cache();
  const config::Loaded<workloads::SweepSpec> spec = workloads::load_sweep_text(
      std::string(reinterpret_cast<const char*>(data), size), origin, options);
  fuzz::require_clean_diagnostics(spec.diagnostics, origin);
  if (spec.ok()) {
    const config::Diagnostics over_budget =
        workloads::check_sweep_cost(*spec.value, fuzz::schedules(), options.max_events);
    fuzz::require_clean_diagnostics(over_budget, origin);
  }
  return 0;
}
