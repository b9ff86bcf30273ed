// Simulates one GEMM through the installed tilesim libraries and prints its time.
#include <cstdio>

#include "hwmodels/hardware_loader.hpp"
#include "workloads/study_loader.hpp"
#include "workloads/study_runner.hpp"

int main() {
  namespace ws = tilesim::workloads;
  const auto schedules = ws::builtin_gemm_schedules();
  const auto study = ws::load_study_text(
      "hardware: h100_sxm\n"
      "workloads:\n"
      "  - {name: square_4096, gemm: {m: 4096, n: 4096, k: 4096, dtype: bf16}}\n",
      "consumer", ws::study_schedule_names(schedules));
  const auto path = tilesim::hw::resolve_hardware_path("h100_sxm", TILESIM_CONFIG_DIR, {});
  if (!study.ok() || !path.ok()) return 1;
  const auto spec = tilesim::hw::load_hardware_spec(*path.value);
  if (!spec.ok()) return 1;
  const auto runs = ws::run_study(*study.value, *spec.value, schedules);
  if (!runs.ok()) return 1;
  for (const auto& run : *runs.value)
    std::printf("%s %.2f us\n", run.name.c_str(), run.result.time_us());
  return 0;
}
