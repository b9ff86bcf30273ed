// Fuzz target: a hardware YAML file, read as `--hw PATH` reads it (with the
// kernel profiles it names from configs/kernels), then a small GEMM and a
// decode attention simulated on it.

#include "hwmodels/hardware_loader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

using namespace tilesim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::InputFile file(data, size, "hardware.yaml");
  const config::Loaded<hw::HardwareSpec> spec =
      hw::load_hardware_spec(file.path(), {}, fuzz::config_dir(), fuzz::profile_cache());
  fuzz::require_clean_diagnostics(spec.diagnostics, file.path().string());
  if (spec.ok()) fuzz::simulate_probe_study(*spec.value);
  return 0;
}
