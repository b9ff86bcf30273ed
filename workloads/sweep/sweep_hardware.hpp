#pragma once
// The hardware of a sweep's points: a GPU file (the sweep's, or a value of a
// `hardware` axis) with the `--set` overrides and the point's hw.<key> values
// applied, loaded and validated once per distinct combination. Problems with a
// varied value are reported at that value in the sweep file.

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_loader.hpp"
#include "hwmodels/profile_cache.hpp"
#include "workloads/sweep/sweep_spec.hpp"

namespace tilesim::workloads {

struct HardwareOverride {
  hw::FieldOverride field;
  std::optional<SweepSource> source;  // the `vary:` value; none for --set
};

// The hardware of one point.
struct HardwareChoice {
  std::filesystem::path path;
  std::vector<HardwareOverride> overrides;  // --set first, then the varied fields
};

class SweepHardware {
 public:
  // `config_dir`: where kernel profiles are found for a GPU file outside a
  // `hw/` folder (hardware_loader.hpp).
  // `shared_profiles`: a profile cache kept between sweeps, or null for the sweep's own.
  SweepHardware(std::filesystem::path config_dir, hw::ProfileCache* shared_profiles)
      : config_dir_(std::move(config_dir)), shared_profiles_(shared_profiles) {}
  // The index of the loaded spec, or nullopt when it does not load; the problems
  // are added to `diagnostics` the first time only.
  std::optional<std::size_t> load(const HardwareChoice& choice, config::Diagnostics& diagnostics);
  const hw::HardwareSpec& spec(std::size_t index) const { return specs_.at(index); }
  std::vector<hw::HardwareSpec> take_specs() && { return std::move(specs_); }

 private:
  std::filesystem::path config_dir_;
  hw::ProfileCache* shared_profiles_;
  hw::ProfileCache own_profiles_;  // a hardware axis's GPUs, and --set variants of one
  std::map<std::string, std::optional<std::size_t>> loaded_;  // by choice
  std::vector<hw::HardwareSpec> specs_;
};

// A `hardware:` value (or --hw, or a `hardware` axis value) as a file: a path
// relative to the sweep file when one exists there, else as for a study.
config::Loaded<std::filesystem::path> resolve_sweep_hardware(
    const std::string& reference, const std::filesystem::path& sweep_path,
    const std::filesystem::path& config_dir, const config::SourceLocation& where);

}  // namespace tilesim::workloads
