#pragma once
// A bf16 GEMM of one shape and schedule, named "gemm", for tests that simulate
// GEMMs directly.

#include <cstdint>
#include <string>
#include <utility>

#include "hwmodels/data_type.hpp"
#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::testing {

inline workloads::GemmWorkload gemm(std::int64_t m, std::int64_t n, std::int64_t k,
                                    std::string schedule) {
  workloads::GemmWorkload workload;
  workload.name = "gemm";
  workload.problem = {m, n, k, hw::DataType::bf16, hw::DataType::bf16};
  workload.schedule = std::move(schedule);
  return workload;
}

}  // namespace tilesim::testing
