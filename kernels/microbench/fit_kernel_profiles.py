#!/usr/bin/env python3
"""Fit the GEMM kernel profiles' free parameters on named calibration rows.

Every fitted value in configs/kernels/*.yaml comes from here: for each profile
and hardware file, the parameters below are chosen to minimise the squared
log error of `tilesim compare` on the named rows of committed calibration
files (never a validation row). The search is Nelder-Mead over the parameters,
each rounded as the YAML writes it.

  fit_kernel_profiles.py --tilesim build/bin/tilesim            # fit and print
  fit_kernel_profiles.py --tilesim build/bin/tilesim --check    # committed values
      are the fit: no rounding step of any parameter lowers the error (CI)

Exit status: 0; 1 a committed value is not the fit (--check); 2 usage or a
failing tilesim run.
"""
import argparse
import csv
import io
import json
import math
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MEASUREMENTS = os.path.join(REPO, "bench", "measurements")
CALIBRATION = "h100_sxm_2026-11-26_gemm_mechanism_calibration.csv"
FIXUP_CALIBRATION = "h100_sxm_2026-11-21_gemm_fixup_calibration.csv"


def rows_named(prefix, names):
    return [(prefix, name) for name in names]


# What each profile's fit uses: parameters (YAML key, unit, rounding step,
# start) and rows (file, row name). The rows separate the three mechanisms:
# one tile over k (kernel + unit + k-blocks on one SM), W waves of 132 tiles
# (kernel + W units, k-blocks at full load) and, for the library, one tile and
# the mid-size and large shapes. The 2026-11-26 rows ran in the first seconds
# of a lease, from a cool card; the calibration rows named earlier (2026-11-21
# and -22, minutes into their leases, power-limited) are fitted with them, so
# the fit spans both power states.
CLOCK_CALIBRATION = "h100_sxm_2026-11-26_gemm_clock_calibration.csv"
UNALIGNED_CALIBRATION = "h100_sxm_2026-11-26_gemm_unaligned_calibration.csv"
# The wgmma kernel's rows, re-measured after its WorkUnitRing fix (same names).
CALIBRATION_WGMMA = "h100_sxm_2026-11-26_gemm_mechanism_calibration_ringfix.csv"
CLOCK_CALIBRATION_WGMMA = "h100_sxm_2026-11-26_gemm_clock_calibration_ringfix.csv"
# Two-slice serial split-K beside data-parallel on short k and decode shapes:
# the finisher's read of the partial (collect_loads_in_flight).
SCHEDULE_CALIBRATION = "h100_sxm_2026-11-26_gemm_schedule_calibration.csv"
SCHEDULE_SHAPES = ["4608x4608x512", "8x131072x2048", "32x65536x1024"]
# Round 5: serial split-K with the slices swept 2..32 on a few tiles (the
# turnstile's per-step hand-off, fixup_handoff_latency) and wgmma rows whose
# k or n rows are not 128-byte aligned beside aligned twins
# (misaligned_row_read_factor).
HANDOFF_CALIBRATION = "h100_sxm_2026-11-27_gemm_handoff_alignment_calibration.csv"
HANDOFF_ROWS = {
    "ref": ["hand_256x1024x32768_ref_serial_s2", "hand_256x1024x32768_ref_serial_s4",
            "hand_256x1024x32768_ref_serial_s8", "hand_256x1024x32768_ref_serial_s16",
            "hand_128x1024x8192_ref_serial_s4", "hand_128x1024x8192_ref_serial_s16"],
    "wg": ["hand_256x1024x32768_wg_serial_s2", "hand_256x1024x32768_wg_serial_s4",
           "hand_256x1024x32768_wg_serial_s8", "hand_256x1024x32768_wg_serial_s16",
           "hand_128x1024x8192_wg_serial_s4", "hand_128x1024x8192_wg_serial_s16",
           "hand_128x1024x8192_wg_serial_s32"],
}
ALIGNMENT_ROWS_WGMMA = ["align_1536x2816x2304_wg_dp", "align_1536x2816x2312_wg_dp",
                        "align_1536x2808x2304_wg_dp", "align_1536x2808x2312_wg_dp",
                        "align_4096x3840x4096_wg_dp", "align_4096x3832x4104_wg_dp"]
