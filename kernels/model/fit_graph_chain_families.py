#!/usr/bin/env python3
"""Per-node cost of each PyTorch kernel family and of SDPA decode in a CUDA graph:
the chain microbenchmark against the model, and the `ramp_and_drain` it fits.

graph_chain_families.py times N copies of one op in ONE CUDA graph, N = 1..64
(bench/microbenchmarks/h100_sxm_2026-11-27_graph_chain_families.csv). Below ~8
nodes the replay's own floor (10-16 us) hides the nodes, so the measured slope
is the Theil-Sen slope (median of the pairwise slopes) over N >= 8, robust to
a single slow replay. The same chains are simulated as `graph:` workloads (the
ATen ops as fit_framework_families.py builds them, SDPA as `op: attention`
nodes) at N = 8 and 64 with the committed configs; the simulation has no noise.

The model's SDPA in a graph reads its K/V from L2 at every node after the
first (the attention arrays' ids do not depend on the node), so an SDPA node's
simulated cost is taken cold: the start of the second node's first kernel less
the first's, in a two-node graph.

What it fits: `ramp_and_drain` of configs/attention/fa3_wgmma.yaml (the
`library` attention on sm90: the split-KV kernel and its combine, two kernels a
call), the committed value plus the mean SDPA gap over its two kernels, rounded
to 0.1 us. The ATen families are not fitted here (`cta_setup`,
fit_framework_families.py): --check asserts that their committed fit predicts
these batch-1 chains within FAMILY_TOLERANCE_US a node.

  fit_graph_chain_families.py --tilesim build/bin/tilesim           # table
  fit_graph_chain_families.py --tilesim build/bin/tilesim --check   # CI

Exit status: 0; 1 (--check) the committed ramp_and_drain is not the fit, or an
ATen family's mean gap exceeds FAMILY_TOLERANCE_US; 2 usage or a failing tilesim run.
"""
import argparse
import csv
import os
import re
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fit_framework_families import (graph_workload, launched_family,  # noqa: E402
                                    simulate_study)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHAINS = os.path.join(REPO, "bench", "microbenchmarks",
                      "h100_sxm_2026-11-27_graph_chain_families.csv")
HARDWARE = "h100_sxm"
MIN_CHAIN = 8
SIMULATED_CHAINS = (8, 64)
PROFILE = "configs/attention/fa3_wgmma.yaml"
SDPA_KERNELS = 2  # the split-KV kernel and its combine
STEP_US = 0.1
HIDDEN = 4096
SDPA = "heads: 32, kv_heads: 8, q_len: 1"
FAMILY_TOLERANCE_US = 0.75


def measured():
    """{(family, op, kv_len): [(N, us)]} of the graph chains."""
    points = {}
    with open(CHAINS, newline="") as f:
        for row in csv.DictReader(f):
            if row["family"] != "attention":
                row["family"] = launched_family(dict(row, rows="1"))
            key = (row["family"], row["op"], int(row["kv_len"]))
            points.setdefault(key, []).append((int(row["chain"]), float(row["time_us"])))
    return points


def theil_sen(points):
    p = [(n, t) for n, t in points if n >= MIN_CHAIN]
    return statistics.median((t2 - t1) / (n2 - n1) for i, (n1, t1) in enumerate(p)
                             for n2, t2 in p[i + 1:])


def chain_workload(key, chain):
    family, op, kv_len = key
    if family != "attention":
        row = dict(family=family, op=op, rows=1, cols=HIDDEN)
        return graph_workload(row, chain).replace(f"_r1_n{chain}", f"_chain{chain}")
    return (f"  - name: attention_{op}_{kv_len}\n"
            f"    graph:\n      launch: cuda_graph\n      kernels:\n"
            f"        - {{name: a, op: attention, {SDPA}, kv_len: {kv_len}, repeat: 2}}\n")


def simulate(tilesim, keys):
    """{workload name: its result} of every chain the keys need."""
    study = f"hardware: {HARDWARE}\nworkloads:\n" + "".join(
        chain_workload(k, n) for k in keys
        for n in (SIMULATED_CHAINS if k[0] != "attention" else SIMULATED_CHAINS[:1]))
    with tempfile.TemporaryDirectory() as folder:
        return simulate_study(tilesim, study, folder)


def cold_node_us(result):
    """Start of the second node's first kernel less the first node's."""
    starts = {}
    for kernel in result["kernels"]:
        starts.setdefault(kernel["name"].split(".")[0], kernel["start_us"])
    return starts["a[1]"] - starts["a[0]"]


def simulated_slopes(tilesim, keys):
    results = simulate(tilesim, keys)
    a, b = SIMULATED_CHAINS
    slopes = {}
    for family, op, kv_len in keys:
        if family == "attention":
            slopes[(family, op, kv_len)] = cold_node_us(results[f"attention_{op}_{kv_len}"])
        else:
            t = [results[f"{family}_{op}_chain{n}"]["time_us"] for n in (a, b)]
            slopes[(family, op, kv_len)] = (t[1] - t[0]) / (b - a)
    return slopes


def committed_ramp_us():
    text = open(os.path.join(REPO, PROFILE)).read()
    return float(re.search(r"^ramp_and_drain:\n  sm90: ([0-9.]+) us", text, re.MULTILINE).group(1))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tilesim", required=True)
    p.add_argument("--check", action="store_true")
    args = p.parse_args(argv)
    points = measured()
    model = simulated_slopes(args.tilesim, list(points))
    gaps = {}
    print(f"{'family':12} {'op':12} {'kv_len':>6} {'measured':>9} {'model':>7} {'gap':>6}  us a node")
    for key, pts in points.items():
        slope = theil_sen(pts)
        gaps.setdefault(key[0], []).append(slope - model[key])
        print(f"{key[0]:12} {key[1]:12} {key[2]:>6} {slope:9.2f} {model[key]:7.2f} "
              f"{slope - model[key]:+6.2f}")
    committed = committed_ramp_us()
    fitted = round((committed + statistics.fmean(gaps.pop("attention")) / SDPA_KERNELS)
                   / STEP_US) * STEP_US
    print(f"{PROFILE} ramp_and_drain: fit {fitted:.1f} us, committed {committed:.1f} us")
    bad = [f for f, g in gaps.items() if abs(statistics.fmean(g)) > FAMILY_TOLERANCE_US]
    for family, g in gaps.items():
        print(f"{family:12} mean gap {statistics.fmean(g):+.2f} us over {len(g)} ops")
    if not args.check:
        return 0
    if abs(fitted - committed) > STEP_US / 2:
        print("fit_graph_chain_families: the committed ramp_and_drain is not the fit",
              file=sys.stderr)
        return 1
    if bad:
        print(f"fit_graph_chain_families: mean gap beyond {FAMILY_TOLERANCE_US} us: "
              f"{', '.join(bad)}", file=sys.stderr)
        return 1
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
