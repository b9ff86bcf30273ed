#pragma once
// A framework profile: what the small kernels of a deep-learning framework
// cost beyond the work they do (configs/frameworks/<name>.yaml). A plain
// PyTorch forward launches a few families of ATen kernels: each family's code
// (index arithmetic, vectorization, a two-phase reduction) adds a fixed time
// to every CTA before its first load, which a tuned kernel of the same op
// does not pay and which sets the pace of small-batch decode in a CUDA graph.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilesim::hw {

// ATen's kernel families, as the profiler names their kernels.
enum class FrameworkKernelFamily : std::size_t {
  vectorized,   // vectorized_elementwise_kernel: contiguous, one dtype
  generic,      // elementwise_kernel: broadcast or strided operands (offset arithmetic)
  upcast_copy,  // unrolled_elementwise_kernel: a dtype-changing copy (bf16 -> fp32)
  reduction,    // reduce_kernel: a row reduction split over CTAs, then combined
  cat,          // CatArrayBatchedCopy
};
inline constexpr std::size_t kFrameworkKernelFamilies = 5;

// Names as YAML files and reports spell them, in enum order.
const std::array<std::string_view, kFrameworkKernelFamilies>& framework_kernel_family_names();
std::optional<FrameworkKernelFamily> parse_framework_kernel_family(std::string_view name);

struct FrameworkProfile {
  std::string name;  // file name without .yaml
  std::string source_path;
  std::string description;
  std::vector<std::string> architectures;
  // Fixed time of each CTA of a family's kernel before its first load.
  std::array<double, kFrameworkKernelFamilies> cta_setup_s{};

  double setup_s(FrameworkKernelFamily family) const {
    return cta_setup_s[static_cast<std::size_t>(family)];
  }
};

}  // namespace tilesim::hw
