#include "tests/fuzz/fuzz_support.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "hwmodels/hardware_loader.hpp"
#include "workloads/study_loader.hpp"
#include "workloads/study_runner.hpp"
#include "workloads/workload_cost.hpp"

namespace tilesim::fuzz {
namespace {

[[noreturn]] void fail(const config::Diagnostic& problem, const char* what) {
  std::fprintf(stderr, "fuzz invariant broken: %s: %s:%d:%d: %s: %s\n", what,
               problem.where.file.c_str(), problem.where.line, problem.where.column,
               problem.key_path.c_str(), problem.message.c_str());
  std::abort();
}

constexpr const char* kProbeStudy = R"(hardware: h100_sxm
workloads:
  - name: probe_gemm
    gemm: {m: 256, n: 384, k: 320, dtype: bf16}
    schedule: stream_k
  - name: probe_decode
    attention: {batch: 2, heads: 4, kv_heads: 2, q_len: 1, kv_len: 700, head_dim: 64, dtype: bf16}
    variant: flash_decoding
)";

}  // namespace

std::filesystem::path config_dir() {
  if (const char* dir = std::getenv("TILESIM_CONFIG_DIR"); dir != nullptr && *dir != '\0') {
    return dir;
  }
  return TILESIM_CONFIG_DIR;
}

const workloads::GemmScheduleRegistry& schedules() {
  static const workloads::GemmScheduleRegistry registry = workloads::builtin_gemm_schedules();
  return registry;
}

const hw::HardwareSpec& h100() {
  static const hw::HardwareSpec spec = [] {
    config::Loaded<hw::HardwareSpec> loaded =
        hw::load_hardware_spec(config_dir() / "hw" / "h100_sxm.yaml", {}, config_dir());
    if (!loaded.ok()) fail(loaded.diagnostics.items().front(), "configs/hw/h100_sxm.yaml");
    return std::move(*loaded.value);
  }();
  return spec;
}

hw::ProfileCache& profile_cache() {
  static hw::ProfileCache cache;
  return cache;
}

InputFile::InputFile(const std::uint8_t* data, std::size_t size, const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tilesim-fuzz-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  path_ = dir / name;
  std::ofstream(path_, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

InputFile::~InputFile() {
  std::error_code ignored;  // a destructor must not throw; a leftover folder is harmless
  std::filesystem::remove_all(path_.parent_path(), ignored);
}

void require_clean_diagnostics(const config::Diagnostics& diagnostics,
                               const std::string& input_file) {
  for (const config::Diagnostic& problem : diagnostics.items()) {
    if (problem.message.empty()) fail(problem, "a problem without a message");
    const bool in_input = !input_file.empty() && problem.where.file == input_file;
    if (in_input && (problem.where.line < 1 || problem.where.column < 1)) {
      fail(problem, "a problem in the input without its line and column");
    }
  }
}

void simulate_if_small(const workloads::Study& study, const hw::HardwareSpec& spec) {
  const config::Diagnostics over_budget =
      workloads::check_study_cost(study, spec, schedules(), kFuzzMaxEvents);
  if (!over_budget.empty()) return;
  gpu::SimulationOptions options;
  options.max_effort_events = workloads::effort_limit(kFuzzMaxEvents);
  config::Loaded<std::vector<workloads::WorkloadRun>> runs =
      workloads::run_study(study, spec, schedules(), options);
  require_clean_diagnostics(runs.diagnostics, study.source_path);
}

void simulate_probe_study(const hw::HardwareSpec& spec) {
  static const workloads::Study probe = [] {
    config::Loaded<workloads::Study> loaded = workloads::load_study_text(
        kProbeStudy, "probe.yaml", workloads::study_schedule_names(schedules()));
    if (!loaded.ok()) fail(loaded.diagnostics.items().front(), "the probe study");
    return std::move(*loaded.value);
  }();
  simulate_if_small(probe, spec);
}

}  // namespace tilesim::fuzz
