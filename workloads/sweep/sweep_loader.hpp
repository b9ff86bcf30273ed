#pragma once
// Reads a sweep YAML file (configs/sweeps/*.yaml) into a validated SweepSpec.
//
//   hardware: h100_sxm
//   workload:                       # one study workload (`name` optional)
//     gemm: {m: 1536, n: 1536, k: 1536, dtype: bf16}
//   schedules: [data_parallel, stream_k]   # optional
//   vary:                           # 1 or 2 keys; points = cartesian product
//     - key: gemm.m
//       values: [256, 512, 1024]
//     - key: hw.l2.capacity
//       range: {from: "25 MiB", to: "200 MiB", factor: 2}
//   plot: {y: time_us}
//
// Every point is checked before any runs, like a workload of a study on its
// hardware; every problem is reported at once, at the sweep-file position of the
// entry that caused it.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_loader.hpp"
#include "hwmodels/schema_markdown.hpp"
#include "workloads/sweep/sweep_spec.hpp"
#include "workloads/workload_cost.hpp"

namespace tilesim::workloads {

struct SweepLoadOptions {
  std::filesystem::path config_dir;              // configs/: hardware names live in hw/
  std::optional<std::string> hardware_override;  // --hw: instead of the file's `hardware`
  std::vector<hw::FieldOverride> overrides;      // --set: applied to every point
  std::vector<std::string> schedule_names;       // what `schedules:` may name
  // The cost budget (docs/limits.md): a sweep whose simulations cannot fit is
  // refused before its points are checked.
  double max_events = kDefaultMaxEvents;
  // Threads that read the points (each point's study is generated and read
  // again, which costs about as much as simulating a small one).
  int threads = 1;
  // Where the points' GPUs keep the profiles they read
  // (hwmodels/profile_cache.hpp): one kept between loads (the sweep fuzz
  // target), else the sweep's own.
  hw::ProfileCache* profile_cache = nullptr;
};

config::Loaded<SweepSpec> load_sweep(const std::filesystem::path& path,
                                     const SweepLoadOptions& options);

// The same for sweep YAML held in memory; `origin` names it in diagnostics, and
// relative hardware paths are taken relative to it.
config::Loaded<SweepSpec> load_sweep_text(const std::string& text, const std::string& origin,
                                          const SweepLoadOptions& options);

// The keys of a sweep file and of a `vary:` entry, as reference tables.
std::vector<config::ReferenceSection> sweep_reference_sections();

}  // namespace tilesim::workloads
