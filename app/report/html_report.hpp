#pragma once
// `--html PATH` of simulate, compare and sweep: one self-contained page per
// command with its tables and plots (html_page.hpp), to send to a colleague.

#include <string>
#include <vector>

#include "app/report/comparison_report.hpp"
#include "app/report/study_report.hpp"
#include "workloads/sweep/sweep_runner.hpp"
#include "workloads/sweep/sweep_spec.hpp"

namespace tilesim::report {

// Results table, every SM's CTAs over time, and each workload's kernels.
std::string study_html(const StudyReport& report);

// Metrics per kernel class (GEMM) and implementation (attention), the
// predicted-vs-measured scatter, every row worst first, the GEMM schedule
// choices, attention's fused/unfused ratios and decode variant choices.
std::string comparison_html(const ComparedRows& rows, const ComparisonSummary& summary,
                            const std::string& measured_path, const std::string& hardware);

// The sweep's plot and its rows.
std::string sweep_html(const workloads::SweepSpec& spec, const workloads::SweepResult& result,
                       const std::string& sweep_path);

}  // namespace tilesim::report
