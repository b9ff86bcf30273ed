#!/usr/bin/env python3
"""What one PyTorch kernel of each family costs in a CUDA graph, per node.

A plain PyTorch forward launches a few families of small kernels (ATen's
code): vectorized elementwise (contiguous, one dtype: pow, add, rsqrt, the
bf16 narrowing copy, SiLU, mul), the generic `elementwise_kernel`
(broadcasting or strided operands: x * rstd, weight * x, q * cos, neg of a
slice, the KV-cache copy), the upcasting copy (`unrolled_elementwise_kernel`,
bf16 -> fp32), the row reduction (`reduce_kernel`, the fp32 mean) and
`cat`. Each is timed alone as the slope of a CUDA graph's replay time over
its node count (16 and 128 nodes of the same op), and every op in turn (the
`mixed` rows: 20 and 130 nodes, each another kernel than the one before, as in
a forward), at a decode step's size
(`rows` x 4096 values). Beside a minimal kernel's node (kernels/microbench
`graph_node_copy`, 1.02 us on an H100) it says how much each family's code
adds; the model does not use it yet (docs/models.md: the measured families
explain only about a quarter of the small-batch graph gap).

`--after-gemv` times each op where a forward runs it: after a weight stream
that evicts L2 (a GEMV over a 64 MiB bf16 weight, larger than any Hopper
L2). Each row is the op's cost in that place: the slope over 16 and 64 pairs
of (GEMV, op) less the slope of the GEMVs alone, so a cold operand, a cold
TLB entry or a kernel that cannot start under the GEMV's tail shows as the
difference from the op's own row. Its `gemv_output` rows run four ops on the
GEMV's own output (in L2) and the same ops alone (`alone_node_us`): what they
still pay after the GEMV is not their data. Its `after_stream` and
`after_small_gemm` rows put four ops after a 32 MiB copy (evicts L2, no shared
memory) and after a small GEMM (shared memory, leaves L2 alone);
`gemv_node_us` is then that predecessor's own slope.

  python3 kernels/model/pytorch_kernel_families.py --csv OUT.csv [--json OUT.json] [--after-gemv]

Method: inputs random normal; each graph replayed after 3 warm-up replays,
21 timed replays between CUDA events, median; slope = (t128 - t16) / 112.
Exit status: 0; 3 no GPU.
"""
import argparse
import csv
import datetime
import json
import os
import statistics
import sys

HIDDEN = 4096
ROWS = (1, 8, 64)  # a decode step's batch
NODES = (16, 128)
PAIRS = (16, 64)  # --after-gemv: (GEMV, op) pairs per graph
GEMV_OUT = 8192  # 4096 x 8192 bf16 = 64 MiB of weight a GEMV
RUNS = 21


def ops(torch, rows):
    """{(family, op): (callable, values it reads)}: the forward's own ops at `rows` x 4096."""
    bf = torch.randn(rows, 1, HIDDEN, device="cuda", dtype=torch.bfloat16)
    f32 = bf.float()
    rstd = torch.rand(rows, 1, 1, device="cuda") + 0.5
    weight = torch.randn(HIDDEN, device="cuda", dtype=torch.bfloat16)
    heads = bf.view(rows, 32, 1, 128)
    cos = torch.randn(1, 128, device="cuda", dtype=torch.bfloat16)
    cache = torch.zeros(rows, 32, 64, 128, device="cuda", dtype=torch.bfloat16)
    return {
        ("vectorized", "pow"): lambda: f32.pow(2),
        ("vectorized", "add"): lambda: bf + bf,
        ("vectorized", "to_bf16"): lambda: f32.to(torch.bfloat16),
        ("generic", "mul_rstd"): lambda: f32 * rstd,
        ("generic", "mul_weight"): lambda: weight * bf,
        ("generic", "mul_cos"): lambda: heads * cos,
        ("generic", "cache_write"): lambda: cache[:, :, 7:8].copy_(heads),
        ("upcast_copy", "to_fp32"): lambda: bf.to(torch.float32),
        ("reduction", "mean"): lambda: f32.mean(-1, keepdim=True),
        ("cat", "cat"): lambda: torch.cat((heads[..., 64:], heads[..., :64]), dim=-1),
    }


