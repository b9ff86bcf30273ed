#!/usr/bin/env python3
"""Derive `l2.reader_drift` from the CTA drift microbenchmark.

`tilesim-cta-drift` (kernels/microbench/cta_drift.cu) runs one persistent CTA
per SM, each streaming the same amount of HBM data in 192 KiB chunks, and
stamps every CTA's chunk ends. With sharers = 1 the CTAs share nothing, so
nothing pulls a CTA that falls behind back into step: the stamps of two CTAs
(b, b + SMs/2) at the end drift apart freely. `pair_spread_end_us` is the
median of that offset over the pairs; for a normal offset the median of its
size is 0.6745 sigma, and two CTAs of age T each drift by reader_drift x T, so
sigma = reader_drift x sqrt(2) x T (T: the launch's span, every CTA starting
within a microsecond).

  fit_reader_drift.py          # print the value
  fit_reader_drift.py --check  # the H100 files carry the value (CI)

Exit status: 0; 1 a file does not carry the value (--check); 2 usage.
"""
import argparse
import csv
import math
import os
import re
import sys

from hardware_key_check import exit_unless_carried

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MEASUREMENT = "bench/microbenchmarks/h100_sxm_2026-11-27_cta_drift.csv"
HARDWARE = ["configs/hw/h100_sxm.yaml", "configs/hw/h100_sxm.measured.yaml"]
KEY = re.compile(r"^\s*reader_drift:\s*([\d.]+)", re.MULTILINE)
MEDIAN_OF_SIZE_PER_SIGMA = 0.6745


def fitted_drift(path):
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        unshared = [row for row in csv.DictReader(f) if row["sharers"] == "1"]
    if not unshared:
        print("fit_reader_drift.py: no sharers = 1 row", file=sys.stderr)
        sys.exit(2)
    row = unshared[0]
    sigma_us = float(row["pair_spread_end_us"]) / MEDIAN_OF_SIZE_PER_SIGMA
    return round(sigma_us / (math.sqrt(2) * float(row["span_us"])), 4)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    value = fitted_drift(MEASUREMENT)
    print(f"l2.reader_drift: {value}")
    if args.check:
        exit_unless_carried(HARDWARE, KEY, value)


if __name__ == "__main__":
    main()
