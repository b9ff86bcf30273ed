#pragma once
// The JSON sidecar beside a measurement CSV (same name, `.json`): what the
// measuring run recorded about itself. `tilesim compare` takes the study's
// hardware from it, so a committed file compares with no flag.

#include <filesystem>
#include <optional>
#include <string>

namespace tilesim::workloads {

// The sidecar's `study_hardware` (a hardware name or path, as a study names
// it), or nothing when the CSV has no sidecar or the sidecar names none.
std::optional<std::string> sidecar_study_hardware(const std::filesystem::path& csv_path);

}  // namespace tilesim::workloads
