#!/usr/bin/env python3
"""Fit `cta_setup` of configs/frameworks/pytorch.yaml (what each CTA of a
PyTorch kernel family pays before its first load) on the family
microbenchmark, never on model rows.

pytorch_kernel_families.py measures, per op, the slope of a CUDA graph's
replay time over its node count (16 and 128 nodes of one op, `rows` x 4096
values, the input resident in L2). This script simulates the same graphs
(a producer kernel, then the op repeated 16 and 128 times, reading the
producer's output) as tuned kernels (`family: none`) and fits, per family,
the setup that closes the gap: the mean of measured - simulated node time over
the family's ops and rows (one CTA wave at these sizes, so a CTA's setup adds
to every node once). The H200 file is predicted with the H100 fit, as a check.

  fit_framework_families.py --tilesim build/bin/tilesim          # fit, residuals
  fit_framework_families.py --tilesim build/bin/tilesim --check  # committed = fit (CI)
  fit_framework_families.py --tilesim build/bin/tilesim --after-gemv  # the ops after a GEMV

Exit status: 0; 1 the committed values are not the fit (--check); 2 usage.
"""
import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROFILE = "configs/frameworks/pytorch.yaml"
FIT_ON = ("h100_sxm", "bench/microbenchmarks/h100_sxm_2026-11-26_pytorch_kernel_families.csv")
CHECK_ON = ("h200_sxm", "bench/microbenchmarks/h200_sxm_2026-11-26_pytorch_kernel_families.csv")
NODES = (16, 128)
AFTER_GEMV = ("h100_sxm.measured",
              "bench/microbenchmarks/h100_sxm_2026-11-27_pytorch_kernel_families_after_gemv.csv")
PAIRS = (16, 64)  # (GEMV, op) pairs a graph, as pytorch_kernel_families.py --after-gemv
GEMV_N = 8192
STEP_US = 0.01  # the YAML's rounding
# Each measured op as a graph kernel: (op, function, input dtype, output dtype).
# Broadcast operands (rstd, weight, cos) are tiny and stay in L2: one input.
GRAPH_OPS = {
    "pow": ("elementwise", "relu", "fp32", "fp32"),
    "add": ("elementwise", "add", "bf16", "bf16"),
    "to_bf16": ("elementwise", "copy", "fp32", "bf16"),
    "mul_rstd": ("elementwise", "relu", "fp32", "fp32"),
    "mul_weight": ("elementwise", "relu", "bf16", "bf16"),
    "mul_cos": ("elementwise", "relu", "bf16", "bf16"),
    "cache_write": ("elementwise", "copy", "bf16", "bf16"),
    "to_fp32": ("elementwise", "copy", "bf16", "fp32"),
    "mean": ("mean", None, "fp32", "fp32"),
    "cat": ("elementwise", "copy", "bf16", "bf16"),
}


def launched_family(row):
    """The family of the kernel ATen launches. `weight * x` broadcasts the weight
    over rows, but one row is no broadcast: TensorIterator drops the size-1 dim
    and the contiguous operands take the vectorized kernel."""
    if row["op"] == "mul_weight" and int(row["rows"]) == 1:
        return "vectorized"
    return row["family"]


def measured_rows(path):
    with open(os.path.join(REPO, path), newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["family"] != "mixed"]
    for row in rows:
        row["family"] = launched_family(row)
    return rows


def graph_workload(row, nodes):
    op, function, in_dtype, out_dtype = GRAPH_OPS[row["op"]]
    shape = f"rows: {row['rows']}, cols: {row['cols']}"
    inputs = "[src, src]" if function == "add" else "[src]"
    kernel = f"{{name: op, op: {op}, {shape}, dtype: {out_dtype}, family: {row['family']}, " \
             f"inputs: {inputs}, repeat: {nodes}" + (f", function: {function}}}" if function else "}")
    return (f"  - name: {row['family']}_{row['op']}_r{row['rows']}_n{nodes}\n"
            f"    graph:\n      launch: cuda_graph\n      kernels:\n"
            f"        - {{name: src, op: elementwise, function: copy, {shape}, dtype: {in_dtype}}}\n"
            f"        - {kernel}\n")


