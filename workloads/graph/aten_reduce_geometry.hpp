#pragma once
// How PyTorch's reduce_kernel (ATen Reduce.cuh, setReduceConfig) lays out a
// reduction over the last dimension of a rows x cols tensor: a CTA of up to
// 512 threads, block_width lanes along a row and block_height rows, each
// thread loading one vector of four elements per loop trip and waiting for it
// before the next. A CTA with few rows therefore walks its rows in many
// dependent round trips: the cost the `reduction` family pays beyond a tuned
// row kernel, larger where the rows come from HBM than from L2.

#include <cstdint>

namespace tilesim::workloads {

struct RowReductionGeometry {
  std::int64_t rows_per_cta = 1;
  std::int64_t ctas_per_row = 1;  // > 1: a row split over CTAs, combined by the last
  std::int64_t threads = 1;
  double bytes_in_flight = 0;  // a vector of four elements a thread

  std::int64_t cta_count(std::int64_t rows) const {
    return (rows + rows_per_cta - 1) / rows_per_cta * ctas_per_row;
  }
};

// `sm_count` and `sm_max_threads` size the grid ATen aims for when it
// splits long rows over CTAs (a full load of CTAs on every SM).
RowReductionGeometry aten_reduce_geometry(std::int64_t rows, std::int64_t cols,
                                          double element_bytes, int sm_count, int sm_max_threads);

}  // namespace tilesim::workloads
