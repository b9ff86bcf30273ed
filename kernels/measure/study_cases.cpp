#include "kernels/measure/study_cases.hpp"

#include <cstdio>
#include <string>

namespace tilesim::measure {
namespace {

void report(const config::SourceLocation& where, bool skip, const std::string& name,
            const std::string& message) {
  std::fprintf(stderr, "%s:%d:%d: %s: workload `%s`: %s\n", where.file.c_str(), where.line,
               where.column, skip ? "skipped" : "error", name.c_str(), message.c_str());
}

}  // namespace

std::optional<std::vector<MeasureCase>> study_cases(
    const workloads::Study& study, const hw::HardwareSpec& hardware,
    const kernels::GemmDeviceLimits& limits, std::optional<kernels::GemmTileVariant> forced_tile,
    bool skip_unsupported) {
  std::vector<MeasureCase> cases;
  int problems = 0;
  for (const auto& workload : study.workloads) {
    if (const auto* gemm = std::get_if<workloads::GemmWorkload>(&workload)) {
      auto result = make_gemm_case(*gemm, hardware, limits, forced_tile);
      if (auto* error = std::get_if<CaseError>(&result)) {
        report(gemm->where, skip_unsupported, gemm->name, error->message);
        ++problems;
      } else {
        cases.emplace_back(std::get<GemmCase>(std::move(result)));
      }
    } else if (const auto* attention = std::get_if<workloads::AttentionWorkload>(&workload)) {
      auto result = make_attention_case(*attention);
      if (auto* error = std::get_if<AttentionCaseError>(&result)) {
        report(error->where, skip_unsupported, attention->name, error->message);
        ++problems;
      } else {
        cases.emplace_back(std::get<AttentionCase>(std::move(result)));
      }
    } else {
      std::fprintf(stderr,
                   "%s: %s: workload `%s`: no reference kernel for graph or layer workloads; "
                   "tilesim-measure runs GEMM and attention workloads\n",
                   study.source_path.c_str(), skip_unsupported ? "skipped" : "error",
                   workloads::workload_name(workload).c_str());
      ++problems;
    }
  }
  if (problems > 0 && !skip_unsupported) {
    std::fprintf(stderr,
                 "tilesim-measure: %d workload(s) cannot be measured; nothing was run "
                 "(--skip-unsupported measures the others)\n",
                 problems);
    return std::nullopt;
  }
  return cases;
}

}  // namespace tilesim::measure
