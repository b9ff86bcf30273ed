#pragma once
// What the fuzz targets share: where configs live, writing an input where a
// loader that takes a path can read it, the invariant every diagnostic keeps,
// and a small simulation bounded by a tiny cost budget, so that values that
// pass validation also go through lowering and the engine.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "hwmodels/profile_cache.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/study.hpp"

namespace tilesim::fuzz {

// Events a fuzzed input may simulate: small enough for hundreds of inputs per
// second under ASan, large enough for a few small kernels of every kind.
inline constexpr double kFuzzMaxEvents = 2e4;

// $TILESIM_CONFIG_DIR when set (a run on another machine, away from the
// source tree it was built in), else the source tree's configs/.
std::filesystem::path config_dir();

// The built-in schedules and configs/hw/h100_sxm.yaml, read once per process
// (each input would otherwise pay for reading and validating them again).
const workloads::GemmScheduleRegistry& schedules();
const hw::HardwareSpec& h100();

// The profiles of the last GPU a target loaded, kept between inputs
// (hwmodels/profile_cache.hpp): an input that changes neither the GPU's name,
// architecture nor clock gets them without reading them again, as a sweep over
// --set values does.
hw::ProfileCache& profile_cache();

// The input written to `name` in a folder of this process's own, for loaders
// that read a path; the folder is removed with it.
class InputFile {
 public:
  InputFile(const std::uint8_t* data, std::size_t size, const std::string& name);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// A rejected input is reported as the user sees it: every problem has a
// message, and one in `input_file` has its line and column (docs/limits.md);
// `input_file` is empty for an input without lines (the command line).
// Aborts, which libFuzzer reports as a crash with the input, otherwise.
void require_clean_diagnostics(const config::Diagnostics& diagnostics,
                               const std::string& input_file);

// Checks the study's cost against kFuzzMaxEvents and simulates it if it fits,
// with the engine's effort capped as `tilesim simulate` caps it.
void simulate_if_small(const workloads::Study& study, const hw::HardwareSpec& spec);

// A GEMM and a decode attention of a few CTAs each on `spec`.
void simulate_probe_study(const hw::HardwareSpec& spec);

}  // namespace tilesim::fuzz
