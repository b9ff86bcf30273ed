#pragma once
// Runs `visit(DecodeTileConfig<...>{})` for the compiled tile that fits the
// problem's element type, head dimension and packed query rows.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <stdexcept>

#include "kernels/attention/decode/decode_tile_config.cuh"
#include "kernels/gemm/gemm_launch.hpp"

namespace tilesim::kernels::decode {

template <typename Element, int kHeadDim, class Visit>
void visit_decode_rows(int row_tiles, Visit&& visit) {
  switch (row_tiles) {
    case 1:
      visit(DecodeTileConfig<Element, kHeadDim, 1>{});
      return;
    case 2:
      visit(DecodeTileConfig<Element, kHeadDim, 2>{});
      return;
    case 4:
      visit(DecodeTileConfig<Element, kHeadDim, 4>{});
      return;
    default:
      throw std::invalid_argument("decode attention: no tile for this many query rows");
  }
}

template <typename Element, class Visit>
void visit_decode_head_dim(int head_dim, int row_tiles, Visit&& visit) {
  if (head_dim == 64) {
    visit_decode_rows<Element, 64>(row_tiles, visit);
  } else {
    visit_decode_rows<Element, 128>(row_tiles, visit);
  }
}

// The caller has checked the problem (require_decode_problem).
template <class Visit>
void visit_decode_config(ElementType dtype, int head_dim, int row_tiles, Visit&& visit) {
  if (dtype == ElementType::bf16) {
    visit_decode_head_dim<__nv_bfloat16>(head_dim, row_tiles, visit);
  } else {
    visit_decode_head_dim<__half>(head_dim, row_tiles, visit);
  }
}

}  // namespace tilesim::kernels::decode
