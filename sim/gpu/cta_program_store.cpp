#include "sim/gpu/cta_program_store.hpp"

namespace tilesim::gpu {
namespace {

// A GEMM run holds a round of CTAs' programs or two (264 on an H100 at one
// CTA per SM); the bound keeps a store from holding more than a few runs' worth.
constexpr std::size_t kMostKept = 4096;

}  // namespace

CtaProgram CtaProgramStore::take() {
  if (programs_.empty()) return {};
  CtaProgram program = std::move(programs_.back());
  programs_.pop_back();
  return program;
}

void CtaProgramStore::keep(CtaProgram&& program) {
  // A program moved from (a finished CTA's slot) has no storage to keep.
  if (programs_.size() >= kMostKept || program.steps.capacity() == 0) return;
  program.clear();
  programs_.push_back(std::move(program));
}

}  // namespace tilesim::gpu