# hopper13: the TMA-store epilogue variant's per-unit and per-launch costs, on
# the wgmma kernel's mechanism shapes (its main loop and fixup are that
# kernel's code, so tensor_efficiency and the fixup values are its).
TMA_STORE_CALIBRATION = "h100_sxm_2026-11-27_gemm_tma_store_calibration.csv"
TMA_STORE_ROWS = ["cal_ts_one_tile_128x256x512", "cal_ts_one_tile_128x256x2048",
                  "cal_ts_one_tile_128x256x8192", "cal_ts_w1_1536x2816x512_dp",
                  "cal_ts_w2_1536x5632x512_dp", "cal_ts_w4_1536x11264x512_dp",
                  "cal_ts_w8_1536x22528x512_dp", "cal_ts_w4_1536x11264x2048_persistent",
                  "cal_ts_w2_1536x5632x512_persistent", "cal_ts_w4_1536x11264x512_persistent",
                  "cal_ts_w8_1536x22528x512_persistent", "cal_ts_w1_1536x2816x2048_dp",
                  "cal_ts_w4_1536x11264x2048_dp"]
# Round 6: CTAs that drift apart (cta_speed_spread, the mma.sync kernel). A
# persistent grid with a static list of tiles against the data-parallel launch
# of the same tiles (mechanism calibration), and the Stream-K modes beside
# data-parallel on layer-like shapes of the schedule calibration and round 5's
# hybrid rows.
PERSISTENT_ROWS_REF = ["cal_ref_w2_3072x2816x512_persistent", "cal_ref_w4_3072x5632x512_persistent",
                       "cal_ref_w8_3072x11264x512_persistent",
                       "cal_ref_w4_3072x5632x2048_persistent"]
STREAM_K_SHAPES = ["3072x24576x4096", "6144x12288x2048", "2560x10240x4096", "1024x12288x6144"]
STREAM_K_MODES = ["dp", "sk_two_tile", "sk_dp_one_tile", "sk_pure"]
STREAM_K_ROWS_REF = (
    rows_named(SCHEDULE_CALIBRATION, [f"sched_{s}_ref_{mode}" for s in STREAM_K_SHAPES
                                      for mode in STREAM_K_MODES])
    + rows_named(HANDOFF_CALIBRATION, [f"hyb_2048x12288x3584_ref_{mode}"
                                       for mode in ("dp", "sk_dp_one_tile", "sk_two_tile")]))


# Round 17 (H200): the unaligned gather's round latency of the mma.sync kernel, on
# the two data-parallel rows of calibration 17 that bracket it: one CTA alone
# (every read an HBM miss) and 132 CTAs on L2-resident panels.
UNALIGNED_CALIBRATION_17 = "h200_sxm_2026-11-28_gemm_unaligned_calibration_17.csv"
UNALIGNED_ROWS_17_REF = ["ucal17_256x128x6143_ref_dp", "ucal17_3072x1408x2045_ref_dp"]


# The clock calibration's shapes (data-parallel rows, each after a 1 s
# sustained warm-up: its own steady-state clock, which the power law predicts);
# 12288^3 is left out only to keep the fit quick (8192^3 is as large in waves).
CLOCK_SHAPES = ["8192x8192x8192", "6144x6144x6144", "3072x12288x3072",
                "4096x11008x4096", "8192x8192x2048", "2048x8192x2048", "1536x6144x1536",
                "3072x5632x512", "1536x11264x2048", "512x1024x8192", "64x8192x8192"]
# cuBLAS splits k where the problem has fewer 128x256 tiles than SMs, which the
# library profile does not model: those two shapes fit our kernels only.
LIBRARY_CLOCK_SHAPES = CLOCK_SHAPES[:9]


