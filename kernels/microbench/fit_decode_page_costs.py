#!/usr/bin/env python3
"""Fit our decode profile's page costs on the round 11 A/B rows (the ring kernel).

`decode_turn.per_page` and `decode_turn.page_hbm`
(configs/attention/tilesim_ref_mma_sync.yaml) are what a paged block costs
beyond a contiguous one: per_page on a lone CTA's turn, page_hbm under shared
HBM. Both are fitted on the named calibration rows of the round 11 A/B study
(kernels/studies/attention_round11_paged_ab.yaml, timed on the ring kernel:
bench/measurements/h100_sxm_2026-11-27_attention_round11_ring_paged_ab_ref.csv),
never on a validation row:
  per_page   the one lone paged_v1 row (8 x 5120, 24/6, page 16: 48 CTAs on
             132 SMs) predicted as measured;
  page_hbm   the mean signed error of its six paged_v2 rows (pages 16 and 32,
             d 64 and 128, every CTA slot busy) zero.
Each is found by bisection with the other held, twice in turn (they touch
each other's rows a little), then rounded (per_page to 0.001 us, page_hbm to
0.01 KiB). per_paged_block stays round 6's ncu-derived 0.04 us: one lone row
fixes one parameter.

Run with `--tilesim build/bin/tilesim` to print the fit and each row's error;
`--check` exits 1 when the committed values are not the fit (the ctest
validation.decode_page_costs_are_the_fit). Exit 2: usage, or tilesim failed.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROFILE = os.path.join("attention", "tilesim_ref_mma_sync.yaml")
CALIBRATION = os.path.join(
    ROOT, "bench", "measurements", "h100_sxm_2026-11-27_attention_round11_ring_paged_ab_ref.csv")
HARDWARE = "h100_sxm.measured"
LONE_ROW = "r11ab_paged_v1_p16_d5k_b8_h24kv6_d128"
PER_PAGE = re.compile(r"(  per_page: \{sm90: )([0-9.]+)( us, sm80: )([0-9.]+)( us\})")
PAGE_HBM = re.compile(r"(  page_hbm: \{sm90: )([0-9.]+)( KiB, sm80: )([0-9.]+)( KiB\})")


def committed(text, pattern):
    match = pattern.search(text)
    if not match:
        sys.exit(f"fit_decode_page_costs: {pattern.pattern} not found in {PROFILE}")
    return float(match.group(2))


def with_value(text, pattern, value, digits):
    shown = f"{value:.{digits}f}"
    return pattern.sub(lambda m: m.group(1) + shown + m.group(3) + shown + m.group(5), text)


def errors(tilesim, config_dir, text):
    """Signed error percent of every calibration row under this profile text."""
    with open(os.path.join(config_dir, PROFILE), "w") as f:
        f.write(text)
    env = dict(os.environ, TILESIM_CONFIG_DIR=config_dir)
    out = subprocess.run([tilesim, "compare", "--measured", CALIBRATION, "--hw", HARDWARE,
                          "--json", "-"], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        sys.exit(2)
    return {r["name"]: (r["variant"], r["error_percent"]) for r in json.loads(out.stdout)["rows"]}


def bisect(objective, low, high, steps=40):
    """The root of an objective that rises with its argument, within [low, high]."""
    for _ in range(steps):
        mid = (low + high) / 2
        if objective(mid) > 0:
            high = mid
        else:
            low = mid
    return (low + high) / 2


def fit(tilesim, config_dir, text):
    per_page_us = committed(text, PER_PAGE)
    page_hbm_kib = committed(text, PAGE_HBM)

    def profile(per_page, page_hbm):
        return with_value(with_value(text, PER_PAGE, per_page, 6), PAGE_HBM, page_hbm, 6)

    def lone_error(per_page):
        return errors(tilesim, config_dir, profile(per_page, page_hbm_kib))[LONE_ROW][1]

    def shared_error(page_hbm):
        rows = errors(tilesim, config_dir, profile(per_page_us, page_hbm)).values()
        paged = [e for variant, e in rows if variant == "paged_v2"]
        return sum(paged) / len(paged)

    for _ in range(2):
        per_page_us = bisect(lone_error, 0.0, 0.2)
        page_hbm_kib = bisect(shared_error, 0.0, 2.0)
    return round(per_page_us, 3), round(page_hbm_kib, 2), profile


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tilesim", required=True)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    with open(os.path.join(ROOT, "configs", PROFILE)) as f:
        text = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        config_dir = os.path.join(tmp, "configs")
        shutil.copytree(os.path.join(ROOT, "configs"), config_dir)
        per_page_us, page_hbm_kib, profile = fit(args.tilesim, config_dir, text)
        fitted = errors(args.tilesim, config_dir, profile(per_page_us, page_hbm_kib))
    print(f"per_page {per_page_us:.3f} us (committed {committed(text, PER_PAGE)}), "
          f"page_hbm {page_hbm_kib:.2f} KiB (committed {committed(text, PAGE_HBM)})")
    for name, (variant, error) in fitted.items():
        print(f"  {name:48s} {variant:16s} {error:+6.1f}%")
    if args.check and (abs(per_page_us - committed(text, PER_PAGE)) > 5e-4 or
                       abs(page_hbm_kib - committed(text, PAGE_HBM)) > 5e-3):
        print("fit_decode_page_costs: the committed values are not the fit", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
