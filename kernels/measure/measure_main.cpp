// tilesim-measure: runs a study's GEMM workloads on the GPU (cuBLAS for
// `kernel: library`, the reference kernels of kernels/gemm for `kernel:
// tilesim_ref` and `kernel: tilesim_ref_wgmma`) and writes the measurement CSV + JSON sidecar that
// `tilesim compare` reads. Reads the same study YAML as `tilesim simulate`. `tilesim-measure
// calibrate` runs the microbenchmarks instead and writes a hardware YAML
// (kernels/measure/calibrate_command.hpp).
//
// Exit status: 0 measured and checked; 1 a kernel's output failed its check
// (its row is still written, with rel_error); 2 usage, study or unsupported
// workload; 3 no CUDA device; 4 a CUDA or cuBLAS error while measuring.

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "hwmodels/hardware_loader.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/gemm/gemm_launch.hpp"
#include "kernels/gemm/reference_check.hpp"
#include "kernels/measure/calibrate_command.hpp"
#include "kernels/measure/gemm_case.hpp"
#include "kernels/measure/gemm_measurement.hpp"
#include "kernels/measure/measurement_writer.hpp"
#include "kernels/measure/run_environment.hpp"
#include "workloads/study_loader.hpp"

namespace ms = tilesim::measure;
namespace tk = tilesim::kernels;

namespace {

constexpr int kExitCheckFailed = 1;
constexpr int kExitUsage = 2;
constexpr int kExitNoDevice = 3;
constexpr int kExitCudaError = 4;

// configs/ (hw/ and studies/): $TILESIM_CONFIG_DIR, else the source tree's.
std::filesystem::path config_dir() {
  if (const char* from_env = std::getenv("TILESIM_CONFIG_DIR")) return from_env;
  return TILESIM_CONFIG_DIR;
}

struct Options {
  std::string study;
  std::string csv;
  std::string json;
  bool skip_unsupported = false;
  std::string tile_variant;  // forces a compiled tile variant on every own-kernel workload
  ms::TimingOptions timing;
};

std::string shape_text(const tk::GemmLaunchConfig& config) {
  return fmt::format("{}x{}x{} {}", config.m, config.n, config.k, tk::to_string(config.input_type));
}

std::string variant_text(const ms::GemmCase& gemm, const ms::GemmMeasurement& m) {
  if (gemm.implementation == ms::GemmImplementation::library) return "cuBLAS";
  const auto& config = gemm.config;
  switch (config.schedule) {
    case tk::GemmSchedule::data_parallel:
      return "dp";
    case tk::GemmSchedule::split_k_serial:
      return fmt::format("serial/{}", m.plan.splits);
    case tk::GemmSchedule::split_k_parallel:
      return fmt::format("parallel/{}", m.plan.splits);
    case tk::GemmSchedule::stream_k:
      return fmt::format("{}/{}", tk::to_string(config.stream_k_mode),
                         config.fixup == tk::FixupMode::deterministic ? "det" : "atomic");
  }
  return "";
}

// The study's workloads as runnable cases; problems are printed, all at once.
bool build_cases(const tilesim::workloads::Study& study, const tilesim::hw::HardwareSpec& hardware,
                 const Options& options, const tk::GemmDeviceLimits& limits,
                 std::vector<ms::GemmCase>& cases) {
  std::optional<tk::GemmTileVariant> forced;
  if (!options.tile_variant.empty()) forced = tk::parse_gemm_tile_variant(options.tile_variant);
  int problems = 0;
  for (const auto& workload : study.workloads) {
    const auto* gemm_workload = std::get_if<tilesim::workloads::GemmWorkload>(&workload);
    if (gemm_workload == nullptr) {
      std::fprintf(stderr,
                   "%s: %s: workload `%s`: no reference kernel yet for attention, graph or layer "
                   "workloads; tilesim-measure runs GEMM workloads\n",
                   study.source_path.c_str(), options.skip_unsupported ? "skipped" : "error",
                   tilesim::workloads::workload_name(workload).c_str());
      ++problems;
      continue;
    }
    const auto& gemm = *gemm_workload;
    auto result = ms::make_gemm_case(gemm, hardware, limits, forced);
    if (auto* error = std::get_if<ms::CaseError>(&result)) {
      std::fprintf(stderr, "%s:%d:%d: %s: workload `%s`: %s\n", gemm.where.file.c_str(),
                   gemm.where.line, gemm.where.column,
                   options.skip_unsupported ? "skipped" : "error", gemm.name.c_str(),
                   error->message.c_str());
      ++problems;
      continue;
    }
    cases.push_back(std::get<ms::GemmCase>(std::move(result)));
  }
  if (problems > 0 && !options.skip_unsupported) {
    std::fprintf(stderr,
                 "tilesim-measure: %d workload(s) cannot be measured; nothing was run "
                 "(--skip-unsupported measures the others)\n",
                 problems);
    return false;
  }
  return true;
}

int measure_study(const Options& options) {
  const auto loaded =
      tilesim::workloads::load_study(options.study, {"data_parallel", "split_k", "stream_k"});
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s", loaded.diagnostics.format().c_str());
    return kExitUsage;
  }
  // The study's hardware file offers the kernel profiles (their tiles).
  const auto hardware_path = tilesim::hw::resolve_hardware_path(
      loaded.value->hardware, config_dir(), loaded.value->hardware_location);
  if (!hardware_path.ok()) {
    std::fprintf(stderr, "%s", hardware_path.diagnostics.format().c_str());
    return kExitUsage;
  }
  const auto hardware = tilesim::hw::load_hardware_spec(*hardware_path.value, {}, config_dir());
  if (!hardware.ok()) {
    std::fprintf(stderr, "%s", hardware.diagnostics.format().c_str());
    return kExitUsage;
  }
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  const bool have_device = status == cudaSuccess && devices > 0;
  // Without a device, the workloads are still checked (against nominal limits).
  tk::GemmDeviceLimits limits;
  if (have_device) {
    limits = tk::query_gemm_device_limits();
  } else {
    limits.sm_count = 1;
    limits.wgmma = true;
    limits.ctas_per_sm.fill(1);
  }
  std::vector<ms::GemmCase> cases;
  if (!build_cases(*loaded.value, *hardware.value, options, limits, cases)) return kExitUsage;
  if (!have_device) {
    std::fprintf(stderr, "tilesim-measure: no CUDA device (%s); measuring needs a GPU\n",
                 status == cudaSuccess ? "none found" : cudaGetErrorString(status));
    return kExitNoDevice;
  }

