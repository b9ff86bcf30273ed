#include "kernels/measure/measurement_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>

#include "kernels/attention/flash_forward_params.hpp"
#include "workloads/measurement/measured_kernel_profile.hpp"

namespace tilesim::measure {
namespace {

bool is_reference(const MeasuredRow& row) {
  return row.gemm.implementation == GemmImplementation::own_kernel;
}

// What ran, beyond `schedule` (the study keys of the same names).
std::string stream_k_mode(const MeasuredRow& row) {
  const auto& config = row.gemm.config;
  if (!is_reference(row) || config.schedule != kernels::GemmSchedule::stream_k) return "";
  return std::string(kernels::to_string(config.stream_k_mode));
}

std::string fixup(const MeasuredRow& row) {
  const auto& config = row.gemm.config;
  if (!is_reference(row) || config.schedule != kernels::GemmSchedule::stream_k) return "";
  return std::string(kernels::to_string(config.fixup));
}

// data_parallel: the study's `persistent` key, filled only when true.
std::string persistent(const MeasuredRow& row) {
  return is_reference(row) && row.gemm.config.persistent ? "true" : "";
}

// split_k: the study's `reduction` key, serial (semaphore) or parallel (+ kernel).
std::string reduction(const MeasuredRow& row) {
  if (!is_reference(row)) return "";
  switch (row.gemm.config.schedule) {
    case kernels::GemmSchedule::split_k_serial:
      return "serial";
    case kernels::GemmSchedule::split_k_parallel:
      return "parallel";
    default:
      return "";
  }
}

std::string optional_int(bool present, long long value) {
  return present ? std::to_string(value) : "";
}

// The NVML means, empty when nothing was sampled (no NVML, or an older file).
std::string clock_cell(const ClockSample& clock) {
  return clock.samples > 0 ? fmt::format("{:.0f}", clock.sm_clock_mhz) : "";
}
std::string power_cell(const ClockSample& clock) {
  return clock.samples > 0 ? fmt::format("{:.1f}", clock.power_w) : "";
}

nlohmann::json clock_json(const ClockSample& clock) {
  if (clock.samples == 0) return nullptr;
  return {
      {"sm_clock_mhz", clock.sm_clock_mhz}, {"power_w", clock.power_w}, {"samples", clock.samples}};
}

// The host's enqueue of one run and those runs' GPU time (host_enqueue.hpp); the CSV
// cell only where the host never waited on the GPU.
nlohmann::json host_enqueue_json(const std::optional<HostEnqueue>& enqueue) {
  if (!enqueue) return nullptr;
  return {{"host_us", enqueue->host_us},
          {"gpu_us", enqueue->gpu_us},
          {"host_ahead", enqueue->host_ahead},
          {"runs", enqueue->runs}};
}

// The attention columns (the contract in kernels/README.md), in order.
constexpr const char* kAttentionColumns[] = {
    "name",      "kernel",       "variant",     "batch",          "heads", "kv_heads", "q_len",
    "kv_len",    "kv_lens",      "head_dim",    "causal",         "dtype", "splits",   "page_size",
    "time_us",   "time_us_min",  "time_us_p90", "tflops",         "gbps",  "runs",     "input_sets",
    "rel_error", "sm_clock_mhz", "power_w",     "host_enqueue_us"};

std::vector<std::string> split_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (std::size_t comma = line.find(','); comma != std::string::npos;
       comma = line.find(',', start)) {
    cells.push_back(line.substr(start, comma - start));
    start = comma + 1;
  }
  cells.push_back(line.substr(start));
  return cells;
}

// kv_len when every sequence has it, else kv_lens joined by ';'.
bool uniform_kv_len(const kernels::AttentionProblem& problem) {
  return std::all_of(problem.kv_lens.begin(), problem.kv_lens.end(),
                     [&](int kv_len) { return kv_len == problem.kv_lens.front(); });
}

std::map<std::string, std::string> attention_cells(const MeasuredAttentionRow& row) {
  const kernels::AttentionProblem& problem = row.attention.problem;
  const AttentionMeasurement& m = row.measurement;
  const bool uniform = uniform_kv_len(problem);
  std::string kv_lens;
  for (std::size_t b = 0; !uniform && b < problem.kv_lens.size(); ++b) {
    if (b > 0) kv_lens += ';';
    kv_lens += std::to_string(problem.kv_lens[b]);
  }
  const bool paged = kernels::attention_variant_is_paged(row.attention.variant);
  return {
      {"name", row.attention.name},
      {"kernel", row.attention.kernel},
      {"variant", std::string(kernels::study_variant(row.attention.variant))},
      {"batch", std::to_string(problem.batch)},
      {"heads", std::to_string(problem.heads)},
      {"kv_heads", std::to_string(problem.kv_heads)},
      {"q_len", std::to_string(problem.q_len)},
      {"kv_len", uniform ? std::to_string(problem.kv_lens.front()) : ""},
      {"kv_lens", kv_lens},
      {"head_dim", std::to_string(problem.head_dim)},
      {"causal", problem.causal ? "true" : "false"},
      {"dtype", std::string(kernels::to_string(problem.dtype))},
      {"splits", optional_int(m.splits > 0, m.splits)},
      {"page_size", optional_int(paged, problem.page_size)},
      {"time_us", fmt::format("{:.3f}", m.timed.time_us)},
      {"time_us_min", fmt::format("{:.3f}", m.timed.time_us_min)},
      {"time_us_p90", fmt::format("{:.3f}", m.timed.time_us_p90)},
      {"tflops", fmt::format("{:.2f}", m.tflops)},
      {"gbps", fmt::format("{:.2f}", m.gbps)},
      {"runs", std::to_string(m.timed.runs)},
      {"input_sets", std::to_string(m.input_sets)},
      {"rel_error", fmt::format("{:.3e}", m.relative_error)},
      {"sm_clock_mhz", clock_cell(m.timed.clock)},
      {"power_w", power_cell(m.timed.clock)},
      {"host_enqueue_us", m.host_enqueue && m.host_enqueue->host_ahead
                              ? fmt::format("{:.2f}", m.host_enqueue->host_us)
                              : ""},
  };
}

}  // namespace

