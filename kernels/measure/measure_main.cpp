// tilesim-measure: runs a study's GEMM workloads on the GPU (cuBLAS for
// `kernel: library`, the reference kernels of kernels/gemm for `kernel:
// tilesim_ref` and `kernel: tilesim_ref_wgmma`) and its attention workloads (`kernel: tilesim_ref`,
// the variant's kernel in kernels/attention), and writes the measurement CSV + JSON sidecar that
// `tilesim compare` reads. Reads the same study YAML as `tilesim simulate`. `tilesim-measure
// calibrate` runs the microbenchmarks instead and writes a hardware YAML
// (kernels/measure/calibrate_command.hpp).
//
// Exit status: 0 measured and checked; 1 a kernel's output failed its check
// (that case is not timed and has no row: the sidecar's `failed_checks` says
// why); 2 usage, study or unsupported
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

#include "app/report/output_file.hpp"
#include "hwmodels/hardware_loader.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/gemm/gemm_launch.hpp"
#include "kernels/gemm/reference_check.hpp"
#include "kernels/measure/calibrate_command.hpp"
#include "kernels/measure/gemm_case.hpp"
#include "kernels/measure/gemm_measurement.hpp"
#include "kernels/measure/measurement_writer.hpp"
#include "kernels/measure/run_environment.hpp"
#include "kernels/measure/sm_clock_sampler.hpp"
#include "kernels/measure/study_cases.hpp"
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

std::string attention_variant_text(const ms::AttentionMeasurement& m, const ms::AttentionCase& c) {
  std::string text(tk::to_string(c.variant));
  if (m.splits > 0) text += fmt::format("/{}", m.splits);
  return text;
}

// One case measured: its row, printed as it comes; a case that failed its
// check is printed with why instead of a timing (it was not timed).
ms::AnyMeasuredRow measure_case(const ms::MeasureCase& item, const ms::TimingOptions& timing,
                                const tk::CublasHandle& cublas, cudaStream_t stream) {
  constexpr const char* kLine = "%-34s %-17s %-14s %-28s %10.2f %10.2f %8.1f %9.2e\n";
  constexpr const char* kFailedLine = "%-34s %-17s %-14s %-28s CHECK FAILED, not timed: %s\n";
  if (const auto* gemm = std::get_if<ms::GemmCase>(&item)) {
    ms::MeasuredRow row{*gemm, ms::measure_gemm(*gemm, timing, cublas, stream)};
    const auto& m = row.measurement;
    if (const auto why = ms::check_failure(row)) {
      std::printf(kFailedLine, gemm->name.c_str(), ms::measured_profile(*gemm).c_str(),
                  variant_text(*gemm, m).c_str(), shape_text(gemm->config).c_str(), why->c_str());
    } else {
      std::printf(kLine, gemm->name.c_str(), ms::measured_profile(*gemm).c_str(),
                  variant_text(*gemm, m).c_str(), shape_text(gemm->config).c_str(), m.time_us,
                  m.time_us_p90, m.tflops, m.relative_error);
    }
    std::fflush(stdout);
    return row;
  }
  const auto& attention = std::get<ms::AttentionCase>(item);
  ms::MeasuredAttentionRow row{attention, ms::measure_attention(attention, timing, stream)};
  const auto& m = row.measurement;
  if (const auto why = ms::check_failure(row)) {
    std::printf(kFailedLine, attention.name.c_str(), attention.kernel.c_str(),
                attention_variant_text(m, attention).c_str(),
                tk::to_string(attention.problem).c_str(), why->c_str());
  } else {
    std::printf(kLine, attention.name.c_str(), attention.kernel.c_str(),
                attention_variant_text(m, attention).c_str(),
                tk::to_string(attention.problem).c_str(), m.timed.time_us, m.timed.time_us_p90,
                m.tflops, m.relative_error);
  }
  std::fflush(stdout);
  return row;
}

