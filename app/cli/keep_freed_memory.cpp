#include "app/cli/keep_freed_memory.hpp"

#include <cstdlib>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tilesim::cli {
namespace {
#if defined(__GLIBC__)
// Free space at the heap top kept before trimming: above any one point's needs.
constexpr int kTrimThresholdBytes = 64 << 20;
// Blocks from this size are mapped on their own (and unmapped when freed):
// glibc's largest fixed threshold, so only records of huge grids are.
constexpr int kMmapThresholdBytes = 32 << 20;
#endif
}  // namespace

void keep_freed_memory() {
#if defined(__GLIBC__)
  mallopt(M_TRIM_THRESHOLD, kTrimThresholdBytes);
  mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
#endif
}

}  // namespace tilesim::cli
