#!/usr/bin/env python3
"""Fit `launch.framework_dispatch` (the framework's host cost per eager op) on
the dispatch probe of torch_llama_forward.py, never on model rows.

The probe is a 4-layer decode forward at toy dimensions, launched eagerly: every
kernel is a few microseconds of GPU work, so the forward is host-bound, and with
no split-K every op launches one kernel. Its host time per kernel is what the
simulator charges an eager framework op: launch.framework_dispatch +
launch.host_issue (the view ops and Python between kernels included). The fit
is, per hardware file, the median of every probe sample of its runs (the host
that GPU was lent with) minus that file's host_issue.

  fit_framework_dispatch.py          # print the fit
  fit_framework_dispatch.py --check  # the committed value is the fit (CI)

Exit status: 0; 1 the committed value is not the fit (--check); 2 usage.
"""
import argparse
import json
import os
import re
import statistics
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Each hardware file and the runs whose probe it is fitted on (the host the GPU was lent with).
# Measured without CUPTI loaded (torch_llama_forward.py since 2026-11-27 16:00 UTC:
# every run before it timed with the profiler's callbacks in place, +30-50% of host time).
H100_RUNS = [f"bench/measurements/h100_sxm_2026-11-27_model_forward_{name}.json"
             for name in ("1b", "2b", "qwen_b", "3b", "mistral_b", "6b", "llama3b_b", "qwen14b_b")]
H200_RUNS = [f"bench/measurements/h200_sxm_2026-11-27_model_forward_{name}.json"
             for name in ("6b", "3b", "mistral_b", "llama3b_b", "qwen14b_b")]
# (h100_sxm.measured.yaml is generated from h100_sxm.yaml's launch block: MeasuredHardwareFile.)
PROBE_RUNS = {
    "configs/hw/h100_sxm.yaml": H100_RUNS,
    "configs/hw/h200_sxm.yaml": H200_RUNS,
}
STEP_US = 0.1  # the YAML's rounding


def yaml_us(text, key, hardware):
    match = re.search(rf'^\s+{key}:\s*"?([0-9.]+) us"?', text, re.MULTILINE)
    if not match:
        sys.exit(f"fit_framework_dispatch: {hardware}: no launch.{key} in us")
    return float(match.group(1))


def main(argv):
    p = argparse.ArgumentParser()
    p.add_argument("--check", action="store_true")
    args = p.parse_args(argv)
    stale = 0
    for hardware, runs in PROBE_RUNS.items():
        samples = []
        for run in runs:
            with open(os.path.join(REPO, run)) as f:
                samples += [s["us_per_kernel"] for s in json.load(f)["dispatch_probe"]["samples"]]
        with open(os.path.join(REPO, hardware)) as f:
            text = f.read()
        per_kernel_us = statistics.median(samples)
        fit_us = round((per_kernel_us - yaml_us(text, "host_issue", hardware)) / STEP_US) * STEP_US
        print(f"{hardware}: {len(samples)} probe samples, median {per_kernel_us:.2f} us per kernel "
              f"(min {min(samples):.2f}, max {max(samples):.2f}): "
              f"launch.framework_dispatch = {fit_us:.1f} us")
        if args.check:
            committed = yaml_us(text, "framework_dispatch", hardware)
            if abs(committed - fit_us) > STEP_US / 2:
                print(f"fit_framework_dispatch: {hardware} has {committed} us, the fit is "
                      f"{fit_us:.1f}", file=sys.stderr)
                stale += 1
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
