#include "sim/gpu/spare_cta_programs.hpp"

#include <vector>

namespace tilesim::gpu {
namespace {

// A GEMM run holds a round of CTAs' programs or two (264 on an H100 at one
// CTA per SM); the bound keeps a thread from holding more than a few runs' worth.
constexpr std::size_t kMostKept = 4096;

std::vector<CtaProgram>& this_threads_programs() {
  thread_local std::vector<CtaProgram> programs;
  return programs;
}

}  // namespace

CtaProgram take_spare_program() {
  std::vector<CtaProgram>& programs = this_threads_programs();
  if (programs.empty()) return {};
  CtaProgram program = std::move(programs.back());
  programs.pop_back();
  return program;
}

void keep_spare_program(CtaProgram&& program) {
  std::vector<CtaProgram>& programs = this_threads_programs();
  // A program moved from (a finished CTA's slot) has no storage to keep.
  if (programs.size() >= kMostKept || program.steps.capacity() == 0) return;
  program.clear();
  programs.push_back(std::move(program));
}

}  // namespace tilesim::gpu
