#pragma once
// What a wave of our decode CTAs pays beyond its bytes: each CTA keeps its
// pipeline's K/V loads in flight, so HBM holds a queue of (resident CTAs x
// bytes in flight per CTA), and the wave ends when the last CTA's last
// requests have waited out that queue (Little's law: queue / bandwidth). The
// fluid model serves every CTA its equal share, so its CTAs finish together;
// measured, one-wave split-KV launches of long CTAs take 3-8 us longer than the
// fluid time of their bytes (attention calibration 4; ncu at 1 x 32k: the split
// kernel 50.0 us for 44.7 us of bytes at the sustained rate,
// bench/measurements/h100_sxm_2026-11-27_attention_round5_NOTES.md).
// Computed from the kernel's geometry and the HBM rate; nothing fitted.

#include <algorithm>
#include <cstdint>

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/block_scheduler.hpp"
#include "workloads/attention/flash_tile.hpp"

namespace tilesim::workloads {

// `ctas` CTAs of `tile`, each streaming `blocks_per_cta` K/V blocks; the
// queue is that of the last wave (a launch of 144 CTAs on 132 slots ends with 12).
inline double own_decode_queue_drain_s(const FlashTile& tile, std::int64_t ctas,
                                       double blocks_per_cta, const hw::HardwareSpec& spec) {
  const std::int64_t slots =
      std::int64_t{spec.sm.count} * gpu::BlockScheduler(spec.sm).ctas_per_sm(tile.footprint());
  const std::int64_t resident = ctas <= 0 ? 0 : ctas - slots * ((ctas - 1) / slots);
  const double blocks_in_flight =
      std::min(static_cast<double>(std::max(1, tile.stages - 1)), blocks_per_cta);
  return static_cast<double>(resident) * blocks_in_flight * tile.kv_block_bytes() *
         tile.hbm_bytes_per_kv_byte / spec.hbm.sustained_bytes_per_s();
}

}  // namespace tilesim::workloads
