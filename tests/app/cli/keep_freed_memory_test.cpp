// The command's allocator policy: a block freed and allocated again is served
// from memory the process kept, without faulting its pages in a second time.
// Under glibc's defaults a block this size is mapped on its own and unmapped
// when freed (or, once the dynamic threshold has grown, trimmed from the heap
// top), and touching it again takes one page fault per page.

#include "app/cli/keep_freed_memory.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace tilesim::cli {
namespace {

long minor_page_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Allocates `bytes`, writes every page, frees it; volatile so it is not elided.
void touch_and_free(std::size_t bytes) {
  char* volatile block = static_cast<char*>(std::malloc(bytes));
  ASSERT_NE(block, nullptr);
  std::memset(block, 1, bytes);
  std::free(block);
}

TEST(KeepFreedMemory, ABlockFreedAndTakenAgainFaultsNoPagesIn) {
#if !defined(__GLIBC__)
  GTEST_SKIP() << "the policy is glibc's";
#endif
  keep_freed_memory();
  constexpr std::size_t kBytes = 8 << 20;  // 2,048 pages of 4 KiB
  touch_and_free(kBytes);
  const long before = minor_page_faults();
  touch_and_free(kBytes);
  EXPECT_LT(minor_page_faults() - before, 64);
}

}  // namespace
}  // namespace tilesim::cli
