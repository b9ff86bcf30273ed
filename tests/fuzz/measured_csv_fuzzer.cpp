// Fuzz target: a measurement CSV, read as `tilesim compare --measured` reads
// it; a file of a few rows is also re-simulated on the H100 within a tiny
// cost budget.

#include "tests/fuzz/fuzz_support.hpp"
#include "workloads/measurement/measured_csv.hpp"
#include "workloads/measurement/measurement_comparison.hpp"

using namespace tilesim;

namespace {
// Rows re-simulated at most: a longer file is only read.
constexpr std::size_t kMaxSimulatedRows = 4;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string origin = "measured.csv";
  const config::Loaded<workloads::MeasuredRows> rows = workloads::read_measured_csv_text(
      std::string(reinterpret_cast<const char*>(data), size), origin, fuzz::schedules().names());
  fuzz::require_clean_diagnostics(rows.diagnostics, origin);
  if (!rows.ok() || rows.value->gemms.size() + rows.value->attention.size() > kMaxSimulatedRows) {
    return 0;
  }
  const auto gemms =
      workloads::simulate_measured(rows.value->gemms, fuzz::h100(), fuzz::schedules(),
                                   workloads::LibrarySchedule::choose, fuzz::kFuzzMaxEvents);
  fuzz::require_clean_diagnostics(gemms.diagnostics, origin);
  const auto attention =
      workloads::simulate_measured_attention(rows.value->attention, fuzz::h100(), fuzz::schedules(),
                                             workloads::HostDispatch::probe, fuzz::kFuzzMaxEvents);
  fuzz::require_clean_diagnostics(attention.diagnostics, origin);
  return 0;
}
