#pragma once
// The kernels of a split-KV decode (FlashDecoding): one CTA per (KV split, KV
// head, sequence) attends the packed queries of a GQA group to one split of
// the keys and stores an fp32 partial O and log-sum-exp; a combine kernel
// merges the splits. Every sequence is cut at the same block boundaries, set
// by the longest one, so a short sequence leaves later splits empty. With one
// split and no forced combine the kernel writes O itself.
//
// `flash_decoding` runs it with its split count; our paged kernels run our
// decode CTA through it too (kernels/attention/decode/: paged_v1 is one split,
// paged_v2 splits of whole 512-key units). Our kernel has no combine kernel:
// the last split of a pair to finish merges the pair's partials (round 6).

#include <cstdint>
#include <string>

#include "hwmodels/hardware_spec.hpp"
#include "workloads/attention/attention_variant.hpp"
#include "workloads/attention/flash_tile.hpp"

namespace tilesim::workloads {

struct SplitKvPlan {
  std::int64_t splits = 1;
  std::int64_t blocks_per_split = 1;  // of tile.key_rows keys
  bool always_combine = false;        // library kernels: the combine even for one split (vLLM's v2)
};

// Blocks of the longest sequence cut into `splits` (clamped to 1 .. blocks),
// evened to whole blocks per split: the splits that remain (our kernels'
// even_plan in kernels/attention/decode/decode_plan.cu).
SplitKvPlan even_split_kv_plan(const AttentionShape& shape, const FlashTile& tile,
                               std::int64_t splits);

// `kernel_name` names the split kernel's launch (after the workload's name).
std::vector<gpu::KernelLaunch> split_kv_decode_kernels(
    const AttentionWorkload& workload, const hw::HardwareSpec& spec, const AttentionKernel& kernel,
    const FlashTile& tile, const SplitKvPlan& plan, const std::string& kernel_name);

}  // namespace tilesim::workloads
