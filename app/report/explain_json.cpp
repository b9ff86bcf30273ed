#include "app/report/explain_json.hpp"

namespace tilesim::report {
namespace {

using Json = nlohmann::ordered_json;

Json breakdown_json(const explain::TimeBreakdown& breakdown) {
  Json object = Json::object();
  for (std::size_t i = 0; i < explain::kTimeCauseCount; ++i) {
    object[std::string(explain::time_cause_key(static_cast<explain::TimeCause>(i)))] =
        breakdown.us[i];
  }
  return object;
}

Json roofline_json(const explain::RooflineCeilings& roof, const explain::RooflinePosition& at) {
  return Json{{"dtype", hw::to_string(roof.data_type)},
              {"peak_flops_per_s", roof.peak_flops_per_s()},
              {"hbm_bytes_per_s", roof.hbm_bytes_per_s},
              {"l2_bytes_per_s", roof.l2_bytes_per_s},
              {"hbm_ridge_flops_per_byte", roof.hbm_ridge_flops_per_byte()},
              {"l2_ridge_flops_per_byte", roof.l2_ridge_flops_per_byte()},
              {"flops", at.flops},
              {"issued_flops", at.issued_flops},
              {"hbm_bytes", at.hbm_bytes},
              {"l2_bytes", at.l2_bytes},
              {"flops_per_s", at.flops_per_s()},
              {"hbm_flops_per_byte", at.hbm_flops_per_byte()},
              {"l2_flops_per_byte", at.l2_flops_per_byte()}};
}

}  // namespace

nlohmann::ordered_json explain_json(const explain::RunExplanation& explanation) {
  Json kernels = Json::array();
  for (const explain::KernelExplanation& kernel : explanation.kernels) {
    kernels.push_back(Json{{"name", kernel.name},
                           {"time_us", kernel.time_us},
                           {"gap_before_us", kernel.gap_before_us},
                           {"breakdown_us", breakdown_json(kernel.breakdown)}});
  }
  Json what_ifs = Json::array();
  for (const explain::WhatIf& hint : explanation.what_ifs) {
    what_ifs.push_back(Json{
        {"change", hint.change}, {"time_us", hint.time_us}, {"time_change", hint.time_change()}});
  }
  return Json{{"name", explanation.name},
              {"kind", explanation.kind},
              {"schedule", explanation.schedule},
              {"time_us", explanation.time_us},
              {"bound", explain::bound_key(explanation.verdict.bound)},
              {"reason", explanation.verdict.reason},
              {"roofline", roofline_json(explanation.ceilings, explanation.position)},
              {"breakdown_us", breakdown_json(explanation.breakdown)},
              {"kernels", kernels},
              {"what_if", what_ifs}};
}

}  // namespace tilesim::report
