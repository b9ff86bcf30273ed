#!/usr/bin/env python3
"""Derive `l2.slice_bandwidth` from the L2 fill/hit microbenchmark.

`tilesim-l2-fill-hit` (kernels/microbench/l2_fill_hit.cu) runs reads that hit
and reads that miss and fill at once; each point's slice traffic is hits + 2 x
fills (a miss is written into its slice by HBM's data, then read). The slices
never move more than their bandwidth, so the value is the most any point moved,
taken over the working sets from 1/8 to 1/2 of L2 (as `l2_bandwidth` is in
memory_bandwidth.cu: smaller sets are read faster than L2 serves a kernel's
real working set, many threads hitting the same few lines).

  fit_l2_slice_bandwidth.py          # print each working set's most and the value
  fit_l2_slice_bandwidth.py --check  # the H100 files carry the value (CI)

Exit status: 0; 1 a file does not carry the value (--check); 2 usage.
"""
import argparse
import csv
import os
import re
import sys

from hardware_key_check import exit_unless_carried

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MEASUREMENT = "bench/microbenchmarks/h100_sxm_2026-11-27_l2_fill_hit.csv"
L2_MIB = 50  # the H100's L2 (cudaDevAttrL2CacheSize, 52428800 bytes)
HARDWARE = ["configs/hw/h100_sxm.yaml", "configs/hw/h100_sxm.measured.yaml"]
KEY = re.compile(r'^\s*slice_bandwidth:\s*"([\d.]+) TB/s"', re.MULTILINE)


def most_per_working_set(path):
    most = {}
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        for row in csv.DictReader(f):
            mib = int(row["working_set_mib"])
            most[mib] = max(most.get(mib, 0.0), float(row["slice_gbs"]))
    return most


def fitted_tb_per_s(most):
    plateau = [gbs for mib, gbs in most.items() if L2_MIB / 8 <= mib <= L2_MIB / 2]
    if not plateau:
        print("fit_l2_slice_bandwidth.py: no working set from 1/8 to 1/2 of L2", file=sys.stderr)
        sys.exit(2)
    return round(max(plateau) / 1000, 2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    most = most_per_working_set(MEASUREMENT)
    value = fitted_tb_per_s(most)
    for mib, gbs in sorted(most.items()):
        print(f"{mib:3d} MiB: hits + 2 x fills at most {gbs / 1000:.2f} TB/s")
    print(f'l2.slice_bandwidth: "{value:.2f} TB/s"')
    if args.check:
        exit_unless_carried(HARDWARE, KEY, value)


if __name__ == "__main__":
    main()
