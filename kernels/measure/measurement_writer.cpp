#include "kernels/measure/measurement_writer.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>

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

}  // namespace

std::string measured_profile(const GemmCase& gemm) {
  if (gemm.implementation == GemmImplementation::library) return "library";
  const kernels::GemmTileShape tile =
      kernels::gemm_tile_shape(kernels::resolved_gemm_tile(gemm.config));
  // Every compiled variant is in the table (tests/kernels/gemm_variant_profiles_test.cpp).
  return workloads::profile_of_compiled_tile(tile.m, tile.n, tile.k, tile.warps, tile.stages)
      .value_or(std::string(tile.name));
}

std::string csv_header() {
  return "name,kernel,schedule,m,n,k,dtype,tile_m,tile_n,tile_k,splits,time_us,time_us_min,"
         "time_us_p90,tflops,runs,"
         "out_dtype,reduction,stream_k_mode,fixup,warps,stages,swizzle,ctas,sk_tiles,sk_ctas,input_"
         "sets,"
         "rel_error,profile";
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
      "{},{},{:.3e},{}",
      row.gemm.name, row.gemm.kernel, row.gemm.schedule, config.m, config.n, config.k,
      kernels::to_string(config.input_type), optional_int(ours, tile.m), optional_int(ours, tile.n),
      optional_int(ours, tile.k), optional_int(split, m.plan.splits), m.time_us, m.time_us_min,
      m.time_us_p90, m.tflops, m.runs, kernels::to_string(config.output_type), reduction(row),
      stream_k_mode(row), fixup(row), optional_int(ours, tile.warps),
      optional_int(ours, tile.stages), optional_int(ours, config.swizzle),
      optional_int(ours, m.plan.grid_ctas), optional_int(stream_k, m.plan.sk_tiles),
      optional_int(stream_k, m.plan.sk_ctas), m.input_sets, m.relative_error,
      measured_profile(row.gemm));
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

bool write_text_file(const std::filesystem::path& path, const std::string& text,
                     std::string& error) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) {
    error = std::strerror(errno);
    return false;
  }
  file << text;
  file.close();
  if (!file) {
    error = "write failed";
    return false;
  }
  return true;
}

}  // namespace tilesim::measure