std::string measured_profile(const GemmCase& gemm) {
  if (gemm.implementation == GemmImplementation::library) return "library";
  const kernels::GemmTileShape tile =
      kernels::gemm_tile_shape(kernels::resolved_gemm_tile(gemm.config));
  // Every compiled variant is in the table (tests/kernels/gemm_variant_profiles_test.cpp).
  return workloads::profile_of_compiled_variant(tile.name).value_or(std::string(tile.name));
}

std::string csv_header() {
  return "name,kernel,schedule,m,n,k,dtype,tile_m,tile_n,tile_k,splits,time_us,time_us_min,"
         "time_us_p90,tflops,runs,out_dtype,reduction,stream_k_mode,fixup,persistent,warps,stages,"
         "swizzle,ctas,sk_tiles,sk_ctas,input_sets,rel_error,profile,sm_clock_mhz,power_w";
}

std::string csv_row(const MeasuredRow& row) {
  const auto& config = row.gemm.config;
  const auto& m = row.measurement;
  const bool ours = is_reference(row);
  const kernels::GemmTileShape tile = kernels::gemm_tile_shape(kernels::resolved_gemm_tile(config));
  const bool split = ours && (config.schedule == kernels::GemmSchedule::split_k_serial ||
                              config.schedule == kernels::GemmSchedule::split_k_parallel);
  const bool stream_k = ours && config.schedule == kernels::GemmSchedule::stream_k;
  return fmt::format(
      "{},{},{},{},{},{},{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.2f},{},{},{},{},{},{},{},{},{},{},"
      "{},{},{},{:.3e},{},{},{}",
      row.gemm.name, row.gemm.kernel, row.gemm.schedule, config.m, config.n, config.k,
      kernels::to_string(config.input_type), optional_int(ours, tile.m), optional_int(ours, tile.n),
      optional_int(ours, tile.k), optional_int(split, m.plan.splits), m.time_us, m.time_us_min,
      m.time_us_p90, m.tflops, m.runs, kernels::to_string(config.output_type), reduction(row),
      stream_k_mode(row), fixup(row), persistent(row), optional_int(ours, tile.warps),
      optional_int(ours, tile.stages), optional_int(ours, config.swizzle),
      optional_int(ours, m.plan.grid_ctas), optional_int(stream_k, m.plan.sk_tiles),
      optional_int(stream_k, m.plan.sk_ctas), m.input_sets, m.relative_error,
      measured_profile(row.gemm), clock_cell(m.clock), power_cell(m.clock));
}

