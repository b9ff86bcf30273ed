#!/usr/bin/env python3
"""Fit the library profile's `ramp_and_drain` on cuBLAS GEMV chains in a CUDA graph.

`tilesim-gemv-graph-chain` (bench/microbenchmarks/h100_sxm_2026-11-27_gemv_graph_chain.csv)
times N back-to-back cuBLAS GEMVs captured in one CUDA graph, N = 1..64: the
slope of the time over N is what each GEMV costs inside a graph, its weight
stream and the start and drain every kernel pays; what the events see once
falls into the intercept. The same chains are simulated as `graph:` workloads
of N split-K GEMMs with a parallel reduction (what a `layer:` decode runs), each
on its own weights, with `ramp_and_drain` 0: the simulated slope is the weight
stream and the front end's gap between nodes. `ramp_and_drain` is the mean of
measured minus simulated slope over every shape (the least-squares constant),
rounded to 0.1 us, for each hardware file. The stream rows are not fitted on.

  fit_gemv_launch_costs.py --tilesim build/bin/tilesim            # fit and print
  fit_gemv_launch_costs.py --tilesim build/bin/tilesim --check    # committed
      values are the fit (ctest validation.gemv_launch_costs_are_the_fit)

Exit status: 0; 1 a committed value is not the fit (--check); 2 usage or a
failing tilesim run.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

from fit_kernel_profiles import committed_value

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHAINS = os.path.join(REPO, "bench", "microbenchmarks", "h100_sxm_2026-11-27_gemv_graph_chain.csv")
HARDWARE = [("sm90", "configs/hw/h100_sxm.yaml"),
            ("sm90.measured", "configs/hw/h100_sxm.measured.yaml")]
STEP_US = 0.1
# Two chain lengths give the simulated slope: the simulation has no noise.
SIMULATED_CHAINS = (1, 8)


def measured_slopes():
    """{(m, n, k): least-squares slope in us of the graph rows' time over N}."""
    points = {}
    with open(CHAINS, newline="") as f:
        for row in csv.DictReader(f):
            if row["mode"] == "graph":
                shape = (int(row["m"]), int(row["n"]), int(row["k"]))
                points.setdefault(shape, []).append((int(row["chain"]), float(row["time_us"])))
    return {shape: slope(p) for shape, p in points.items()}


def slope(points):
    mean_x = statistics.fmean(x for x, _ in points)
    mean_y = statistics.fmean(y for _, y in points)
    return (sum((x - mean_x) * (y - mean_y) for x, y in points)
            / sum((x - mean_x) ** 2 for x, _ in points))


def chain_workload(shape, chain):
    m, n, k = shape
    kernels = [f"        - {{name: gemv{i}, op: gemm, m: {m}, n: {n}, k: {k}, schedule: split_k, "
               f"reduction: parallel}}" for i in range(chain)]
    return "\n".join([f"  - name: chain_{m}x{n}x{k}_{chain}", "    graph:",
                      "      launch: cuda_graph", "      kernels:"] + kernels)


def simulated_slopes(tilesim, hw, shapes):
    """{shape: simulated us per GEMV of a graph chain} with ramp_and_drain 0."""
    study = "\n".join(["hardware: h100_sxm", "workloads:"]
                      + [chain_workload(s, c) for s in shapes for c in SIMULATED_CHAINS]) + "\n"
    handle, path = tempfile.mkstemp(suffix=".yaml")
    with os.fdopen(handle, "w") as f:
        f.write(study)
    command = [tilesim, "simulate", path, "--hw", os.path.join(REPO, hw), "--json", "-",
               "--set", "kernels.library.ramp_and_drain=0 us"]
    run = subprocess.run(command, capture_output=True, text=True, cwd=REPO)
    os.unlink(path)
    if run.returncode != 0:
        sys.exit(f"fit_gemv_launch_costs: {' '.join(command)}\n{run.stderr}")
    times = {r["name"]: r["time_us"] for r in json.loads(run.stdout)["results"]}
    first, last = SIMULATED_CHAINS
    return {s: (times[f"chain_{s[0]}x{s[1]}x{s[2]}_{last}"]
                - times[f"chain_{s[0]}x{s[1]}x{s[2]}_{first}"]) / (last - first) for s in shapes}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tilesim", required=True, help="the tilesim binary")
    parser.add_argument("--check", action="store_true",
                        help="check that the committed values are the fit")
    args = parser.parse_args()
    measured = measured_slopes()
    failures = 0
    for gpu, hw in HARDWARE:
        simulated = simulated_slopes(args.tilesim, hw, sorted(measured))
        print(f"[{gpu}] m,n,k: measured / simulated us per GEMV in a graph")
        for shape in sorted(measured):
            print(f"  {shape[0]},{shape[1]},{shape[2]}: {measured[shape]:.2f} / "
                  f"{simulated[shape]:.2f}")
        fit = round(statistics.fmean(measured[s] - simulated[s] for s in measured) / STEP_US)
        fit = round(fit * STEP_US, 6)
        if args.check:
            committed = committed_value("library", "ramp_and_drain", gpu)
            same = committed is not None and abs(committed - fit) < STEP_US / 2
            print(f"library [{gpu}]: ramp_and_drain committed {committed} us "
                  f"{'is the fit' if same else f'is not the fit: {fit:g} us'}")
            failures += 0 if same else 1
        else:
            print(f"library [{gpu}]: ramp_and_drain: {fit:g} us ({len(measured)} shapes)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
