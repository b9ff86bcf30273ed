#!/usr/bin/env python3
"""Fit the board power law (`power.*` in the hardware YAML) on clock-under-load rows.

Each row of the calibration file was timed after a sustained warm-up, so its
NVML mean clock f and power P are the kernel's own steady state. The law
(hwmodels/power_law.hpp), with r = f / sm.clock:

  P = static_w + (busy_sms * sm_active_w * r + flop/s * tensor_pj_per_flop) * r^g
      + hbm byte/s * hbm_pj_per_byte

is linear in the four energies for a given voltage exponent g, so they are
least squares for each g on a grid (the YAML's rounding) and g is the best of
the grid. Tensor flops are the problem's 2mnk (MMAs on the zero padding of
edge tiles draw no tensor energy); busy SMs and DRAM bytes come from `tilesim simulate`
of the calibration study (the model's own view of each kernel); rates divide
them by the measured time. Rows whose model grid cannot be what cuBLAS ran
(fewer tiles than SMs: cuBLAS splits k there) are left out; every other row of
the file is used, and none is a validation row.

  fit_power_law.py --tilesim build/bin/tilesim          # fit, print values and residuals
  fit_power_law.py --tilesim build/bin/tilesim --check  # the committed power.* are the fit (CI)

Exit status: 0; 1 a committed value is not the fit (--check); 2 usage or a failing run.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# (measurement file, its study, which rows): every row of the clock
# calibration, and the data-parallel rows of the schedule calibration (decode
# shapes whose 128- and 256-row tiles are mostly zero padding, short k, long k).
CALIBRATIONS = [
    ("bench/measurements/h100_sxm_2026-11-26_gemm_clock_calibration.csv",
     "kernels/studies/gemm_clock_calibration.yaml", ""),
    ("bench/measurements/h100_sxm_2026-11-26_gemm_schedule_calibration.csv",
     "kernels/studies/gemm_schedule_calibration.yaml", "_dp"),
]
HARDWARE = ["configs/hw/h100_sxm.yaml", "configs/hw/h100_sxm.measured.yaml"]
LIMIT_W = 700.0  # datasheet TDP; nvidia-smi power.limit 700.00 W on every lease
MAX_CLOCK_HZ = 1980e6
# (key, rounding step) as the YAML writes them
KEYS = [("static_w", 1.0), ("sm_active_w", 0.01), ("tensor_pj_per_flop", 0.001),
        ("hbm_pj_per_byte", 0.1)]
EXPONENT_STEP = 0.05


def solve(matrix, vector):
    """Gaussian elimination with partial pivoting (no numpy on CI)."""
    n = len(vector)
    a = [row[:] + [v] for row, v in zip(matrix, vector)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def features(row, exponent):
    r = row["clock_hz"] / MAX_CLOCK_HZ
    v2 = r ** exponent
    return [1.0, row["busy_sms"] * r * v2, row["flops_per_s"] * 1e-12 * v2,
            row["hbm_bytes_per_s"] * 1e-12]


def power(values, row, exponent):
    return sum(c * x for c, x in zip(values, features(row, exponent)))


def least_squares(rows, exponent):
    x = [features(row, exponent) for row in rows]
    n = len(KEYS)
    normal = [[sum(f[i] * f[j] for f in x) for j in range(n)] for i in range(n)]
    rhs = [sum(f[i] * row["power_w"] for f, row in zip(x, rows)) for i in range(n)]
    values = [round(round(v / step) * step, 6) for v, (_, step) in zip(solve(normal, rhs), KEYS)]
    error = sum((power(values, row, exponent) - row["power_w"]) ** 2 for row in rows)
    return values, error


def clock_at_limit(values, exponent, row):
    """The model's clock for this row's load (rates scale with the clock)."""
    def p(f):
        scaled = dict(row, clock_hz=f, flops_per_s=row["flops_per_s"] * f / row["clock_hz"],
                      hbm_bytes_per_s=row["hbm_bytes_per_s"] * f / row["clock_hz"])
        return power(values, scaled, exponent)
    if p(MAX_CLOCK_HZ) <= LIMIT_W:
        return MAX_CLOCK_HZ
    low, high = 0.0, MAX_CLOCK_HZ
    while high - low > 1e5:
        mid = 0.5 * (low + high)
        low, high = (low, mid) if p(mid) > LIMIT_W else (mid, high)
    return low


def calibration_rows(tilesim):
    rows = []
    for calibration, study, suffix in CALIBRATIONS:
        rows += file_rows(tilesim, calibration, study, suffix)
    return rows


def file_rows(tilesim, calibration, study, suffix):
    run = subprocess.run([tilesim, "simulate", study, "--hw", HARDWARE[1], "--json", "-"],
                         capture_output=True, text=True, cwd=REPO)
    if run.returncode != 0:
        sys.exit(f"fit_power_law: tilesim simulate failed\n{run.stderr}")
    simulated = {r["name"]: r for r in json.loads(run.stdout)["results"]}
    rows = []
    with open(os.path.join(REPO, calibration), newline="") as f:
        for measured in csv.DictReader(f):
            if not measured["name"].endswith(suffix):
                continue
            kernel = simulated[measured["name"]]["kernels"][0]
            busy = min(132, -(-kernel["ctas"] // kernel["ctas_per_sm"]))
            if measured["kernel"] == "library" and kernel["ctas"] < 132:
                continue
            time_s = float(measured["time_us"]) * 1e-6
            rows.append({"name": measured["name"], "busy_sms": busy,
                         # the problem's flops: MMAs on the zero padding of edge
                         # tiles draw no tensor energy (the simulator's
                         # tensor_energy_fraction)
                         "flops_per_s": 2.0 * int(measured["m"]) * int(measured["n"]) *
                         int(measured["k"]) / time_s,
                         "hbm_bytes_per_s": (kernel["bytes"]["hbm_read"] +
                                             kernel["bytes"]["hbm_write"]) / time_s,
                         "clock_hz": float(measured["sm_clock_mhz"]) * 1e6,
                         "power_w": float(measured["power_w"])})
    return rows


def fit(rows):
    best = None
    for step in range(0, int(3.0 / EXPONENT_STEP) + 1):
        exponent = round(step * EXPONENT_STEP, 6)
        values, error = least_squares(rows, exponent)
        if best is None or error < best[2]:
            best = (exponent, values, error)
    return best


def committed(path):
    text = open(os.path.join(REPO, path)).read()
    block = re.search(r"^power:\n((?:  .*\n)+)", text, re.M)
    if not block:
        return {}
    return {k: float(v) for k, v in re.findall(r"^  (\w+): ([0-9.]+)", block.group(1), re.M)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tilesim", required=True)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    rows = calibration_rows(args.tilesim)
    exponent, values, error = fit(rows)
    fitted = dict(zip([k for k, _ in KEYS], values), voltage_exponent=exponent, limit_w=LIMIT_W)
    if args.check:
        bad = []
        for path in HARDWARE:
            have = committed(path)
            for key, value in fitted.items():
                if abs(have.get(key, float("nan")) - value) > 1e-9:
                    bad.append(f"{path}: power.{key} is {have.get(key)}, the fit is {value:g}")
        for line in bad:
            print(f"fit_power_law: {line}", file=sys.stderr)
        return 1 if bad else 0
    print(f"{len(rows)} rows; rms power error {(error / len(rows)) ** 0.5:.1f} W")
    for key, value in fitted.items():
        print(f"  power.{key}: {value:g}")
    print(f"{'row':40} {'P meas':>7} {'P fit':>7} {'f meas':>7} {'f model':>7}")
    for row in rows:
        print(f"{row['name']:40} {row['power_w']:7.1f} {power(values, row, exponent):7.1f} "
              f"{row['clock_hz'] / 1e6:7.0f} {clock_at_limit(values, exponent, row) / 1e6:7.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
