// Fuzz target: `--set key=value` assignments, one per line of the input,
// parsed as the command line's --set parses them and applied to configs/hw/h100_sxm.yaml
// (hardware fields and `kernels.<name>.<field>`), then a small GEMM and a
// decode attention simulated on the result.

#include <string_view>
#include <vector>

#include "hwmodels/hardware_loader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

using namespace tilesim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> assignments;
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  while (!rest.empty()) {
    const std::size_t newline = rest.find('\n');
    assignments.emplace_back(rest.substr(0, newline));
    rest = newline == std::string_view::npos ? std::string_view{} : rest.substr(newline + 1);
  }
  const config::Loaded<std::vector<hw::FieldOverride>> overrides =
      hw::parse_field_overrides(assignments);
  fuzz::require_clean_diagnostics(overrides.diagnostics, "");
  if (!overrides.ok()) return 0;
  const std::filesystem::path h100_file = fuzz::config_dir() / "hw" / "h100_sxm.yaml";
  const config::Loaded<hw::HardwareSpec> spec = hw::load_hardware_spec(
      h100_file, *overrides.value, fuzz::config_dir(), fuzz::profile_cache());
  fuzz::require_clean_diagnostics(spec.diagnostics, h100_file.string());
  if (spec.ok()) fuzz::simulate_probe_study(*spec.value);
  return 0;
}