def zero_setup_configs(folder):
    """A copy of configs/ whose framework profile has no setup: the families' launch
    geometry alone, what the fit measures the setup against."""
    configs = os.path.join(folder, "configs")
    shutil.copytree(os.path.join(REPO, "configs"), configs)
    path = os.path.join(configs, "frameworks", "pytorch.yaml")
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(re.sub(r"(sm\d+): [0-9.]+ us", r"\1: 0 us", text))
    return configs


def simulate_study(tilesim, study, folder):
    """{workload name: its result} of `tilesim simulate` on the study text."""
    path = os.path.join(folder, "study.yaml")
    with open(path, "w") as f:
        f.write(study)
    run = subprocess.run([tilesim, "simulate", path, "--json", "-"], capture_output=True,
                         text=True, cwd=REPO)
    if run.returncode != 0:
        sys.exit(f"{os.path.basename(sys.argv[0])}: tilesim simulate failed\n{run.stderr}")
    return {r["name"]: r for r in json.loads(run.stdout)["results"]}


def simulated_node_us(tilesim, hardware, rows, zero_setup):
    """Simulated per-node time of each row's op (its family's kernel), as the
    microbenchmark's slope; with `zero_setup`, every family's setup 0."""
    with tempfile.TemporaryDirectory() as folder:
        configs = zero_setup_configs(folder) if zero_setup else os.path.join(REPO, "configs")
        study = f"hardware: {os.path.join(configs, 'hw', hardware + '.yaml')}\nworkloads:\n" + \
            "".join(graph_workload(row, nodes) for row in rows for nodes in NODES)
        times = {name: r["time_us"] for name, r in simulate_study(tilesim, study, folder).items()}
    node_us = []
    for row in rows:
        t = [times[f"{row['family']}_{row['op']}_r{row['rows']}_n{n}"] for n in NODES]
        node_us.append((t[1] - t[0]) / (NODES[1] - NODES[0]))
    return node_us


def fit(tilesim):
    hardware, path = FIT_ON
    rows = measured_rows(path)
    base = simulated_node_us(tilesim, hardware, rows, zero_setup=True)
    gaps = {}
    for row, simulated in zip(rows, base):
        gaps.setdefault(row["family"], []).append(float(row["node_us"]) - simulated)
    return {family: max(0.0, round(sum(g) / len(g) / STEP_US) * STEP_US)
            for family, g in gaps.items()}


def committed():
    text = open(os.path.join(REPO, PROFILE)).read()
    return {family: float(us) for family, us in
            re.findall(r"^  (\w+): \{sm90: ([0-9.]+) us", text, re.MULTILINE)}


def residuals(tilesim, hardware, path):
    rows = measured_rows(path)
    predicted = simulated_node_us(tilesim, hardware, rows, zero_setup=False)
    print(f"{hardware} ({path}), predicted with the committed profile:")
    print(f"  {'family':12} {'op':12} {'rows':>4} {'measured':>9} {'model':>7} {'error':>7}")
    errors = []
    for row, model in zip(rows, predicted):
        measured = float(row["node_us"])
        errors.append(abs(model - measured) / measured)
        print(f"  {row['family']:12} {row['op']:12} {row['rows']:>4} {measured:9.2f} "
              f"{model:7.2f} {100 * (model - measured) / measured:+6.1f}%")
    print(f"  mean |error| {100 * sum(errors) / len(errors):.1f}% over {len(errors)} ops")


