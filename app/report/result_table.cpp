#include "app/report/result_table.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "app/report/kernel_breakdown.hpp"
#include "app/report/model_summary.hpp"

namespace tilesim::report {
namespace {

std::string parameter(const workloads::WorkloadRun& run, const std::string& key) {
  for (const workloads::WorkloadParameter& p : run.parameters) {
    if (p.key != key) continue;
    if (const auto* text = std::get_if<std::string>(&p.value)) return *text;
    if (const auto* number = std::get_if<std::int64_t>(&p.value)) return std::to_string(*number);
  }
  return "?";
}

std::string shape(const workloads::WorkloadRun& run) {
  if (run.kind == "gemm") {
    return fmt::format("{}x{}x{} {}", parameter(run, "m"), parameter(run, "n"), parameter(run, "k"),
                       parameter(run, "dtype"));
  }
  if (run.kind == "attention") {
    // batch x heads/kv_heads, q_len x kv_len ("var" for a variable-length batch), head_dim
    const std::string kv_len = parameter(run, "kv_len") == "?" ? "var" : parameter(run, "kv_len");
    return fmt::format("{}x{}/{} {}x{} d{}{}", parameter(run, "batch"), parameter(run, "heads"),
                       parameter(run, "kv_heads"), parameter(run, "q_len"), kv_len,
                       parameter(run, "head_dim"), parameter(run, "causal") == "true" ? " c" : "");
  }
  if (run.kind == "layer") {
    const bool prefill = parameter(run, "phase") == "prefill";
    return fmt::format("{} b{} {}{}", parameter(run, "phase"), parameter(run, "batch"),
                       prefill ? "t" : "ctx", parameter(run, prefill ? "tokens" : "context"));
  }
  if (run.kind == "model") {
    const bool prefill = parameter(run, "phase") == "prefill";
    return prefill ? fmt::format("prefill t{}", parameter(run, "tokens"))
                   : fmt::format("decode b{} ctx{}", parameter(run, "batch"),
                                 parameter(run, "context"));
  }
  if (run.kind == "graph") {
    const std::string streams = parameter(run, "streams");
    return fmt::format("{} nodes, {} stream{}", parameter(run, "nodes"), streams,
                       streams == "1" ? "" : "s");
  }
  return run.kind;
}

bool is_kernel_graph(const workloads::WorkloadRun& run) {
  return run.kind == "graph" || run.kind == "layer";
}

std::string tile(const workloads::WorkloadRun& run) {
  if (run.kind != "gemm") return "-";
  return fmt::format("{}x{}x{}", parameter(run, "tile_m"), parameter(run, "tile_n"),
                     parameter(run, "tile_k"));
}

double waves(const workloads::WorkloadRun& run) {
  double most = 0;
  for (const gpu::KernelRecord& kernel : run.result.kernels) most = std::max(most, kernel.waves);
  return most;
}

}  // namespace

std::string result_table(const StudyReport& report) {
  std::size_t name_width = 8;
  std::size_t schedule_width = 13;
  for (const workloads::WorkloadRun& run : report.runs) {
    name_width = std::max(name_width, run.name.size());
    schedule_width = std::max(schedule_width, run.schedule.size());
  }
  std::string out = fmt::format("hardware: {} ({})   study: {}\n\n", report.hardware->name,
                                report.hardware->description, report.study_path);
  out += fmt::format("{:<{}}  {:<{}} {:<22} {:<11} {:>11} {:>8} {:>10} {:>10} {:>6} {:>6}\n",
                     "workload", name_width, "schedule", schedule_width, "shape", "tile", "time_us",
                     "TFLOP/s", "HBM_MB", "L2_MB", "SM%", "waves");
  for (const workloads::WorkloadRun& run : report.runs) {
    const gpu::MemoryTraffic traffic = run.result.traffic();
    out += fmt::format(
        "{:<{}}  {:<{}} {:<22} {:<11} {:>11.2f} {:>8.1f} {:>10.1f} {:>10.1f} {:>6.1f} {:>6.2f}\n",
        run.name, name_width, run.schedule, schedule_width, shape(run), tile(run),
        run.result.time_us(), run.tflops_per_s(), traffic.hbm_bytes() / 1e6,
        traffic.l2_read_bytes / 1e6, 100 * run.result.sm_utilization(), waves(run));
  }
  std::string choices;
  for (const workloads::WorkloadRun& run : report.runs) {
    if (!run.choice) continue;
    const workloads::ScheduleChoice& choice = *run.choice;
    const std::string skipped = choice.simulated < choice.candidates
                                    ? fmt::format(" ({} ruled out by their lower bounds)",
                                                  choice.candidates - choice.simulated)
                                    : "";
    const std::string runner_up =
        choice.runner_up_searched
            ? fmt::format("runner-up {} at {:.2f} us (+{:.1f}%)", choice.runner_up,
                          choice.runner_up_time_us,
                          100 * (choice.runner_up_time_us / run.result.time_us() - 1))
            : "runner-up not searched (approximate mode)";
    choices += fmt::format("{}: auto chose {} {} of {} candidates{}; {}\n", run.name,
                           std::string_view(run.schedule).substr(run.schedule.find(':') + 1),
                           tile(run), choice.candidates, skipped, runner_up);
  }
  if (!choices.empty()) out += "\n" + choices;
  // A model's serving figures; every kernel of a graph or of a multi-kernel
  // workload (unfused or split-KV attention, parallel split-K): its time and
  // bytes (a model's thousands are in the JSON).
  for (const workloads::WorkloadRun& run : report.runs) {
    if (run.kind == "model") {
      out += fmt::format("\n{}", model_summary(run));
    } else if (is_kernel_graph(run) || run.result.kernels.size() > 1) {
      out += fmt::format("\n{}", kernel_breakdown(run));
    }
  }
  out +=
      "\nHBM_MB: HBM reads (L2 misses) + writes; L2_MB: bytes SMs read from L2; "
      "SM%: SM-time with a resident CTA; waves: CTAs / (SMs x CTAs per SM).\n";
  return out;
}

}  // namespace tilesim::report
