#include "app/report/json_report.hpp"

#include "sim/gpu/gpu_idle_time.hpp"

namespace tilesim::report {
namespace {

using Json = nlohmann::ordered_json;

Json bytes_json(const gpu::MemoryTraffic& traffic) {
  return Json{{"l2_read", traffic.l2_read_bytes},
              {"hbm_read", traffic.hbm_read_bytes},
              {"hbm_write", traffic.write_bytes}};
}

Json parameters_json(const std::vector<workloads::WorkloadParameter>& parameters) {
  Json object = Json::object();
  for (const workloads::WorkloadParameter& parameter : parameters) {
    std::visit([&](const auto& value) { object[parameter.key] = value; }, parameter.value);
  }
  return object;
}

Json kernel_json(const gpu::KernelRecord& kernel, const gpu::KernelIdleTime& idle) {
  return Json{{"name", kernel.name},
              {"stream", kernel.stream},
              {"host_issue_us", kernel.host_issue_begin.us()},
              {"ready_us", kernel.ready.us()},
              {"start_us", kernel.start.us()},
              {"gap_before_us", idle.gap_before.us()},
              {"sm_idle_us", idle.sm_idle_us},
              {"end_us", kernel.end.us()},
              {"time_us", (kernel.end - kernel.start).us()},
              {"ctas", kernel.cta_count},
              {"ctas_per_sm", kernel.ctas_per_sm},
              {"waves", kernel.waves},
              {"flops", kernel.flops},
              {"bytes", bytes_json(kernel.traffic)}};
}

Json run_json(const workloads::WorkloadRun& run) {
  const gpu::SimulationResult& result = run.result;
  Json kernels = Json::array();
  const std::vector<gpu::KernelIdleTime> idle = gpu::kernel_idle_times(result);
  for (std::size_t i = 0; i < result.kernels.size(); ++i) {
    kernels.push_back(kernel_json(result.kernels[i], idle[i]));
  }
  Json item{{"name", run.name},
            {"kind", run.kind},
            {"schedule", run.schedule},
            {"kernel", run.kernel},
            {"workload", parameters_json(run.parameters)},
            {"time_us", result.time_us()},
            {"tflops", run.tflops_per_s()},
            {"flops", run.useful_flops},
            {"sm_utilization", result.sm_utilization()},
            {"launch_gap_us", gpu::launch_gaps(result).us()},
            {"sm_idle_us", gpu::sm_idle_us(result)},
            {"bytes", bytes_json(result.traffic())},
            {"kernels", kernels},
            {"events", result.events}};
  if (!run.figures.empty()) item["figures"] = parameters_json(run.figures);
  if (run.choice) {
    const workloads::ScheduleChoice& choice = *run.choice;
    item["auto"] = Json{{"candidates", choice.candidates}, {"simulated", choice.simulated}};
    // Unknown where the search looked for the winner alone (approximate mode).
    item["auto"]["runner_up"] = choice.runner_up_searched ? Json(choice.runner_up) : Json();
    item["auto"]["runner_up_time_us"] =
        choice.runner_up_searched ? Json(choice.runner_up_time_us) : Json();
  }
  return item;
}

}  // namespace

nlohmann::ordered_json json_report(const StudyReport& report) {
  Json results = Json::array();
  for (const workloads::WorkloadRun& run : report.runs) results.push_back(run_json(run));
  return Json{
      {"study", report.study_path},
      {"hardware", {{"name", report.hardware->name}, {"reference", report.hardware_reference}}},
      {"results", results}};
}

}  // namespace tilesim::report
