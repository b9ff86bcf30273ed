#pragma once
// The attention implementations a study's `kernel:` (and a measurement CSV's
// `kernel` column) may name, and the one table from each to its attention
// profiles (configs/attention/): the flash-class profile its fused variants
// run with and the profile of its unfused path. A library backend maps to a
// class here; the mechanisms and fitted values live in the profiles.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hwmodels/attention_profile.hpp"
#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"

namespace tilesim::workloads {

struct AttentionImplementation {
  std::string name;  // `kernel:` of a study, the CSV's `kernel`, e.g. "sdpa_flash"
  // Attention profiles of the fused variants, in preference order: the first
  // the GPU has (a profile lists its architectures); empty: none.
  std::vector<std::string> fused_profiles;
  std::string unfused_profile;  // empty: no unfused path
  std::string description;      // what it is, in words, for reports and docs
  // Implementations of one family are compared fused against unfused.
  std::string family;
  // The study variants a measured row of it may name.
  std::vector<std::string> variants;
  // Our own kernels: which variant and splits run is our choice, so rows of one
  // decode problem are candidates of a choice the model should get right.
  bool own = false;
};

std::vector<AttentionImplementation> attention_implementations();
std::optional<AttentionImplementation> find_attention_implementation(std::string_view name);
std::vector<std::string> attention_implementation_names();

// The attention profile `implementation` runs `variant` with on this GPU: the
// first of its profiles for that kind of variant that lists the GPU's
// architecture, read from the GPU's configs/attention/. Problems are reported
// at `where` under `key`.
config::Loaded<hw::AttentionProfile> attention_profile_for(
    const AttentionImplementation& implementation, const std::string& variant,
    const hw::HardwareSpec& spec, const config::SourceLocation& where, const std::string& key);

}  // namespace tilesim::workloads