# What each profile's fit uses: parameters (YAML key, unit, rounding step,
# start) and rows (file, row name). The rows separate the mechanisms: one tile
# over k (kernel + unit + k-blocks on one SM), W waves of 132 tiles (kernel + W
# units, k-blocks at full load), the clock calibration's steady-state shapes
# from one column of tiles to 12288^3 (the tensor rate at the clock the power
# law gives) and, for the library, an unaligned square (its align-1 kernel).
# The 2026-11-26 mechanism rows ran in the first seconds of a lease (short k or
# few SMs: below the power limit).
FITS = [
    {
        "profile": "tilesim_ref",
        "params": [("tensor_efficiency", "", 0.001, 0.47), ("work_unit_overhead", "us", 0.1, 4.0),
                   ("kernel_overhead", "us", 0.1, 5.0), ("collect_loads_in_flight", "", 1, 4),
                   ("fixup_handoff_latency", "us", 0.1, 0.6), ("cta_speed_spread", "", 0.01, 0.1)],
        "rows": rows_named(CALIBRATION, [
            "cal_ref_one_tile_256x128x1024", "cal_ref_one_tile_256x128x4096",
            "cal_ref_w1_3072x1408x512_dp", "cal_ref_w2_3072x2816x512_dp",
            "cal_ref_w4_3072x5632x512_dp", "cal_ref_w8_3072x11264x512_dp",
            "cal_ref_w1_3072x1408x2048_dp", "cal_ref_w4_3072x5632x2048_dp"])
        + rows_named(FIXUP_CALIBRATION, [
            "one_tile_256x128x512_dp", "one_tile_256x128x2048_dp", "one_tile_256x128x8192_dp",
            "wq_1536x1536x1024_dp", "wq_1536x1536x2048_dp"])
        + rows_named(CLOCK_CALIBRATION, [f"clk_{s}_ref_dp" for s in CLOCK_SHAPES])
        + rows_named(SCHEDULE_CALIBRATION, [f"sched_{s}_ref_{schedule}" for s in SCHEDULE_SHAPES
                                            for schedule in ("dp", "splitk_serial")])
        + rows_named(HANDOFF_CALIBRATION, HANDOFF_ROWS["ref"])
        + rows_named(CALIBRATION, PERSISTENT_ROWS_REF) + STREAM_K_ROWS_REF,
    },
    # Fitted after the entry above, at its committed values: the aligned rows do not
    # read this parameter, and these rows' gather outweighs the aligned parameters.
    # Measured on an H200, so fitted on its files (sm90.measured: the calibrated one).
    {
        "profile": "tilesim_ref",
        "params": [("unaligned_load_latency", "ns", 10, 500)],
        "rows": rows_named(UNALIGNED_CALIBRATION_17, UNALIGNED_ROWS_17_REF),
        "hardware": [("sm90", "configs/hw/h200_sxm.yaml"),
                     ("sm90.measured", "configs/hw/h200_sxm.measured.yaml")],
    },
    {
        "profile": "tilesim_ref_wgmma",
        "params": [("tensor_efficiency", "", 0.001, 0.93), ("work_unit_overhead", "us", 0.1, 4.0),
                   ("kernel_overhead", "us", 0.1, 5.0), ("fixup_handoff_latency", "us", 0.1, 3.4),
                   ("misaligned_row_read_factor", "", 0.05, 1.5)],
        "rows": rows_named(CALIBRATION_WGMMA, [
            "cal_wg_one_tile_128x256x512", "cal_wg_one_tile_128x256x2048",
            "cal_wg_one_tile_128x256x8192", "cal_wg_w1_1536x2816x512_dp",
            "cal_wg_w2_1536x5632x512_dp", "cal_wg_w4_1536x11264x512_dp",
            "cal_wg_w8_1536x22528x512_dp", "cal_wg_w4_1536x11264x2048_persistent",
            "cal_wg_w2_1536x5632x512_persistent", "cal_wg_w4_1536x11264x512_persistent",
            "cal_wg_w8_1536x22528x512_persistent"])
        + rows_named(CLOCK_CALIBRATION_WGMMA, [f"clk_{s}_wg_dp" for s in CLOCK_SHAPES])
        + rows_named(HANDOFF_CALIBRATION, HANDOFF_ROWS["wg"] + ALIGNMENT_ROWS_WGMMA),
    },
    {
        "profile": "tilesim_ref_wgmma_tma_store",
        "params": [("work_unit_overhead", "us", 0.1, 2.2), ("kernel_overhead", "us", 0.1, 5.0)],
        "rows": rows_named(TMA_STORE_CALIBRATION, TMA_STORE_ROWS),
    },
    {
        "profile": "library",
        "params": [("tensor_efficiency", "", 0.001, 0.9), ("kernel_overhead", "us", 0.1, 3.0),
                   ("unaligned_bytes_in_flight_per_thread", "", 1, 16)],
        "rows": rows_named(CALIBRATION, ["cal_cublas_256x128x4096", "cal_cublas_128x256x2048"])
        + rows_named(CLOCK_CALIBRATION, [f"clk_{s}_cublas" for s in LIBRARY_CLOCK_SHAPES])
        + rows_named(UNALIGNED_CALIBRATION, ["unal_2047x2047x2047_cublas"]),
    },
]
# Parameters whose schema range starts above 0 (a factor of 1 is "no cost").
MINIMUM = {"misaligned_row_read_factor": 1.0}
# The GPU keys and the files each is fitted on, unless a fit names its own "hardware".
HARDWARE = [("sm90", "configs/hw/h100_sxm.yaml"), ("sm90.measured", "configs/hw/h100_sxm.measured.yaml")]
PROFILE_FILES = {"tilesim_ref": "tilesim_ref.yaml", "tilesim_ref_wgmma": "tilesim_ref_wgmma.yaml",
                 "tilesim_ref_wgmma_tma_store": "tilesim_ref_wgmma_tma_store.yaml",
                 "library": "library_sm90.yaml"}


