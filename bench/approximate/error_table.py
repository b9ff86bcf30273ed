#!/usr/bin/env python3
"""Approximate mode against the exact engine: every shipped study and sweep.

    bench/approximate/error_table.py [--tilesim build/bin/tilesim] \
        [--csv bench/approximate/error_table.csv]

Runs each study of configs/studies and kernels/studies with `tilesim simulate
--json` and each sweep of configs/sweeps with `tilesim sweep --csv`, once
exact and once with --approximate, and writes one CSV row per file: the
predicted times compared (every workload's time_us; every *_us column of a
sweep row but idle time and launch gaps), their largest and mean relative error, and the CPU seconds of
both processes (YAML loading included) with their ratio; and the same errors
over the times of Stream-K and split-K rows alone (their schedule names
stream_k or split_k, `auto`'s choice included: where the unit fast-forward
acts). Prints Markdown tables of both (bench/README.md keeps them). With
--before OTHER_TILESIM, also the errors of that build's approximate mode
against this build's exact one (the exact engine is the same in both), so
that a change to approximate mode shows each file's mean and worst before
and after.
"""

import argparse
import csv
import io
import json
import os
import pathlib
import resource
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Differences of predicted times (idle SM time, launch gaps), not times of their own.
NOT_PREDICTED_TIMES = {"sm_idle_us", "launch_gap_us"}


def run(command):
    """stdout of `command` and the CPU seconds (user + system) it took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, cpu_s


def is_stream_k_or_split_k(schedule):
    return "stream_k" in schedule or "split_k" in schedule


def study_times(tilesim, path, approximate):
    """Predicted times, whether each is a Stream-K/split-K row's, and the CPU seconds."""
    out, cpu_s = run([tilesim, "simulate", str(path), "--json", "-"] +
                     (["--approximate"] if approximate else []))
    results = json.loads(out)["results"]
    return ([result["time_us"] for result in results],
            [is_stream_k_or_split_k(result.get("schedule", "")) for result in results], cpu_s)


def sweep_times(tilesim, path, approximate):
    out, cpu_s = run([tilesim, "sweep", str(path), "-j", "1", "--csv", "-"] +
                     (["--approximate"] if approximate else []))
    times = []
    split = []
    for row in csv.DictReader(io.StringIO(out)):
        row_times = [float(value) for key, value in row.items()
                     if key.endswith("_us") and key not in NOT_PREDICTED_TIMES
                     and value not in ("", "nan")]
        times += row_times
        split += [is_stream_k_or_split_k(row.get("schedule") or "")] * len(row_times)
    return times, split, cpu_s


def error_columns(prefix, errors):
    return {
        f"{prefix}times": len(errors),
        f"{prefix}max_rel_error_pct": f"{100 * max(errors, default=0):.3f}",
        f"{prefix}mean_rel_error_pct": f"{100 * sum(errors) / max(len(errors), 1):.3f}",
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tilesim", default=str(ROOT / "build/bin/tilesim"))
    parser.add_argument("--csv", default=str(ROOT / "bench/approximate/error_table.csv"))
    parser.add_argument("--before", help="another build's tilesim: its approximate mode's errors")
    args = parser.parse_args()
    inputs = ([("study", p) for p in sorted((ROOT / "configs/studies").glob("*.yaml"))] +
              [("study", p) for p in sorted((ROOT / "kernels/studies").glob("*.yaml"))] +
              [("sweep", p) for p in sorted((ROOT / "configs/sweeps").glob("*.yaml"))])
    rows = []
    for kind, path in inputs:
        measure = study_times if kind == "study" else sweep_times
        exact, split, exact_cpu_s = measure(args.tilesim, path, False)
        approximate, _, approximate_cpu_s = measure(args.tilesim, path, True)
        assert len(exact) == len(approximate), path
        pairs = [(abs(a / e - 1), s) for a, e, s in zip(approximate, exact, split) if e > 0]
        before = {}
        if args.before:
            before_times = measure(args.before, path, True)[0]
            before = error_columns("before_", [abs(b / e - 1) for b, e in
                                               zip(before_times, exact) if e > 0])
            del before["before_times"]
        rows.append({
            "file": str(path.relative_to(ROOT)),
            "kind": kind,
            **error_columns("", [error for error, _ in pairs]),
            **before,
            "exact_cpu_s": f"{exact_cpu_s:.3f}",
            "approximate_cpu_s": f"{approximate_cpu_s:.3f}",
            "speed_ratio": f"{exact_cpu_s / max(approximate_cpu_s, 1e-3):.2f}",
            **error_columns("stream_k_split_k_", [error for error, s in pairs if s]),
        })
        print(f"{path.name}: max {rows[-1]['max_rel_error_pct']}%", file=sys.stderr)
    with open(args.csv, "w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    before_header = " max before | mean before |" if args.before else ""
    print("| file | times | max error | mean error |" + before_header +
          " exact CPU s | approximate CPU s | ratio |")
    print("|---|---:|---:|---:|" + ("---:|---:|" if args.before else "") + "---:|---:|---:|")
    for row in rows:
        before_cells = (f" {row['before_max_rel_error_pct']}% | {row['before_mean_rel_error_pct']}% |"
                        if args.before else "")
        print(f"| {row['file']} | {row['times']} | {row['max_rel_error_pct']}% | "
              f"{row['mean_rel_error_pct']}% |{before_cells} {row['exact_cpu_s']} | "
              f"{row['approximate_cpu_s']} | {row['speed_ratio']} |")
    print()
    print("Stream-K and split-K rows:")
    print()
    print("| file | times | max error | mean error |")
    print("|---|---:|---:|---:|")
    for row in rows:
        if row["stream_k_split_k_times"]:
            print(f"| {row['file']} | {row['stream_k_split_k_times']} | "
                  f"{row['stream_k_split_k_max_rel_error_pct']}% | "
                  f"{row['stream_k_split_k_mean_rel_error_pct']}% |")


if __name__ == "__main__":
    main()
