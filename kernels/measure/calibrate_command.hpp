#pragma once
// `tilesim-measure calibrate --out FILE.yaml [--base HW.yaml] [--csv RAW.csv]`:
// runs the microbenchmarks of kernels/microbench and writes a complete hardware
// YAML: the base file with every measured value replaced (and commented
// `# measured: ...`), checked by the same loader as `tilesim validate`.

#include <CLI/CLI.hpp>
#include <filesystem>

namespace tilesim::measure {

// `config_dir`: configs/ (the hardware file used without --base is
// hw/h100_sxm.yaml there; kernel profiles are read from kernels/ there).
void add_calibrate_command(CLI::App& app, const std::filesystem::path& config_dir, int& exit_code);

}  // namespace tilesim::measure
