#include "hwmodels/calibrated_hardware.hpp"

#include <string_view>

namespace tilesim::hw {

std::optional<std::string> calibrated_hardware_name(const std::string& name,
                                                    const std::filesystem::path& config_dir) {
  constexpr std::string_view kSuffix = ".measured";
  const bool plain_name = !name.empty() && name.find('/') == std::string::npos &&
                          !name.ends_with(".yaml") && !name.ends_with(kSuffix);
  if (!plain_name) return std::nullopt;
  const std::string calibrated = name + std::string(kSuffix);
  std::error_code ignored;
  if (!std::filesystem::is_regular_file(config_dir / "hw" / (calibrated + ".yaml"), ignored)) {
    return std::nullopt;
  }
  return calibrated;
}

}  // namespace tilesim::hw
