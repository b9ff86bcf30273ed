#pragma once
// `tilesim-measure calibrate --out FILE.yaml [--base HW.yaml] [--csv RAW.csv]`:
// runs the microbenchmarks of kernels/microbench and writes a complete hardware
// YAML: the base file with every measured value replaced (and commented
// `# measured: ...`), checked by the same loader as `tilesim validate`.

#include <CLI/CLI.hpp>
#include <filesystem>

namespace tilesim::measure {

// `default_base`: the hardware file used without --base (configs/hw/h100_sxm.yaml).
void add_calibrate_command(CLI::App& app, const std::filesystem::path& default_base,
                           int& exit_code);

}  // namespace tilesim::measure
