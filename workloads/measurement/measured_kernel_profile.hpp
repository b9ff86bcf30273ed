#pragma once
// Which kernel profile (configs/kernels/) a GEMM measurement row describes, so
// that `tilesim compare` simulates the kernel that ran. tilesim-measure writes
// it in the `profile` column. Rows written before that column existed say only
// `kernel: tilesim_ref`, which then meant any compiled tile variant of our
// kernels, mma.sync or wgmma; their tile columns name the variant, and the one
// table below maps each compiled variant to the profile that describes it
// (tile columns that leave it open must still fit variants of one profile).

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tilesim::workloads {

// A compiled tile variant of our GEMM kernels (kernels/gemm/gemm_tile_config.cuh)
// and the kernel profile that describes it.
struct CompiledTileProfile {
  int tile_m = 0;
  int tile_n = 0;
  int tile_k = 0;
  int warps = 0;
  int stages = 0;
  std::string variant;  // GemmTileVariant's name, e.g. "m128n256k64_w12_s4_wgmma"
  std::string profile;  // "tilesim_ref", "tilesim_ref_wgmma", "tilesim_ref_wgmma_tma_store", ...
  // Rows written before the `profile` column may mean it (`kernel: tilesim_ref`
  // and its tile columns); variants compiled since never wrote such rows.
  bool in_rows_without_profile = true;
};

std::span<const CompiledTileProfile> compiled_tile_profiles();

// The profile of the compiled variant of this name (GemmTileVariant's), if there is one.
std::optional<std::string> profile_of_compiled_variant(std::string_view variant);

// The profile a row measured, or the problem and the column it is about.
struct MeasuredProfile {
  std::optional<std::string> profile;
  std::string column;   // when there is a problem
  std::string problem;  // what is wrong, then what is allowed
};

// `column_of`: column name -> 0-based index; `fields`: the row.
MeasuredProfile measured_kernel_profile(const std::map<std::string, int>& column_of,
                                        const std::vector<std::string>& fields);

}  // namespace tilesim::workloads
