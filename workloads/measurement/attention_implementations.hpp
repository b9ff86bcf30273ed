#pragma once
// The attention implementations a measurement CSV may name in its `kernel`
// column, and how each is simulated: the one table from implementation to the
// hardware's kernel profile (and to the implementation's class). Today every
// library backend is simulated with the `library` profile; the per-class
// attention profiles (FA2-class, cuDNN, CUTLASS memory-efficient, eager math)
// will give each class its own profile by changing its row here.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilesim::workloads {

struct AttentionImplementation {
  std::string name;     // the CSV's `kernel`, e.g. "sdpa_flash"
  std::string profile;  // hardware kernel profile it is simulated with
  // What the implementation is, in words (its class), for reports and docs.
  std::string kernel_class;
  // Implementations of one family are compared fused against unfused.
  std::string family;
  // The study variants it runs; a measured row must name one of them.
  std::vector<std::string> variants;
  // Our own kernels: which variant and splits run is our choice, so rows of one
  // decode problem are candidates of a choice the model should get right.
  bool own = false;
};

std::vector<AttentionImplementation> attention_implementations();
std::optional<AttentionImplementation> find_attention_implementation(std::string_view name);
std::vector<std::string> attention_implementation_names();

}  // namespace tilesim::workloads