  const ms::RunEnvironment environment = ms::read_run_environment();
  ms::TimingOptions timing = options.timing;
  timing.l2_bytes = static_cast<double>(environment.l2_bytes);
  const auto clocks_before = ms::sample_gpu_clocks();
  std::printf("%s, %d SMs, driver %s, CUDA runtime %d; study %s (hardware: %s)\n",
              environment.gpu.c_str(), environment.sm_count, environment.driver_version.c_str(),
              environment.cuda_runtime, options.study.c_str(), loaded.value->hardware.c_str());
  std::printf("%-34s %-12s %-14s %-20s %10s %10s %8s %9s\n", "workload", "kernel", "variant",
              "shape", "time_us", "p90_us", "TFLOP/s", "rel_err");

  cudaStream_t stream = nullptr;
  TILESIM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const tk::CublasHandle cublas(stream);
  std::vector<ms::MeasuredRow> rows;
  bool all_checked = true;
  for (const ms::GemmCase& gemm : cases) {
    ms::MeasuredRow row{gemm, ms::measure_gemm(gemm, timing, cublas, stream)};
    const auto& m = row.measurement;
    all_checked = all_checked && m.check_passed;
    std::printf("%-34s %-17s %-14s %-20s %10.2f %10.2f %8.1f %9.2e%s\n", gemm.name.c_str(),
                ms::measured_profile(gemm).c_str(), variant_text(gemm, m).c_str(),
                shape_text(gemm.config).c_str(), m.time_us, m.time_us_p90, m.tflops,
                m.relative_error, m.check_passed ? "" : "  CHECK FAILED");
    std::fflush(stdout);
    rows.push_back(std::move(row));
  }
  TILESIM_CUDA_CHECK(cudaStreamDestroy(stream));
  const auto clocks_after = ms::sample_gpu_clocks();

