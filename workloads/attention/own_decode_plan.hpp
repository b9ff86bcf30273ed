#pragma once
// How our split kernels (`kernel: tilesim_ref`) cut a decode batch, read from
// kernels/attention/decode/decode_plan.cu: flash_decoding's default splits
// and paged_v2's partitions. Both weigh candidate cuts by when the launch's
// last CTA would end, the CTAs dispatched in grid order (split, KV head,
// sequence) to whichever resident slot frees first.

#include <cstdint>

#include "hwmodels/hardware_spec.hpp"
#include "workloads/attention/attention_workload.hpp"
#include "workloads/attention/flash_tile.hpp"
#include "workloads/attention/split_kv_decode.hpp"

namespace tilesim::workloads {

// flash_decoding with `splits: 0`: one wave of resident CTAs over the pairs
// (floor(slots / pairs), at least 1), or more splits, up to the count that
// shares the batch's blocks evenly over the slots, when they end the launch
// sooner (a skewed batch whose pairs alone fill a wave).
SplitKvPlan own_flash_decoding_plan(const AttentionShape& shape, const hw::HardwareSpec& spec,
                                    const FlashTile& tile);

// paged_v2: whole 512-key units, the batch's keys over every pair shared
// evenly by one wave of resident CTAs, rounded up; larger partitions when
// they end the launch sooner (a rounding that leaves a second wave).
SplitKvPlan own_paged_v2_plan(const AttentionShape& shape, const hw::HardwareSpec& spec,
                              const FlashTile& tile);

}  // namespace tilesim::workloads
