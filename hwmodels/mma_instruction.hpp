#pragma once
// Which matrix instruction a kernel's main loop issues: it sets the share of
// the SM's tensor-core peak the loop can reach (mma.sync reaches ~64% of wgmma
// on Hopper) and, for simt, that the work runs on the CUDA cores.

namespace tilesim::hw {

enum class MmaInstruction { mma_sync, wgmma, simt };

}  // namespace tilesim::hw