def subset_csv(rows):
    """The named rows of their files, as one measurement CSV."""
    header = None
    out = []
    by_file = {}
    for file, name in rows:
        by_file.setdefault(file, []).append(name)
    for file, names in by_file.items():
        with open(os.path.join(MEASUREMENTS, file), newline="") as f:
            reader = csv.DictReader(f)
            if header is None:
                header = reader.fieldnames
            found = {row["name"]: row for row in reader if row["name"] in names}
        missing = [n for n in names if n not in found]
        if missing:
            sys.exit(f"fit_kernel_profiles: {file}: no row named {', '.join(missing)}")
        out += [found[n] for n in names]
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=header, lineterminator="\n")
    writer.writeheader()
    for row in out:
        writer.writerow({k: row.get(k, "") for k in header})
    return buffer.getvalue()


class Objective:
    def __init__(self, tilesim, hw, fit):
        self.tilesim = tilesim
        self.hw = hw
        self.fit = fit
        handle, self.csv_path = tempfile.mkstemp(suffix=".csv")
        with os.fdopen(handle, "w") as f:
            f.write(subset_csv(fit["rows"]))
        self.cache = {}

    def sets(self, values):
        out = []
        for (key, unit, _, _), value in zip(self.fit["params"], values):
            text = f"{value:g} {unit}".strip()
            out += ["--set", f"kernels.{self.fit['profile']}.{key}={text}"]
        return out

    def __call__(self, values):
        values = tuple(round_to(v, p[2]) for v, p in zip(values, self.fit["params"]))
        if values in self.cache:
            return self.cache[values]
        efficiencies = [v for v, p in zip(values, self.fit["params"]) if p[0] == "tensor_efficiency"]
        if any(v <= 0 for v in values) or any(v > 1 for v in efficiencies):
            return 1e9
        if any(v < MINIMUM.get(p[0], 0) for v, p in zip(values, self.fit["params"])):
            return 1e9
        command = [self.tilesim, "compare", "--measured", self.csv_path, "--hw",
                   os.path.join(REPO, self.hw), "--json", "-"] + self.sets(values)
        run = subprocess.run(command, capture_output=True, text=True, cwd=REPO)
        if run.returncode != 0:
            sys.exit(f"fit_kernel_profiles: {' '.join(command)}\n{run.stderr}")
        rows = json.loads(run.stdout)["rows"]
        error = sum(math.log(r["predicted_us"] / r["measured_us"]) ** 2 for r in rows)
        self.cache[values] = error
        return error


def round_to(value, step):
    return round(round(value / step) * step, 6)