def graph_us(torch, fn, nodes):
    graph = torch.cuda.CUDAGraph()
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(stream)
    with torch.cuda.graph(graph):
        for _ in range(nodes):
            fn()
    return replay_us(torch, graph)


def replay_us(torch, graph, runs=RUNS):
    """Median of `runs` replays of `graph` between CUDA events, after 3 warm-up replays."""
    for _ in range(3):
        graph.replay()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(runs):
        torch.cuda.synchronize()
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(1000.0 * start.elapsed_time(end))
    return statistics.median(times)


def family_rows(torch, family_ops, rows):
    """Each op alone and every op in turn, per graph node (the slope over node counts)."""
    out = []

    def mixed():  # every op once, in turn: each node runs another kernel than the last
        for fn in family_ops.values():
            fn()

    t = {n: graph_us(torch, mixed, n // len(family_ops)) for n in (20, 130)}
    node_us = (t[130] - t[20]) / (130 - 20)
    out.append(dict(family="mixed", op="all_in_turn", rows=rows, cols=HIDDEN,
                    node_us=f"{node_us:.4f}", nodes_small=20, graph_us_small=f"{t[20]:.2f}",
                    nodes_large=130, graph_us_large=f"{t[130]:.2f}"))
    print(f"{'mixed':12s} {'all_in_turn':12s} rows {rows:4d}: {node_us:7.3f} us a node", flush=True)
    for (family, op), fn in family_ops.items():
        t = {n: graph_us(torch, fn, n) for n in NODES}
        node_us = (t[NODES[1]] - t[NODES[0]]) / (NODES[1] - NODES[0])
        out.append(dict(family=family, op=op, rows=rows, cols=HIDDEN, node_us=f"{node_us:.4f}",
                        nodes_small=NODES[0], graph_us_small=f"{t[NODES[0]]:.2f}",
                        nodes_large=NODES[1], graph_us_large=f"{t[NODES[1]]:.2f}"))
        print(f"{family:12s} {op:12s} rows {rows:4d}: {node_us:7.3f} us a node", flush=True)
    return out


def output_ops(torch, y):
    """Ops of three families on the GEMV's output `y` (resident in L2, just written)."""
    return {
        ("vectorized", "pow"): lambda: y.pow(2),
        ("generic", "mul_column"): lambda: y * y[:, :1],
        ("upcast_copy", "to_fp32"): lambda: y.float(),
        ("reduction", "mean"): lambda: y.mean(-1, keepdim=True),
    }


def predecessor_cases(torch, family_ops):
    """Four of the ops after two other kernels, to tell data from kernel switch:
    `after_stream`, a 32 MiB copy without shared memory (evicts L2 as the GEMV does);
    `after_small_gemm`, a 1024^3 GEMM in shared memory whose 6 MiB leave the op's
    operands in L2. Rows: (context, (family, op), op, cols, predecessor)."""
    src = torch.randn(16, 1 << 20, device="cuda", dtype=torch.bfloat16)
    dst = torch.empty_like(src)
    a = torch.randn(1024, 1024, device="cuda", dtype=torch.bfloat16)
    b, c = torch.randn_like(a), torch.empty_like(a)
    predecessors = {"after_stream": lambda: dst.copy_(src),
                    "after_small_gemm": lambda: torch.matmul(a, b, out=c)}
    chosen = [("vectorized", "pow"), ("generic", "mul_cos"), ("upcast_copy", "to_fp32"),
              ("reduction", "mean")]
    return [(context, key, family_ops[key], HIDDEN, before)
            for context, before in predecessors.items() for key in chosen]


def after_gemv_rows(torch, family_ops, rows):
    """Each op's cost right after an L2-evicting GEMV: slope of (GEMV, op) pairs less the
    GEMVs'. Context `after_gemv`: the op's operands are evicted. Context `gemv_output`: the
    op reads the GEMV's output, which is in L2, so what it still pays over the same op
    alone is not its data (code, parameters, translations)."""
    x = torch.randn(rows, HIDDEN, device="cuda", dtype=torch.bfloat16)
    weight = torch.randn(GEMV_OUT, HIDDEN, device="cuda", dtype=torch.bfloat16)
    y = torch.randn(rows, GEMV_OUT, device="cuda", dtype=torch.bfloat16)

    def gemv():
        torch.matmul(x, weight.t(), out=y)

    def slope(fn):
        t = {n: graph_us(torch, fn, n) for n in PAIRS}
        return (t[PAIRS[1]] - t[PAIRS[0]]) / (PAIRS[1] - PAIRS[0])

    gemv_us = slope(gemv)
    out = []
    cases = [("after_gemv", key, fn, HIDDEN) for key, fn in family_ops.items()]
    cases += [("gemv_output", key, fn, GEMV_OUT) for key, fn in output_ops(torch, y).items()]
    cases = [(context, key, fn, cols, gemv) for context, key, fn, cols in cases]
    cases += predecessor_cases(torch, family_ops)
    for context, (family, op), fn, cols, before in cases:
        def pair(fn=fn, before=before):
            before()
            fn()
        before_us = gemv_us if before is gemv else slope(before)
        node_us = slope(pair) - before_us
        alone_us = slope(fn) if context != "after_gemv" else float("nan")
        out.append(dict(family=family, op=op, rows=rows, cols=cols, context=context,
                        node_us=f"{node_us:.4f}", alone_node_us=f"{alone_us:.4f}",
                        gemv_node_us=f"{before_us:.3f}", gemv_weight_bytes=2 * GEMV_OUT * HIDDEN,
                        pairs_small=PAIRS[0], pairs_large=PAIRS[1]))
        print(f"{context:16s} {family:12s} {op:12s} rows {rows:4d} after {before_us:.1f} us: "
              f"{node_us:7.3f} us a node (alone {alone_us:.3f})", flush=True)
    return out


def main(argv):
    p = argparse.ArgumentParser()
    p.add_argument("--csv", required=True)
    p.add_argument("--json")
    p.add_argument("--after-gemv", action="store_true",
                   help="time each op after an L2-evicting GEMV instead of alone")
    args = p.parse_args(argv)
    import torch
    if not torch.cuda.is_available():
        print("pytorch_kernel_families: no GPU", file=sys.stderr)
        return 3
    torch.manual_seed(0)
    started = datetime.datetime.now(datetime.timezone.utc).isoformat()
    rows_out = []
    with torch.inference_mode():
        for rows in ROWS:
            family_ops = ops(torch, rows)
            rows_out += (after_gemv_rows if args.after_gemv else family_rows)(torch, family_ops, rows)
    with open(args.csv, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows_out[0]))
        writer.writeheader()
        writer.writerows(rows_out)
    sidecar = dict(script="kernels/model/pytorch_kernel_families.py", started=started,
                   finished=datetime.datetime.now(datetime.timezone.utc).isoformat(),
                   gpu=torch.cuda.get_device_name(0), torch=torch.__version__,
                   cuda=torch.version.cuda,
                   git_revision=os.environ.get("TILESIM_GIT_REVISION", "unknown"),
                   method=(f"slope of a CUDA graph's replay time (median of {RUNS}) over "
                           f"{PAIRS[0]} and {PAIRS[1]} (GEMV, op) pairs less the GEMVs' slope"
                           if args.after_gemv else
                           f"slope of a CUDA graph's replay time (median of {RUNS}) over "
                           f"{NODES[0]} and {NODES[1]} nodes of one op"))
    with open(args.json or os.path.splitext(args.csv)[0] + ".json", "w") as f:
        json.dump(sidecar, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