// How every row was timed and checked, for the JSON sidecar.
nlohmann::json method_json(const ms::TimingOptions& timing) {
  return {
      {"timer", "CUDA events around each run, queued behind a GPU-side delay"},
      {"statistic", "median; min and p90 beside it"},
      {"min_runs", timing.min_runs},
      {"target_ms", timing.target_ms},
      {"warmup_ms", timing.warmup_ms},
      {"warmup",
       "sustained: each case back to back for warmup_ms of wall time before its timed "
       "runs, so the power-limited clock is the case's own steady state"},
      {"clock", "sm_clock_mhz / power_w: NVML means sampled every 5 ms during the timed runs"},
      {"input_sets", "rotated when the inputs and output are under 2x L2; up to 64"},
      {"inputs", "uniform magnitude in [1/16, 1], random sign (never zero); attention Q times 4"},
      {"check",
       "one run per case, output poisoned: GEMM against cublasGemmEx with fp32 output, "
       "attention against a float64 GPU reference (kernels/attention/attention_reference.hpp)"}};
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
    limits.resident_clusters.fill(1);
  }
  std::optional<tk::GemmTileVariant> forced;
  if (!options.tile_variant.empty()) forced = tk::parse_gemm_tile_variant(options.tile_variant);
  const auto cases =
      ms::study_cases(*loaded.value, *hardware.value, limits, forced, options.skip_unsupported);
  if (!cases) return kExitUsage;
  if (!have_device) {
    std::fprintf(stderr, "tilesim-measure: no CUDA device (%s); measuring needs a GPU\n",
                 status == cudaSuccess ? "none found" : cudaGetErrorString(status));
    return kExitNoDevice;
  }

  const ms::RunEnvironment environment = ms::read_run_environment();
  ms::TimingOptions timing = options.timing;
  timing.l2_bytes = static_cast<double>(environment.l2_bytes);
  const auto nvml = ms::open_nvml_device();
  timing.clock_source = nvml.get();
  const auto clocks_before = ms::sample_gpu_clocks();
  std::printf("%s, %d SMs, driver %s, CUDA runtime %d; study %s (hardware: %s)\n",
              environment.gpu.c_str(), environment.sm_count, environment.driver_version.c_str(),
              environment.cuda_runtime, options.study.c_str(), loaded.value->hardware.c_str());
  std::printf("%-34s %-17s %-14s %-28s %10s %10s %8s %9s\n", "workload", "kernel", "variant",
              "shape", "time_us", "p90_us", "TFLOP/s", "rel_err");

  cudaStream_t stream = nullptr;
  TILESIM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const tk::CublasHandle cublas(stream);
  std::vector<ms::AnyMeasuredRow> rows;
  // The files are rewritten after every case, so a run that is stopped (a
  // time limit, a crash) keeps what it measured; `complete` says which it was.
  const auto write_results = [&](bool complete) {
    nlohmann::json results = nlohmann::json::array();
    nlohmann::json failed_checks = nlohmann::json::array();
    for (const auto& row : rows) {
      if (ms::check_failure(row)) {
        failed_checks.push_back(ms::failed_check_json(row));
        continue;
      }
      std::visit([&](const auto& measured) { results.push_back(ms::row_json(measured)); }, row);
    }
    nlohmann::json sidecar = {
        {"tool", "tilesim-measure"},
        {"study", options.study},
        {"study_hardware", loaded.value->hardware},
        {"csv", std::filesystem::path(options.csv).filename().string()},
        {"complete", complete},
        {"cases", {{"measured", rows.size()}, {"planned", cases->size()}}},
        {"environment", ms::to_json(environment)},
        {"gpu_sample_before", clocks_before.value_or(nlohmann::json())},
        {"gpu_sample_after",
         complete ? ms::sample_gpu_clocks().value_or(nlohmann::json()) : nlohmann::json()},
        {"method", method_json(timing)},
        {"results", results},
        {"failed_checks", failed_checks},
    };
    std::optional<std::string> problem =
        tilesim::report::write_file_atomically(options.csv, ms::measurement_csv(rows));
    if (!problem) {
      problem = tilesim::report::write_file_atomically(options.json, sidecar.dump(2) + "\n");
    }
    if (problem) {
      std::fprintf(stderr, "tilesim-measure: cannot write results: %s\n", problem->c_str());
      return false;
    }
    return true;
  };
  for (const ms::MeasureCase& item : *cases) {
    rows.push_back(measure_case(item, timing, cublas, stream));
    if (!write_results(false)) return kExitUsage;
  }
  TILESIM_CUDA_CHECK(cudaStreamDestroy(stream));
  if (!write_results(true)) return kExitUsage;
  std::printf("wrote %s and %s\n", options.csv.c_str(), options.json.c_str());
  // Every failed case, with why: none of them has a row in the CSV.
  int failed = 0;
  for (const auto& row : rows) {
    if (!ms::check_failure(row)) continue;
    const nlohmann::json entry = ms::failed_check_json(row);
    std::fprintf(stderr, "tilesim-measure: %s: result check failed, no timing written: %s\n",
                 entry["name"].get<std::string>().c_str(), entry["why"].get<std::string>().c_str());
    ++failed;
  }
  if (failed > 0) {
    std::fprintf(stderr,
                 "tilesim-measure: %d of %zu cases failed their check (sidecar: failed_checks)\n",
                 failed, rows.size());
    return kExitCheckFailed;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  CLI::App app{
      "Time a study's GEMM and attention workloads on the GPU: cuBLAS (kernel: library) and "
      "the reference kernels (kernel: tilesim_ref, tilesim_ref_wgmma); writes a measurement CSV "
      "and JSON."};
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
  app.add_option("--warmup-ms", options.timing.warmup_ms,
                 "Sustained warm-up: wall time each workload runs back to back before timing")
      ->check(CLI::NonNegativeNumber)
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
