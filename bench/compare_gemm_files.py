#!/usr/bin/env python3
"""Compare every committed GEMM measurement file with the model, one table.

The files and the hardware each runs on are the ones
tests/validation/gemm_measurement_files_test.cpp lists (so a new file is
covered once it is listed there). For each, `tilesim compare --json` gives
own-kernel and cuBLAS MAPE, the worst own row, schedule top-1 and the worst
regret. `--save` writes the figures as JSON and `--against` prints them
beside a saved run (for example main's binary against a branch's):

  python3 bench/compare_gemm_files.py --tilesim /work/main-build/bin/tilesim --save main.json
  python3 bench/compare_gemm_files.py --tilesim build/bin/tilesim --against main.json
  python3 bench/compare_gemm_files.py --set 'l2.slice_bandwidth="9.59 TB/s"' --against main.json

Exit status: 0; 2 usage or a failing `tilesim compare`.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEST = "tests/validation/gemm_measurement_files_test.cpp"
# {"file.csv", own, lib} or {"file.csv", own, lib, "hardware"} in the test's kFiles
ENTRY = re.compile(r'\{"([^"]+\.csv)",\s*[\d.]+,\s*[\d.]+(?:,\s*"([^"]+)")?\}')


def listed_files():
    with open(os.path.join(REPO, TEST), encoding="utf-8") as f:
        text = f.read()
    return [(m.group(1), m.group(2) or "h100_sxm.measured") for m in ENTRY.finditer(text)]


def figures(tilesim, overrides, csv_name, hardware):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "compare.json")
        run = subprocess.run([tilesim, "compare", "--measured",
                              os.path.join(REPO, "bench", "measurements", csv_name),
                              "--hw", hardware, "--json", out]
                             + [arg for value in overrides for arg in ("--set", value)],
                             capture_output=True, text=True, check=False)
        if run.returncode != 0:
            print(f"compare_gemm_files.py: {csv_name}: {run.stderr.strip()}", file=sys.stderr)
            sys.exit(2)
        with open(out, encoding="utf-8") as f:
            data = json.load(f)
    metrics = data["metrics"]
    choice = data.get("schedule_choice") or {}
    outcomes = choice.get("outcomes", [])
    own = metrics.get("own_kernels", {})
    lib = metrics.get("library", {})
    return {
        "own_mape": own.get("mape_percent") if own.get("cases") else None,
        "own_worst": own.get("max_ape_percent") if own.get("cases") else None,
        "lib_mape": lib.get("mape_percent") if lib.get("cases") else None,
        "top1": f'{choice.get("correct", 0)}/{choice.get("groups", 0)}',
        "regret": max((o["regret_percent"] for o in outcomes), default=0.0),
    }


def cell(value, before=None):
    if value is None:
        return "-"
    if isinstance(value, str):
        return value if before is None else f"{before} -> {value}"
    return f"{value:.2f}" if before is None else f"{before:.2f} -> {value:.2f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tilesim", default=os.path.join(REPO, "build", "bin", "tilesim"))
    parser.add_argument("--save", help="write the figures as JSON to PATH")
    parser.add_argument("--against", help="print beside the figures saved in PATH")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a hardware override passed to every compare (repeatable)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    files = listed_files()
    if not files:
        print(f"compare_gemm_files.py: no files found in {TEST}", file=sys.stderr)
        sys.exit(2)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = dict(zip((f for f, _ in files),
                           pool.map(lambda fh: figures(args.tilesim, args.set, *fh), files)))
    before = {}
    if args.against:
        with open(args.against, encoding="utf-8") as f:
            before = json.load(f)
    print("| file | own MAPE | cuBLAS MAPE | worst own | top-1 | worst regret |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, now in results.items():
        was = before.get(name, {})
        keys = ["own_mape", "lib_mape", "own_worst", "top1", "regret"]
        print(f"| {name} | " + " | ".join(cell(now[k], was.get(k)) for k in keys) + " |")
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
