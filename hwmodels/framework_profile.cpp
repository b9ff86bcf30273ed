#include "hwmodels/framework_profile.hpp"

#include <algorithm>

namespace tilesim::hw {

const std::array<std::string_view, kFrameworkKernelFamilies>& framework_kernel_family_names() {
  static const std::array<std::string_view, kFrameworkKernelFamilies> names = {
      "vectorized", "generic", "upcast_copy", "reduction", "cat"};
  return names;
}

std::optional<FrameworkKernelFamily> parse_framework_kernel_family(std::string_view name) {
  const auto& names = framework_kernel_family_names();
  const auto found = std::find(names.begin(), names.end(), name);
  if (found == names.end()) return std::nullopt;
  return static_cast<FrameworkKernelFamily>(found - names.begin());
}

}  // namespace tilesim::hw
