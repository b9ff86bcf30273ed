#include "kernels/microbench/calibrated_hardware_file.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "hwmodels/hardware_loader.hpp"
#include "kernels/microbench/hardware_yaml_rewrite.hpp"
#include "kernels/microbench/measured_hardware_fields.hpp"

namespace tilesim::microbench {
namespace {

std::string file_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

// The header that says where the file came from, above the base file's own.
std::string provenance_header(const CalibratedFileSources& sources,
                              const CalibrationProvenance& provenance) {
  return fmt::format(
      "# Calibrated by `tilesim-measure calibrate` on {} ({} SMs, driver {}, CUDA {}.{}), {}.\n"
      "# Values commented `measured:` come from kernels/microbench{}; every other value and\n"
      "# comment is the base file's ({}).\n",
      provenance.gpu, provenance.sm_count, provenance.driver_version,
      provenance.cuda_runtime / 1000, provenance.cuda_runtime % 1000 / 10, provenance.date_utc,
      sources.raw_csv_name.empty() ? "" : fmt::format(" (raw results: {})", sources.raw_csv_name),
      file_name(sources.base_path));
}

}  // namespace

config::Loaded<std::string> calibrated_hardware_yaml(const CalibratedFileSources& sources,
                                                     const std::string& config_dir,
                                                     const std::vector<MicrobenchResult>& results,
                                                     const CalibrationProvenance& provenance) {
  const config::Loaded<hw::HardwareSpec> base =
      hw::load_hardware_spec(sources.base_path, {}, config_dir);
  if (!base.ok()) return {std::nullopt, base.diagnostics};
  std::ifstream file(sources.base_path, std::ios::binary);
  std::ostringstream base_text;
  base_text << file.rdbuf();

  std::vector<MeasuredField> fields =
      measured_fields(results, *base.value, provenance.date_utc.substr(0, 10));
  fields.push_back({"name", sources.name, "tilesim-measure calibrate of " + base.value->name});
  config::Loaded<std::string> text =
      rewrite_hardware_yaml(base_text.str(), sources.base_path, fields);
  if (text.ok()) text.value = provenance_header(sources, provenance) + *text.value;
  return text;
}

}  // namespace tilesim::microbench