nlohmann::json row_json(const MeasuredRow& row) {
  const auto& config = row.gemm.config;
  const auto& m = row.measurement;
  nlohmann::json json = {
      {"name", row.gemm.name},
      {"kernel", row.gemm.kernel},
      {"profile", measured_profile(row.gemm)},
      {"schedule", row.gemm.schedule},
      {"m", config.m},
      {"n", config.n},
      {"k", config.k},
      {"dtype", kernels::to_string(config.input_type)},
      {"out_dtype", kernels::to_string(config.output_type)},
      {"time_us", m.time_us},
      {"time_us_min", m.time_us_min},
      {"time_us_p90", m.time_us_p90},
      {"tflops", m.tflops},
      {"runs", m.runs},
      {"input_sets", m.input_sets},
      {"rel_error", m.relative_error},
      {"non_finite", m.non_finite},
      {"check_passed", m.check_passed},
      {"clock_during_timed_runs", clock_json(m.clock)},
  };
  if (is_reference(row)) {
    const kernels::GemmTileShape tile =
        kernels::gemm_tile_shape(kernels::resolved_gemm_tile(config));
    json["tile"] = {{"variant", tile.name},
                    {"m", tile.m},
                    {"n", tile.n},
                    {"k", tile.k},
                    {"stages", tile.stages},
                    {"warps", tile.warps},
                    {"prefetch_fragments", tile.prefetch_fragments},
                    {"swizzle", config.swizzle}};
    json["variant"] = std::string(kernels::to_string(config.schedule));
    json["persistent"] = config.persistent;
    json["reduction"] = reduction(row);
    json["stream_k_mode"] = stream_k_mode(row);
    json["fixup"] = fixup(row);
    json["plan"] = {{"grid_ctas", m.plan.grid_ctas},
                    {"tiles", m.plan.tiles},
                    {"iters_per_tile", m.plan.iters_per_tile},
                    {"splits", m.plan.splits},
                    {"dp_tiles", m.plan.dp_tiles},
                    {"sk_tiles", m.plan.sk_tiles},
                    {"sk_ctas", m.plan.sk_ctas},
                    {"kernels", m.plan.kernels},
                    {"flag_bytes", m.plan.flag_bytes},
                    {"partial_bytes", m.plan.partial_bytes}};
    json["resources"] = {{"registers_per_thread", m.resources.registers_per_thread},
                         {"threads", m.resources.threads},
                         {"shared_bytes", m.resources.shared_bytes},
                         {"ctas_per_sm", m.resources.ctas_per_sm}};
  }
  return json;
}

std::optional<std::string> check_failure(const AnyMeasuredRow& row) {
  const auto non_finite_or_error = [](std::int64_t non_finite, double error, double bound,
                                      const char* reference) -> std::optional<std::string> {
    if (non_finite > 0) return fmt::format("{} non-finite outputs (NaN or Inf)", non_finite);
    return fmt::format("rel_error {:.2e} above its bound {:.2e} ({} reference)", error, bound,
                       reference);
  };
  if (const auto* gemm = std::get_if<MeasuredRow>(&row)) {
    const GemmMeasurement& m = gemm->measurement;
    if (m.check_passed) return std::nullopt;
    return non_finite_or_error(m.non_finite, m.relative_error, m.error_bound, "cuBLAS fp32");
  }
  const AttentionMeasurement& m = std::get<MeasuredAttentionRow>(row).measurement;
  if (m.check_passed) return std::nullopt;
  if (m.non_finite == 0 && !m.guard_intact) return "wrote past the end of its output";
  return non_finite_or_error(m.non_finite, m.relative_error, m.error_bound, "float64");
}

nlohmann::json failed_check_json(const AnyMeasuredRow& row) {
  nlohmann::json json = std::visit([](const auto& measured) { return row_json(measured); }, row);
  for (const char* timing : {"time_us", "time_us_min", "time_us_p90", "tflops", "gbps", "runs"}) {
    json.erase(timing);
  }
  json["why"] = check_failure(row).value_or("");
  json["rel_error_bound"] =
      std::visit([](const auto& measured) { return measured.measurement.error_bound; }, row);
  return json;
}

