#include "workloads/measurement/measured_kernel_profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>

namespace tilesim::workloads {
namespace {

// Every tile variant kernels/gemm compiles (GemmTileVariant), and the profile
// that describes it: the cp.async + mma.sync variants are `tilesim_ref` with a
// tile override, the TMA + wgmma variants `tilesim_ref_wgmma` (C stored from
// registers), `tilesim_ref_wgmma_tma_store` (the same tile, C stored
// through shared memory by TMA) and `tilesim_ref_wgmma_multicast` (that
// kernel in 2-CTA clusters, B multicast; 256- or 192-column tiles) and
// `tilesim_ref_wgmma_multicast_m192` (that kernel with 192x192 tiles) and
// `tilesim_ref_wgmma_multicast_m192n96` (with 192x96 tiles;
// `tilesim_ref_wgmma_multicast_m192n96_c2n` with its cluster along n, A multicast).
const std::vector<CompiledTileProfile> kCompiledTiles = {
    {128, 128, 32, 8, 4, "m128n128k32_w8_s4", "tilesim_ref"},
    {128, 128, 32, 4, 4, "m128n128k32_w4_s4", "tilesim_ref"},
    {256, 128, 64, 8, 3, "m256n128k64_w8_s3", "tilesim_ref"},
    {256, 128, 64, 8, 4, "m256n128k64_w8_s4", "tilesim_ref"},
    {128, 256, 32, 8, 4, "m128n256k32_w8_s4", "tilesim_ref"},
    {128, 256, 64, 12, 4, "m128n256k64_w12_s4_wgmma", "tilesim_ref_wgmma"},
    {128, 256, 64, 12, 4, "m128n256k64_w12_s4_wgmma_tma_store", "tilesim_ref_wgmma_tma_store",
     false},
    {128, 256, 64, 12, 4, "m128n256k64_w12_s4_wgmma_tma_store_c2", "tilesim_ref_wgmma_multicast",
     false},
    {128, 192, 64, 12, 4, "m128n192k64_w12_s4_wgmma_tma_store_c2", "tilesim_ref_wgmma_multicast",
     false},
    {192, 192, 64, 16, 3, "m192n192k64_w16_s3_wgmma_tma_store_c2",
     "tilesim_ref_wgmma_multicast_m192", false},
    {192, 96, 64, 16, 4, "m192n96k64_w16_s4_wgmma_tma_store_c2",
     "tilesim_ref_wgmma_multicast_m192n96", false},
    {192, 96, 64, 16, 4, "m192n96k64_w16_s4_wgmma_tma_store_c2n",
     "tilesim_ref_wgmma_multicast_m192n96_c2n", false},
};

std::optional<int> parse_int(const std::string& text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The variants a row without a `profile` column can mean.
std::string compiled_tiles_text() {
  std::string text;
  for (const CompiledTileProfile& tile : kCompiledTiles) {
    if (!tile.in_rows_without_profile) continue;
    text += fmt::format("{}{}x{}x{} {} warps {} stages ({})", text.empty() ? "" : ", ", tile.tile_m,
                        tile.tile_n, tile.tile_k, tile.warps, tile.stages, tile.profile);
  }
  return text;
}

}  // namespace

std::span<const CompiledTileProfile> compiled_tile_profiles() {
  return kCompiledTiles;
}

std::optional<std::string> profile_of_compiled_variant(std::string_view variant) {
  for (const CompiledTileProfile& tile : kCompiledTiles) {
    if (tile.variant == variant) return tile.profile;
  }
  return std::nullopt;
}

MeasuredProfile measured_kernel_profile(const std::map<std::string, int>& column_of,
                                        const std::vector<std::string>& fields) {
  auto field = [&](const char* column) -> std::string {
    const auto found = column_of.find(column);
    return found == column_of.end() ? "" : fields.at(static_cast<std::size_t>(found->second));
  };
  if (const std::string written = field("profile"); !written.empty()) return {written, "", ""};
  const std::string kernel = field("kernel");
  if (kernel != "tilesim_ref") return {kernel, "", ""};
  // Written before the `profile` column: the tile columns given name the
  // compiled variants they can be; those must all be of one profile.
  constexpr std::array<const char*, 5> kTileColumns = {"tile_m", "tile_n", "tile_k", "warps",
                                                       "stages"};
  std::array<std::optional<int>, 5> tile;
  std::string given;
  for (std::size_t i = 0; i < kTileColumns.size(); ++i) {
    const std::string text = field(kTileColumns[i]);
    if (text.empty()) continue;
    tile[i] = parse_int(text);
    if (!tile[i]) {
      return {std::nullopt, kTileColumns[i],
              fmt::format("a tilesim_ref row without a `profile` column is matched to a "
                          "compiled kernel by its tile columns; \"{}\" is not an integer",
                          text)};
    }
    given += fmt::format("{}{} {}", given.empty() ? "" : ", ", kTileColumns[i], text);
  }
  if (given.empty()) return {kernel, "", ""};  // no tile given: the profile's own
  std::vector<std::string> profiles;
  for (const CompiledTileProfile& compiled : kCompiledTiles) {
    if (!compiled.in_rows_without_profile) continue;
    const std::array<int, 5> shape = {compiled.tile_m, compiled.tile_n, compiled.tile_k,
                                      compiled.warps, compiled.stages};
    bool matches = true;
    for (std::size_t i = 0; i < shape.size(); ++i) {
      matches = matches && (!tile[i] || *tile[i] == shape[i]);
    }
    if (matches &&
        std::find(profiles.begin(), profiles.end(), compiled.profile) == profiles.end()) {
      profiles.push_back(compiled.profile);
    }
  }
  if (profiles.size() == 1) return {profiles.front(), "", ""};
  if (profiles.empty()) {
    return {std::nullopt, "tile_m",
            fmt::format("no compiled kernel has {}, so the row names no kernel profile (add a "
                        "`profile` column); compiled: {}",
                        given, compiled_tiles_text())};
  }
  return {std::nullopt, "tile_m",
          fmt::format("{} match compiled kernels of {} profiles: {}; give warps and stages, or a "
                      "`profile` column",
                      given, profiles.size(), fmt::join(profiles, ", "))};
}

}  // namespace tilesim::workloads
