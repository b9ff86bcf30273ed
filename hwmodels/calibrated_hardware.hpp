#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace tilesim::hw {

// The shipped calibrated description of a GPU named by `name` ("h100_sxm" ->
// "h100_sxm.measured", written by `tilesim-measure calibrate` on that GPU), if
// `<config_dir>/hw/<name>.measured.yaml` exists. A path, or a name that already
// is a calibrated one, has none: the caller meant that file.
std::optional<std::string> calibrated_hardware_name(const std::string& name,
                                                    const std::filesystem::path& config_dir);

}  // namespace tilesim::hw
