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

// AddressSanitizer replaces malloc (glibc's mallopt does not reach it) and
// quarantines freed blocks, so the sanitize build has nothing to check here.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TILESIM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TILESIM_ASAN 1
#endif
#if defined(__GLIBC__) && !defined(TILESIM_ASAN)
constexpr bool kGlibcMalloc = true;
#else
constexpr bool kGlibcMalloc = false;
#endif

TEST(KeepFreedMemory, ABlockFreedAndTakenAgainFaultsNoPagesIn) {
  if (!kGlibcMalloc) GTEST_SKIP() << "the policy is glibc malloc's";
  keep_freed_memory();
  constexpr std::size_t kBytes = 8 << 20;  // 2,048 pages of 4 KiB
  touch_and_free(kBytes);
  const long before = minor_page_faults();
  touch_and_free(kBytes);
  EXPECT_LT(minor_page_faults() - before, 64);
}

}  // namespace
}  // namespace tilesim::cli