std::string measurement_csv(const std::vector<AnyMeasuredRow>& all_rows) {
  std::vector<AnyMeasuredRow> rows;
  std::copy_if(all_rows.begin(), all_rows.end(), std::back_inserter(rows),
               [](const AnyMeasuredRow& row) { return !check_failure(row); });
  const bool any_gemm = std::any_of(rows.begin(), rows.end(), [](const AnyMeasuredRow& row) {
    return std::holds_alternative<MeasuredRow>(row);
  });
  const bool any_attention = std::any_of(rows.begin(), rows.end(), [](const AnyMeasuredRow& row) {
    return std::holds_alternative<MeasuredAttentionRow>(row);
  });
  if (!any_attention) {
    std::string csv = csv_header() + "\n";
    for (const AnyMeasuredRow& row : rows) csv += csv_row(std::get<MeasuredRow>(row)) + "\n";
    return csv;
  }
  std::vector<std::string> columns;
  if (any_gemm) columns = split_cells(csv_header());
  for (const char* column : kAttentionColumns) {
    if (std::find(columns.begin(), columns.end(), column) == columns.end()) {
      columns.emplace_back(column);
    }
  }
  std::string csv;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (c > 0) csv += ',';
    csv += columns[c];
  }
  csv += "\n";
  const std::vector<std::string> gemm_columns = split_cells(csv_header());
  for (const AnyMeasuredRow& row : rows) {
    std::map<std::string, std::string> cells;
    if (const auto* gemm = std::get_if<MeasuredRow>(&row)) {
      const std::vector<std::string> values = split_cells(csv_row(*gemm));
      for (std::size_t c = 0; c < gemm_columns.size(); ++c) cells[gemm_columns[c]] = values[c];
    } else {
      cells = attention_cells(std::get<MeasuredAttentionRow>(row));
    }
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (c > 0) csv += ',';
      csv += cells[columns[c]];
    }
    csv += "\n";
  }
  return csv;
}

nlohmann::json row_json(const MeasuredAttentionRow& row) {
  nlohmann::json json;
  for (const auto& [column, value] : attention_cells(row)) json[column] = value;
  const AttentionMeasurement& m = row.measurement;
  const kernels::AttentionProblem& problem = row.attention.problem;
  const bool paged = kernels::attention_variant_is_paged(row.attention.variant);
  json["kv_len"] =
      uniform_kv_len(problem) ? nlohmann::json(problem.kv_lens.front()) : nlohmann::json(nullptr);
  json["splits"] = m.splits > 0 ? nlohmann::json(m.splits) : nlohmann::json(nullptr);
  json["page_size"] = paged ? nlohmann::json(problem.page_size) : nlohmann::json(nullptr);
  json["batch"] = problem.batch;
  json["heads"] = problem.heads;
  json["kv_heads"] = problem.kv_heads;
  json["q_len"] = problem.q_len;
  json["kv_lens_all"] = problem.kv_lens;
  json["head_dim"] = problem.head_dim;
  json["causal"] = problem.causal;
  json["runs"] = m.timed.runs;
  json["input_sets"] = m.input_sets;
  json["time_us"] = m.timed.time_us;
  json["time_us_min"] = m.timed.time_us_min;
  json["time_us_p90"] = m.timed.time_us_p90;
  json["tflops"] = m.tflops;
  json["gbps"] = m.gbps;
  json["rel_error"] = m.relative_error;
  json["rel_error_bound"] = m.error_bound;
  json["non_finite"] = m.non_finite;
  json["output_guard_intact"] = m.guard_intact;
  json["check_passed"] = m.check_passed;
  json["clock_during_timed_runs"] = clock_json(m.timed.clock);
  json["kernels"] = m.kernels;
  json["workspace_bytes"] = m.workspace_bytes;
  json["host_enqueue"] = host_enqueue_json(m.host_enqueue);
  json["useful_flops"] = problem.useful_flops();
  json["min_bytes"] = problem.min_bytes();
  if (row.attention.variant == kernels::AttentionVariant::flash ||
      row.attention.variant == kernels::AttentionVariant::flash_wgmma) {
    const kernels::FlashForwardTile tile =
        row.attention.variant == kernels::AttentionVariant::flash
            ? kernels::flash_forward_tile(problem.head_dim)
            : kernels::flash_forward_wgmma_tile(problem.head_dim);
    json["tile"] = {{"block_m", tile.block_m},
                    {"block_n", tile.block_n},
                    {"warps", tile.warps},
                    {"stages", tile.stages},
                    {"shared_bytes", tile.shared_bytes}};
  }
  return json;
}

}  // namespace tilesim::measure
