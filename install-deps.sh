#!/usr/bin/env bash
# Installs every Debian 12 package tilesim needs to build, test and benchmark.
# Run as root; safe to run again (apt-get skips what is already installed).
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps.sh: must run as root (apt-get installs system packages)" >&2
  exit 1
fi
packages=(
  build-essential cmake ninja-build pkg-config
  libyaml-cpp-dev   # hardware and study YAML, with line/column marks for errors
  libfmt-dev        # formatting (g++ 12 has no <format>)
  libcli11-dev      # command-line parsing
  nlohmann-json3-dev  # JSON results and Chrome traces
  libeigen3-dev libboost-dev  # Eigen: least-squares fits; Boost: small_vector in the engine
  libgtest-dev libgmock-dev   # unit tests
  libbenchmark-dev            # bench/
  python3-dev python3-pybind11  # the Python package (app/python)
  python3-pytest python3-pandas # its tests: results must load straight into a DataFrame
  python3-yaml                  # the device scripts (sdpa_measure.py, ncu_kernel_names.py) read studies; their tests run here
  chromium                      # a real headless browser loads the --html reports in a test
  parallel                      # GNU parallel: docs/sweeps.md's sharded-sweep one-liner, run by a test
  clang-16 libclang-rt-16-dev   # the sanitize (CI) and fuzz presets: libFuzzer + ASan/UBSan runtimes (clang-14 fails on libstdc++ 12's <ranges>)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps.sh: all ${#packages[@]} packages already installed"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