def nelder_mead(f, start, steps, iterations=80):
    points = [list(start)]
    for i, step in enumerate(steps):
        p = list(start)
        p[i] += step
        points.append(p)
    values = [f(p) for p in points]
    for _ in range(iterations):
        order = sorted(range(len(points)), key=lambda i: values[i])
        points = [points[i] for i in order]
        values = [values[i] for i in order]
        centroid = [sum(p[d] for p in points[:-1]) / (len(points) - 1) for d in range(len(start))]
        worst = points[-1]
        reflect = [c + (c - w) for c, w in zip(centroid, worst)]
        fr = f(reflect)
        if fr < values[0]:
            expand = [c + 2 * (c - w) for c, w in zip(centroid, worst)]
            fe = f(expand)
            points[-1], values[-1] = (expand, fe) if fe < fr else (reflect, fr)
        elif fr < values[-2]:
            points[-1], values[-1] = reflect, fr
        else:
            contract = [c + 0.5 * (w - c) for c, w in zip(centroid, worst)]
            fc = f(contract)
            if fc < values[-1]:
                points[-1], values[-1] = contract, fc
            else:
                best = points[0]
                points = [best] + [[b + 0.5 * (p - b) for b, p in zip(best, q)] for q in points[1:]]
                values = [values[0]] + [f(p) for p in points[1:]]
    best = min(range(len(points)), key=lambda i: values[i])
    return points[best], values[best]


def polish(f, point, steps):
    """Coordinate descent in rounding steps: the fit is a local optimum of the rounded values."""
    point = [round_to(v, s) for v, s in zip(point, steps)]
    best = f(point)
    improved = True
    while improved:
        improved = False
        for i, step in enumerate(steps):
            for sign in (1, -1):
                trial = list(point)
                trial[i] = round_to(trial[i] + sign * step, step)
                value = f(trial)
                if value < best - 1e-12:
                    point, best, improved = trial, value, True
    return point, best


def committed_value(profile, key, gpu):
    """The value of `key` for GPU key `gpu` in the profile's YAML; as the loader reads
    it, `sm90.measured` falls back to `sm90` where the profile gives no value of its own."""
    with open(os.path.join(REPO, "configs", "kernels", PROFILE_FILES[profile])) as f:
        text = f.read()
    block = re.search(rf"^{key}:(.*?)(?=^\S|\Z)", text, re.M | re.S)
    if not block:
        return None
    line = re.search(rf"^\s+{re.escape(gpu)}:\s*([0-9.]+)", block.group(1), re.M)
    if not line and gpu.endswith(".measured"):
        return committed_value(profile, key, gpu.removesuffix(".measured"))
    if not line:
        line = re.search(r"^\s*([0-9.]+)", block.group(1))
    return float(line.group(1)) if line else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tilesim", required=True, help="the tilesim binary")
    parser.add_argument("--check", action="store_true",
                        help="check that the committed values are the fit")
    parser.add_argument("--profile", help="only this profile's fit (e.g. tilesim_ref)")
    parser.add_argument("--gpu", help="only this GPU key's fit (sm90, or sm90.measured: fitted on h100_sxm.measured)")
    args = parser.parse_args()
    failures = 0
    for fit in FITS:
        if args.profile and fit["profile"] != args.profile:
            continue
        for gpu, hw in fit.get("hardware", HARDWARE):
            if args.gpu and gpu != args.gpu:
                continue
            objective = Objective(args.tilesim, hw, fit)
            steps = [p[2] for p in fit["params"]]
            if args.check:
                committed = [committed_value(fit["profile"], p[0], gpu) for p in fit["params"]]
                if None in committed:
                    print(f"{fit['profile']} [{gpu}]: a parameter has no committed value")
                    failures += 1
                    continue
                polished, _ = polish(objective, committed, steps)
                same = all(abs(a - b) < s / 2 for a, b, s in zip(polished, committed, steps))
                print(f"{fit['profile']} [{gpu}]: committed {committed} "
                      f"{'is the fit' if same else 'is not the fit: ' + str(polished)}")
                failures += 0 if same else 1
                continue
            # From the committed values where there are some (a refit moves them little).
            start = [committed_value(fit["profile"], p[0], gpu) or p[3] for p in fit["params"]]
            point, _ = nelder_mead(objective, start, [10 * s for s in steps])
            point, error = polish(objective, point, steps)
            rms = math.sqrt(error / len(fit["rows"]))
            values = ", ".join(f"{p[0]}: {v:g} {p[1]}".rstrip() for p, v in zip(fit["params"], point))
            print(f"{fit['profile']} [{gpu}]: {values}  (rms log error {rms:.3f} over "
                  f"{len(fit['rows'])} rows)")
            os.unlink(objective.csv_path)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
