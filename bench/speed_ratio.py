#!/usr/bin/env python3
"""Predicted vs measured speed ratio of one study measured on two GPUs.

Issue 13's headline what-if: how much faster is each row on GPU B than on GPU
A? Both files are compared with `tilesim compare --json` (each on the hardware
its sidecar names, or --hw-a / --hw-b); rows are joined by `name`. The ratio of a row is
time_A / time_B, measured and predicted; the table counts rows whose predicted
ratio is within --tolerance of the measured one.

  python3 bench/speed_ratio.py --tilesim build/bin/tilesim \\
      bench/measurements/h100_sxm_2026-11-28_gemm_validation_14.csv \\
      bench/measurements/h200_sxm_2026-11-28_gemm_validation_14.csv
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile


def compared_rows(tilesim, csv_path, hardware):
    command = [tilesim, "compare", "--measured", csv_path]
    if hardware:
        command += ["--hw", hardware]
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        run = subprocess.run(command + ["--json", out.name],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if run.returncode not in (0, 4):
            sys.exit(f"{csv_path}: tilesim compare failed ({run.returncode}):\n{run.stderr}")
        rows = json.load(open(out.name))["rows"]
    return {row["name"]: row for row in rows}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tilesim", required=True)
    parser.add_argument("--tolerance", type=float, default=0.05,
                        help="relative error of the predicted ratio counted as right (default 0.05)")
    parser.add_argument("--worst", type=int, default=5, help="rows listed with the largest error")
    parser.add_argument("--hw-a", help="hardware for the first file (default: its sidecar's)")
    parser.add_argument("--hw-b", help="hardware for the second file (default: its sidecar's)")
    parser.add_argument("gpu_a_csv")
    parser.add_argument("gpu_b_csv")
    args = parser.parse_args()

    a = compared_rows(args.tilesim, args.gpu_a_csv, args.hw_a)
    b = compared_rows(args.tilesim, args.gpu_b_csv, args.hw_b)
    names = sorted(set(a) & set(b))
    if not names:
        sys.exit("the two files share no row name")
    errors = []
    for name in names:
        measured = a[name]["measured_us"] / b[name]["measured_us"]
        predicted = a[name]["predicted_us"] / b[name]["predicted_us"]
        errors.append((predicted / measured - 1, name, measured, predicted))
    within = sum(abs(e) <= args.tolerance for e, *_ in errors)
    print(f"rows joined: {len(names)} (A {len(a)}, B {len(b)})")
    print(f"ratio A/B within {args.tolerance:.0%}: {within} of {len(names)}; "
          f"mean |error| {statistics.mean(abs(e) for e, *_ in errors):.1%}")
    print(f"median ratio: measured {statistics.median(m for _, _, m, _ in errors):.3f}, "
          f"predicted {statistics.median(p for *_, p in errors):.3f}")
    for error, name, measured, predicted in sorted(errors, key=lambda e: -abs(e[0]))[:args.worst]:
        print(f"  {name}: measured {measured:.3f}, predicted {predicted:.3f} ({error:+.1%})")


if __name__ == "__main__":
    main()
