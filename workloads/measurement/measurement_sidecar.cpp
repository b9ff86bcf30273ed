#include "workloads/measurement/measurement_sidecar.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

namespace tilesim::workloads {

std::optional<std::string> sidecar_study_hardware(const std::filesystem::path& csv_path) {
  std::ifstream file(std::filesystem::path(csv_path).replace_extension(".json"));
  if (!file) return std::nullopt;
  // A sidecar that does not parse names no hardware; compare then asks for --hw.
  const nlohmann::json sidecar = nlohmann::json::parse(file, nullptr, false);
  if (!sidecar.is_object() || !sidecar.contains("study_hardware") ||
      !sidecar["study_hardware"].is_string()) {
    return std::nullopt;
  }
  return sidecar["study_hardware"].get<std::string>();
}

}  // namespace tilesim::workloads
