#!/usr/bin/env python3
"""Summarise a tilesim-decode-tail-study trace (--trace FILE).

Per kernel, the median over its stamped launches of: the mean and latest
main-loop end, the latest exit, the merging CTA's chain (its exit less its
loop end; where the epilogue stamps them, its store, arrival and merge
apart, and the other CTAs' arrival), the first block landed (kernels that
stamp it) and the blocks a CTA streamed; then, for the `traced` kernel (production's CTA code), each
SM's median loop time and how stable it is from one half of the launches to
the other (SM speed as a property of the SM, not of the work).

    python3 kernels/attention/decode/tail_trace_summary.py TRACE.csv
"""

import csv
import math
import statistics
import sys
from collections import defaultdict


def per_launch(rows):
    starts = [float(r["start_ns"]) for r in rows]
    loop_ends = [float(r["loop_end_ns"]) for r in rows]
    ends = [float(r["end_ns"]) for r in rows]
    firsts = [float(r["first_ns"]) for r in rows if float(r["first_ns"]) >= 0]
    merger = max(rows, key=lambda r: float(r["end_ns"]))
    return {
        "start_spread": max(starts) - min(starts),
        "loop_end_mean": statistics.mean(loop_ends),
        "loop_end_max": max(loop_ends),
        "exit_max": max(ends),
        "merger_chain": float(merger["end_ns"]) - float(merger["loop_end_ns"]),
        "first_block_mean": statistics.mean(firsts) if firsts else float("nan"),
        "blocks_min": min(int(r["blocks"]) for r in rows),
        "blocks_max": max(int(r["blocks"]) for r in rows),
        **arrival_steps(rows, merger),
    }


def arrival_steps(rows, merger):
    """The merging CTA's chain in three steps (split epilogues that stamp them:
    loop end -> partial stored -> arrival returned -> exit) and the other
    CTAs' median arrival (stored -> returned)."""
    if float(merger.get("partial_ns", -1)) < 0:
        return {}
    others = [float(r["arrived_ns"]) - float(r["partial_ns"]) for r in rows
              if r is not merger and float(r["partial_ns"]) >= 0]
    return {
        "merger_store": float(merger["partial_ns"]) - float(merger["loop_end_ns"]),
        "merger_arrive": float(merger["arrived_ns"]) - float(merger["partial_ns"]),
        "merger_merge": float(merger["end_ns"]) - float(merger["arrived_ns"]),
        "others_arrive": statistics.median(others) if others else float("nan"),
    }


def kernel_table(rows):
    launches = defaultdict(list)
    for r in rows:
        launches[(r["kernel"], int(r["launch"]))].append(r)
    by_kernel = defaultdict(lambda: defaultdict(list))
    for (kernel, _), cta_rows in launches.items():
        for name, value in per_launch(cta_rows).items():
            by_kernel[kernel][name].append(value)
    names = list(next(iter(by_kernel.values())).keys())
    print("kernel," + ",".join(names) + "  (ns, medians over launches)")
    for kernel, values in by_kernel.items():
        print(kernel + "," + ",".join(f"{statistics.median(values[n]):.0f}" for n in names))


def sm_table(rows):
    loop_ns = defaultdict(list)
    for r in rows:
        if r["kernel"] == "traced":
            loop_ns[int(r["smid"])].append(float(r["loop_end_ns"]) - float(r["start_ns"]))
    if not loop_ns:
        return
    medians = {sm: statistics.median(v) for sm, v in loop_ns.items()}
    print("\ntraced: loop time per SM, us (-- : no CTA)")
    cells = [f"{sm}:{medians[sm] / 1000:.1f}" if sm in medians else f"{sm}:--"
             for sm in range(max(medians) + 1)]
    for i in range(0, len(cells), 12):
        print(" ".join(cells[i:i + 12]))
    halves = [(statistics.mean(v[:len(v) // 2]), statistics.mean(v[len(v) // 2:]))
              for v in loop_ns.values() if len(v) >= 4]
    mean_a = statistics.mean(a for a, _ in halves)
    mean_b = statistics.mean(b for _, b in halves)
    cov = sum((a - mean_a) * (b - mean_b) for a, b in halves)
    var = math.sqrt(sum((a - mean_a) ** 2 for a, _ in halves) *
                    sum((b - mean_b) ** 2 for _, b in halves))
    print(f"per-SM loop time, first half of launches against second: r = {cov / var:.3f}")


def main():
    with open(sys.argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    kernel_table(rows)
    sm_table(rows)


if __name__ == "__main__":
    main()
