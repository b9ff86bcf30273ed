#!/usr/bin/env python3
"""Approximate mode's schedule choices against the exact engine's.

    bench/approximate/choice_agreement.py [--tilesim build/bin/tilesim] \
        [--csv bench/approximate/choice_agreement.csv]

Every study of configs/studies and kernels/studies that can make a choice
(`tilesim simulate --json`) and every GEMM measurement CSV of bench/measurements (`tilesim
compare --json`, whose `kernel: library` rows are simulated as `schedule:
auto`), once exact and once with --approximate. A choice is:
- a GEMM workload with `schedule: auto`: the schedule and tile it chose;
- a layer, model or graph workload whose GEMMs are `auto`: each GEMM kernel's
  name, CTA count, CTAs per SM and L2 bytes (the schedule is in the name; the
  tile sets the CTAs and, with the shape, the L2 bytes; approximate mode
  keeps L2 bytes exact);
- a `schedule: compare` workload: its fastest schedule;
- in a measurement CSV: each library row's simulated schedule, and each
  group's predicted-fastest row (`schedule_choice`).
Writes one CSV row per file with the `auto` choices (the first three kinds
and library rows) and the fastest-of-many choices apart (N agree of M) and
the CPU seconds of both modes; prints every disagreement and the totals.
"""

import argparse
import csv
import json
import pathlib
import re
import resource
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Studies that can make a choice: `auto` or `compare` GEMMs, layers, models
# and graphs (whose prefill GEMMs default to `auto`); the others are not run.
MAKES_CHOICES = re.compile(r"schedule: *(auto|compare)|^ *-? *(layer|model|graph) *:", re.MULTILINE)


def run_json(command):
    """JSON of `command` (written to stdout) and the CPU seconds it took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(command, check=False, capture_output=True, text=True, cwd=ROOT).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # A file tilesim refuses (a measurement CSV of another kind) has no choices.
    return (json.loads(out) if out else {}), cpu_s


def gemm_kernels(result):
    return tuple((kernel["name"], kernel["ctas"], kernel["ctas_per_sm"],
                  kernel["bytes"]["l2_read"])
                 for kernel in result.get("kernels", []) if "gemm" in kernel["name"])


def study_choices(results):
    """(key, choice) of every choice a study's results make."""
    choices = []
    fastest = {}
    for result in results:
        workload = result.get("workload", {})
        if "auto" in result:
            tile = tuple(workload.get(key) for key in ("tile_m", "tile_n", "tile_k", "splits"))
            choices.append((result["name"], (result["schedule"], tile)))
        elif workload.get("gemm_schedule") == "auto" or (result.get("kind") == "graph"
                                                         and gemm_kernels(result)):
            choices.append((result["name"], gemm_kernels(result)))
        elif result.get("kind") == "gemm" and "/" in result["name"]:
            base = result["name"].rsplit("/", 1)[0]
            if base not in fastest or result["time_us"] < fastest[base][0]:
                fastest[base] = (result["time_us"], result["schedule"])
    choices += [(f"{base} (fastest)", schedule) for base, (_, schedule) in fastest.items()]
    return choices


def compare_choices(report):
    choices = [(row["name"], row["simulated_schedule"]) for row in report.get("rows", [])
               if row.get("kernel") == "library" and "simulated_schedule" in row]
    choices += [(f"{outcome['problem']} (fastest)", outcome["predicted_fastest"])
                for outcome in report.get("schedule_choice", {}).get("outcomes", [])]
    return choices


def measure(tilesim, kind, path, approximate):
    flag = ["--approximate"] if approximate else []
    if kind == "study":
        report, cpu_s = run_json([tilesim, "simulate", str(path), "--json", "-"] + flag)
        return study_choices(report.get("results", [])), cpu_s
    report, cpu_s = run_json([tilesim, "compare", "--measured", str(path), "--json", "-"] + flag)
    return compare_choices(report), cpu_s


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tilesim", default=str(ROOT / "build/bin/tilesim"))
    parser.add_argument("--csv", default=str(ROOT / "bench/approximate/choice_agreement.csv"))
    args = parser.parse_args()
    studies = (sorted((ROOT / "configs/studies").glob("*.yaml")) +
               sorted((ROOT / "kernels/studies").glob("*.yaml")))
    inputs = ([("study", p) for p in studies if MAKES_CHOICES.search(p.read_text())] +
              [("measured", p) for p in sorted((ROOT / "bench/measurements").glob("*gemm*.csv"))])
    rows = []
    for kind, path in inputs:
        exact, exact_cpu_s = measure(args.tilesim, kind, path, False)
        if not exact:
            continue
        approximate, approximate_cpu_s = measure(args.tilesim, kind, path, True)
        assert [key for key, _ in exact] == [key for key, _ in approximate], path
        counts = {"auto_choices": 0, "auto_agree": 0, "fastest_choices": 0, "fastest_agree": 0}
        for (key, chosen), (_, approximated) in zip(exact, approximate):
            group = "fastest" if key.endswith("(fastest)") else "auto"
            counts[f"{group}_choices"] += 1
            if chosen == approximated:
                counts[f"{group}_agree"] += 1
            else:
                print(f"{path.name}: {key}: exact {chosen}, approximate {approximated}")
        rows.append({"file": str(path.relative_to(ROOT)), "kind": kind, **counts,
                     "exact_cpu_s": f"{exact_cpu_s:.3f}",
                     "approximate_cpu_s": f"{approximate_cpu_s:.3f}"})
        print(f"{path.name}: {counts}", file=sys.stderr)
    with open(args.csv, "w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    exact_s = sum(float(row["exact_cpu_s"]) for row in rows)
    approximate_s = sum(float(row["approximate_cpu_s"]) for row in rows)
    for group in ("auto", "fastest"):
        agree = sum(row[f"{group}_agree"] for row in rows)
        total = sum(row[f"{group}_choices"] for row in rows)
        print(f"{group}: {agree} of {total} choices agree")
    print(f"{len(rows)} files; CPU {exact_s:.1f} s exact, {approximate_s:.1f} s approximate")


if __name__ == "__main__":
    main()
