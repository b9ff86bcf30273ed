#!/usr/bin/env python3
"""Which kernels a study's workloads launch, by name, grid and time, from ncu.

Runs Nsight Compute once per workload of a study (each workload split into a
one-workload study, so every launch is attributed to it) over tilesim-measure,
and writes two CSVs:

  PREFIX_ncu.csv          one row per profiled launch: workload, launch,
                          kernel, grid, block, registers, time_ns
  PREFIX_ncu_summary.csv  one row per workload and kernel: launches, grid,
                          block, registers, median_time_us, status

Use (on the device, from the repo root):
  kernels/measure/ncu_kernel_names.py STUDY.yaml --measure BIN --out PREFIX
      [--ncu PATH] [--kernels REGEX] [--skip N] [--count N]
      [--budget-s S] [--per-workload-s S] [--dry-run]

Exit status: 0 when every workload was profiled; 1 when one failed or the
budget ran out (the summary's status column says which); 2 on bad input;
77 when PyYAML is missing.
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time

try:
    import yaml
except ImportError:
    print("ncu_kernel_names.py: PyYAML is missing (apt install python3-yaml)", file=sys.stderr)
    sys.exit(77)

# The launches of one timed run are what we want; tilesim-measure's warm-up
# and checks launch first, so the default skips the first launches.
METRICS = ("gpu__time_duration.sum", "launch__grid_size", "launch__block_size",
           "launch__registers_per_thread")
MEASURE_ARGS = ("--warmup-ms", "0", "--target-ms", "1", "--min-runs", "20")


class InputError(Exception):
    pass


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("study")
    p.add_argument("--measure", required=True, help="tilesim-measure binary")
    p.add_argument("--out", required=True, help="output path prefix")
    p.add_argument("--ncu", default="ncu")
    p.add_argument("--kernels", default="", help="ncu -k regex (default: every kernel)")
    p.add_argument("--skip", type=int, default=10, help="launches skipped per workload")
    p.add_argument("--count", type=int, default=12, help="launches profiled per workload")
    p.add_argument("--budget-s", type=float, default=240)
    p.add_argument("--per-workload-s", type=float, default=40)
    p.add_argument("--dry-run", action="store_true", help="print the ncu commands, run nothing")
    a = p.parse_args(argv)
    if a.skip < 0 or a.count < 1 or a.budget_s <= 0 or a.per_workload_s <= 0:
        p.error("--skip >= 0, --count >= 1, --budget-s > 0 and --per-workload-s > 0")
    return a


def load_workloads(path):
    try:
        with open(path) as f:
            study = yaml.safe_load(f)
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}")
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        raise InputError(f"{path}{where}: not YAML: {getattr(e, 'problem', e)}")
    if not isinstance(study, dict) or not isinstance(study.get("workloads"), list) \
            or not study["workloads"]:
        raise InputError(f"{path}: 'workloads' must be a non-empty list")
    for i, w in enumerate(study["workloads"]):
        if not isinstance(w, dict) or not isinstance(w.get("name"), str):
            raise InputError(f"{path}: workloads[{i}]: every workload needs a 'name'")
    return study


def one_workload_studies(study, folder):
    """(name, path) per workload; the path holds a study of that workload only."""
    files = []
    for w in study["workloads"]:
        one = {k: v for k, v in study.items() if k != "workloads"}
        one["workloads"] = [w]
        path = os.path.join(folder, f"{len(files):04d}.yaml")
        with open(path, "w") as f:
            yaml.safe_dump(one, f, sort_keys=False)
        files.append((w["name"], path))
    return files


def ncu_command(a, study_path, csv_path):
    cmd = [a.ncu, "--clock-control", "none", "--cache-control", "none", "--csv",
           "--metrics", ",".join(METRICS), "-s", str(a.skip), "-c", str(a.count)]
    if a.kernels:
        cmd += ["-k", f"regex:{a.kernels}"]
    return cmd + [a.measure, study_path, *MEASURE_ARGS, "--csv", csv_path]


def parse_ncu_csv(text):
    """Launch rows from ncu --csv output: one per launch ID, metrics pivoted."""
    lines = [line for line in text.splitlines() if line.startswith('"')]
    launches = {}
    for row in csv.DictReader(lines):
        launch = launches.setdefault(row["ID"], {
            "kernel": row["Kernel Name"], "grid": row["Grid Size"], "block": row["Block Size"]})
        launch[row["Metric Name"]] = row["Metric Value"].replace(",", "")
    return [(int(i), l) for i, l in sorted(launches.items(), key=lambda kv: int(kv[0]))]


def profile(a, path, csv_path):
    """(status, launch rows) of one workload."""
    try:
        done = subprocess.run(ncu_command(a, path, csv_path), capture_output=True, text=True,
                              timeout=a.per_workload_s)
    except subprocess.TimeoutExpired:
        return f"timeout after {a.per_workload_s:g} s", []
    except OSError as e:
        raise InputError(f"--ncu {a.ncu}: cannot run: {e.strerror}")
    try:
        launches = parse_ncu_csv(done.stdout)
    except (KeyError, csv.Error) as e:
        return f"unreadable ncu output ({e})", []
    if done.returncode != 0:
        last_line = (done.stderr.strip().splitlines() or [""])[-1]
        return f"ncu rc={done.returncode}: {last_line}", launches
    return ("ok" if launches else "no kernel matched"), launches


def summary_rows(name, status, launches):
    by_kernel = {}
    for _, l in launches:
        by_kernel.setdefault(l["kernel"], []).append(l)
    if not by_kernel:
        return [[name, "", 0, "", "", "", "", status]]
    rows = []
    for kernel, ls in by_kernel.items():
        times_us = [float(l["gpu__time_duration.sum"]) / 1e3 for l in ls]
        first = ls[0]
        rows.append([name, kernel, len(ls), first["grid"], first["block"],
                     first.get("launch__registers_per_thread", ""),
                     f"{statistics.median(times_us):.3f}", status])
    return rows


def run(a):
    study = load_workloads(a.study)
    with tempfile.TemporaryDirectory() as folder:
        studies = one_workload_studies(study, folder)
        if a.dry_run:
            for name, path in studies:
                print(name + ": " + " ".join(ncu_command(a, path, os.path.join(folder, "x.csv"))))
            return 0
        start = time.monotonic()
        launch_rows, summary, failed = [], [], 0
        for name, path in studies:
            if time.monotonic() - start > a.budget_s:
                status, launches = f"not run: budget of {a.budget_s:g} s spent", []
            else:
                status, launches = profile(a, path, os.path.join(folder, "measure.csv"))
            failed += status != "ok"
            launch_rows += [[name, i, l["kernel"], l["grid"], l["block"],
                             l.get("launch__registers_per_thread", ""),
                             l.get("gpu__time_duration.sum", "")] for i, l in launches]
            summary += summary_rows(name, status, launches)
    write_csv(a.out + "_ncu.csv",
              ["workload", "launch", "kernel", "grid", "block", "registers", "time_ns"], launch_rows)
    write_csv(a.out + "_ncu_summary.csv",
              ["workload", "kernel", "launches", "grid", "block", "registers", "median_time_us",
               "status"], summary)
    print(f"{len(studies) - failed} of {len(studies)} workloads profiled, "
          f"{len(launch_rows)} launches; {a.out}_ncu.csv, {a.out}_ncu_summary.csv")
    return 1 if failed else 0


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def main(argv):
    a = parse_args(argv)
    try:
        return run(a)
    except InputError as e:
        print(f"ncu_kernel_names.py: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
