#pragma once
// The concrete schedules `schedule: compare` and `schedule: auto` try.
//   compare: data-parallel, split-K (serial and parallel, default splits) and
//            the three Stream-K modes, all with the workload's tile.
//   auto:    the same schedules plus split counts 2..64, over a small set of
//            tile shapes that fit the hardware; the fastest wins. No Stream-K
//            where the profile's kernel for unaligned rows has none
//            (`unaligned_schedules`) and the rows are not 16-byte aligned;
//            there split-K spreads the last wave instead (3 slices too, up to
//            four waves of CTAs), each count with the reduction cuBLAS runs
//            (a reduction kernel after one wave of slices, else serial).

#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::workloads {

std::vector<GemmWorkload> compare_candidates(const GemmWorkload& workload);
std::vector<GemmWorkload> auto_candidates(const GemmWorkload& workload,
                                          const hw::HardwareSpec& spec);

}  // namespace tilesim::workloads
