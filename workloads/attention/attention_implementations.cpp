#include "workloads/attention/attention_implementations.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tilesim::workloads {

std::vector<AttentionImplementation> attention_implementations() {
  const std::vector<std::string> all_variants = {"unfused",  "flash",    "flash_decoding",
                                                 "paged_v1", "paged_v2", "stream_k_decode"};
  return {
      {"library",
       {"fa3_wgmma", "fa2_mma_sync"},
       "unfused_cublas_softmax",
       "the vendor-class kernels of the GPU: FA3/cuDNN-class on Hopper, FA2-class before",
       "library",
       all_variants,
       false},
      {"tilesim_ref",
       {"tilesim_ref_mma_sync"},
       "tilesim_ref_unfused",
       "our mma.sync reference kernels (kernels/attention/)",
       "tilesim_ref",
       all_variants,
       true},
      // Our Hopper flash kernel (TMA + wgmma, warp-specialized): the FA3 class,
      // as cuDNN's (both measured within 1% of each other at 4k keys, d128),
      // with its own per-CTA cost.
      {"tilesim_ref_wgmma",
       {"tilesim_ref_wgmma"},
       "",
       "our TMA + wgmma warp-specialized flash kernel "
       "(kernels/attention/flash_forward_wgmma_kernel.cuh)",
       "tilesim_ref",
       {"flash"},
       true},
      {"sdpa_flash",
       {"fa2_mma_sync"},
       "",
       "PyTorch SDPA FLASH_ATTENTION: FlashAttention-2 (split-KV below one wave)",
       "sdpa",
       {"flash"},
       false},
      {"sdpa_cudnn",
       {"fa3_wgmma"},
       "",
       "PyTorch SDPA CUDNN_ATTENTION: cuDNN's fused attention (sm90 wgmma)",
       "sdpa",
       {"flash"},
       false},
      {"sdpa_efficient",
       {"cutlass_mem_efficient"},
       "",
       "PyTorch SDPA EFFICIENT_ATTENTION: the CUTLASS memory-efficient kernel (xFormers)",
       "sdpa",
       {"flash"},
       false},
      {"sdpa_math",
       {},
       "eager_math",
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

config::Loaded<hw::AttentionProfile> attention_profile_for(
    const AttentionImplementation& implementation, const std::string& variant,
    const hw::HardwareSpec& spec, const config::SourceLocation& where, const std::string& key) {
  const bool unfused = variant == "unfused";
  const std::vector<std::string> wanted =
      unfused ? (implementation.unfused_profile.empty()
                     ? std::vector<std::string>{}
                     : std::vector<std::string>{implementation.unfused_profile})
              : implementation.fused_profiles;
  for (const std::string& name : wanted) {
    const auto profile = spec.attention_profiles.find(name);
    if (profile == spec.attention_profiles.end()) continue;
    config::Loaded<hw::AttentionProfile> found;
    found.value = profile->second;
    return found;
  }
  config::Loaded<hw::AttentionProfile> missing;
  missing.diagnostics.add(
      where, key,
      wanted.empty()
          ? fmt::format("{} has no {} path; its variants: {}", implementation.name,
                        unfused ? "unfused" : "fused", fmt::join(implementation.variants, ", "))
          : fmt::format("{} runs {} with the attention profile {}; none of them runs on {} "
                        "({}): attention profiles are read from the attention/ folder beside "
                        "the hardware file's kernels/ folder",
                        implementation.name, variant, fmt::join(wanted, " or "), spec.architecture,
                        spec.name));
  return missing;
}

}  // namespace tilesim::workloads