def pairs_workload(row, pairs, with_op):
    """The --after-gemv graph: a producer, then `pairs` GEMVs over a 64 MiB weight, each
    followed (with `with_op`) by the row's op on the producer's output."""
    op, function, in_dtype, out_dtype = GRAPH_OPS[row["op"]]
    shape = f"rows: {row['rows']}, cols: {row['cols']}"
    inputs = "[src, src]" if function == "add" else "[src]"
    suffix = f", function: {function}}}" if function else "}"
    lines = [f"  - name: {row['op']}_r{row['rows']}_p{pairs}_{int(with_op)}",
             "    graph:\n      launch: cuda_graph\n      kernels:",
             f"        - {{name: src, op: elementwise, function: copy, {shape}, dtype: {in_dtype}}}"]
    for i in range(pairs):
        lines.append(f"        - {{name: g{i}, op: gemm, m: {row['rows']}, n: {GEMV_N}, "
                     f"k: {row['cols']}, schedule: split_k}}")
        if with_op:
            lines.append(f"        - {{name: o{i}, op: {op}, {shape}, dtype: {out_dtype}, "
                         f"family: {row['family']}, inputs: {inputs}" + suffix)
    return "\n".join(lines) + "\n"


def after_gemv_report(tilesim):
    """Measured against simulated cost of each op after an L2-evicting GEMV (no fit)."""
    hardware, path = AFTER_GEMV
    rows = [r for r in measured_rows(path) if r.get("context") == "after_gemv"]
    with tempfile.TemporaryDirectory() as folder:
        study = f"hardware: {os.path.join(REPO, 'configs', 'hw', hardware + '.yaml')}\n" \
                "workloads:\n" + "".join(pairs_workload(row, n, with_op) for row in rows
                                          for n in PAIRS for with_op in (False, True))
        study_path = os.path.join(folder, "after_gemv.yaml")
        with open(study_path, "w") as f:
            f.write(study)
        run = subprocess.run([tilesim, "simulate", study_path, "--json", "-"],
                             capture_output=True, text=True, cwd=REPO)
    if run.returncode != 0:
        sys.exit(f"fit_framework_families: tilesim simulate failed\n{run.stderr}")
    t = {r["name"]: r["time_us"] for r in json.loads(run.stdout)["results"]}
    slope = PAIRS[1] - PAIRS[0]
    print(f"{hardware} ({path}), each op after a GEMV, us a node:")
    print(f"  {'family':12} {'op':12} {'rows':>4} {'measured':>9} {'model':>7}")
    for row in rows:
        name = f"{row['op']}_r{row['rows']}_p"
        model = ((t[f"{name}{PAIRS[1]}_1"] - t[f"{name}{PAIRS[0]}_1"]) -
                 (t[f"{name}{PAIRS[1]}_0"] - t[f"{name}{PAIRS[0]}_0"])) / slope
        print(f"  {row['family']:12} {row['op']:12} {row['rows']:>4} "
              f"{float(row['node_us']):9.2f} {model:7.2f}")


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tilesim", required=True)
    p.add_argument("--check", action="store_true")
    p.add_argument("--after-gemv", action="store_true",
                   help="report each op's measured and simulated cost after a GEMV; no fit")
    args = p.parse_args(argv)
    if args.after_gemv:
        after_gemv_report(args.tilesim)
        return 0
    fitted = fit(args.tilesim)
    have = committed()
    stale = [f"cta_setup.{family}: committed {have.get(family)}, the fit is {us:.2f} us"
             for family, us in fitted.items() if abs(have.get(family, -1) - us) > 1e-9]
    if args.check:
        for line in stale:
            print(f"fit_framework_families: {PROFILE}: {line}", file=sys.stderr)
        return 1 if stale else 0
    print(f"fit on {FIT_ON[1]} ({FIT_ON[0]}):")
    for family, us in fitted.items():
        print(f"  cta_setup.{family}: {us:.2f} us")
    for hardware, path in (FIT_ON, CHECK_ON):
        residuals(args.tilesim, hardware, path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
