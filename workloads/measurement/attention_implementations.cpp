#include "workloads/measurement/attention_implementations.hpp"

#include <algorithm>

namespace tilesim::workloads {

std::vector<AttentionImplementation> attention_implementations() {
  const std::vector<std::string> all_variants = {"unfused",  "flash",    "flash_decoding",
                                                 "paged_v1", "paged_v2", "stream_k_decode"};
  return {
      {"tilesim_ref", "tilesim_ref", "our mma.sync reference kernels (kernels/attention/)",
       "tilesim_ref", all_variants, true},
      {"sdpa_flash",
       "library",
       "PyTorch SDPA FLASH_ATTENTION: FlashAttention-2 (split-KV below "
       "one wave)",
       "sdpa",
       {"flash"},
       false},
      {"sdpa_cudnn",
       "library",
       "PyTorch SDPA CUDNN_ATTENTION: cuDNN's fused attention",
       "sdpa",
       {"flash"},
       false},
      {"sdpa_efficient",
       "library",
       "PyTorch SDPA EFFICIENT_ATTENTION: the CUTLASS memory-efficient kernel (xFormers)",
       "sdpa",
       {"flash"},
       false},
      {"sdpa_math",
       "library",
       "PyTorch SDPA MATH: eager matmul, mask, softmax, matmul (S and P in the input type)",
       "sdpa",
       {"unfused"},
       false},
  };
}

std::optional<AttentionImplementation> find_attention_implementation(std::string_view name) {
  std::vector<AttentionImplementation> table = attention_implementations();
  const auto found = std::find_if(table.begin(), table.end(),
                                  [&](const AttentionImplementation& i) { return i.name == name; });
  if (found == table.end()) return std::nullopt;
  return std::move(*found);
}

std::vector<std::string> attention_implementation_names() {
  std::vector<std::string> names;
  for (const AttentionImplementation& implementation : attention_implementations()) {
    names.push_back(implementation.name);
  }
  return names;
}

}  // namespace tilesim::workloads