  std::string csv = ms::csv_header() + "\n";
  nlohmann::json results = nlohmann::json::array();
  for (const auto& row : rows) {
    csv += ms::csv_row(row) + "\n";
    results.push_back(ms::row_json(row));
  }
  nlohmann::json sidecar = {
      {"tool", "tilesim-measure"},
      {"study", options.study},
      {"study_hardware", loaded.value->hardware},
      {"csv", std::filesystem::path(options.csv).filename().string()},
      {"environment", ms::to_json(environment)},
      {"gpu_sample_before", clocks_before.value_or(nlohmann::json())},
      {"gpu_sample_after", clocks_after.value_or(nlohmann::json())},
      {"method",
       {{"timer", "CUDA events around each run, queued behind a GPU-side delay"},
        {"statistic", "median; min and p90 beside it"},
        {"min_runs", timing.min_runs},
        {"target_ms", timing.target_ms},
        {"warmup_ms", timing.warmup_ms},
        {"input_sets", "rotated when A+B+C is under 2x L2; up to 64"},
        {"inputs", "uniform magnitude in [1/16, 1], random sign (never zero)"},
        {"check", "one run per case against cublasGemmEx with fp32 output, output poisoned"}}},
      {"results", results},
  };
  std::string error;
  if (!ms::write_text_file(options.csv, csv, error) ||
      !ms::write_text_file(options.json, sidecar.dump(2) + "\n", error)) {
    std::fprintf(stderr, "tilesim-measure: cannot write results: %s\n", error.c_str());
    return kExitUsage;
  }
  std::printf("wrote %s and %s\n", options.csv.c_str(), options.json.c_str());
  if (!all_checked) {
    std::fprintf(stderr, "tilesim-measure: some outputs failed their check (rel_error column)\n");
    return kExitCheckFailed;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  CLI::App app{
      "Time a study's GEMM workloads on the GPU: cuBLAS (kernel: library) and the "
      "reference kernels (kernel: tilesim_ref, tilesim_ref_wgmma); writes a measurement CSV and "
      "JSON."};
  app.add_option("study", options.study, "Study YAML (as for `tilesim simulate`)");
  app.add_option("--csv", options.csv, "Measurement CSV to write");
  app.add_option("--json", options.json, "JSON sidecar to write (default: the CSV's name, .json)");
  std::vector<std::string> variant_names;
  for (int v = 0; v < tk::kGemmTileVariantCount; ++v) {
    variant_names.emplace_back(tk::gemm_tile_shape(static_cast<tk::GemmTileVariant>(v)).name);
  }
  app.add_option("--tile-variant", options.tile_variant,
                 "Run every own-kernel workload with this compiled tile variant (tuning)")
      ->check(CLI::IsMember(variant_names));
  app.add_flag("--skip-unsupported", options.skip_unsupported,
               "Measure the other workloads when some have no kernel here");
  app.add_option("--min-runs", options.timing.min_runs, "Fewest timed runs per workload")
      ->check(CLI::Range(20, 100000))
      ->capture_default_str();
  app.add_option("--target-ms", options.timing.target_ms, "GPU time to spend timing each workload")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  int calibrate_exit = 0;
  tilesim::measure::add_calibrate_command(app, config_dir(), calibrate_exit);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : kExitUsage;
  }
  if (app.got_subcommand("calibrate")) return calibrate_exit;
  if (options.study.empty() || options.csv.empty()) {
    std::fprintf(stderr,
                 "tilesim-measure: a study and --csv are required (or the `calibrate` "
                 "command); see --help\n");
    return kExitUsage;
  }
  if (options.json.empty()) {
    options.json = std::filesystem::path(options.csv).replace_extension(".json").string();
  }
  try {
    return measure_study(options);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "tilesim-measure: %s\n", error.what());
    return kExitCudaError;
  }
}
