#!/usr/bin/env python3
"""What each PyTorch kernel family and SDPA decode cost per node of a CUDA graph, N = 1..64.

N copies of one op captured in ONE CUDA graph, N = 1, 2, 4, ..., 64; the
least-squares slope of the replay time over N is what one node of that op
costs inside a graph (its CTAs, the front end's gap, and whatever it pays
after its last CTA: `ramp_and_drain`); what CUDA events see once falls into
the intercept. The ATen ops are pytorch_kernel_families.py's at batch 1
(1 x 4096 values, resident in L2, as `cta_setup` was fitted on); the SDPA rows
are a decode step's attention at batch 1 (32 query and 8 KV heads of 128,
enable_gqa, as torch_llama_forward.py calls it), each copy on its own K/V
cache so that every node streams its keys as a forward's attention does.
kernels/model/fit_graph_chain_families.py simulates the same chains.

  python3 kernels/model/graph_chain_families.py --csv OUT.csv [--json OUT.json]

Method: random normal inputs; each graph replayed 3 times to warm up, then 31
timed replays between CUDA events, median. The SDPA output of the last node is
checked against a float64 reference. Exit status: 0; 1 a check failed; 3 no GPU.
"""
import argparse
import csv
import datetime
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pytorch_kernel_families as families  # noqa: E402

CHAINS = (1, 2, 4, 8, 16, 32, 64)
RUNS = 31
HEADS, KV_HEADS, HEAD_DIM = 32, 8, 128
KV_LENS = (1024, 4096)


def captured(torch, fns):
    """One CUDA graph running `fns` in turn, after a warm-up call of each on a side stream."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for fn in fns:
            fn()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        outs = [fn() for fn in fns]
    return graph, outs


def sdpa_ops(torch, kv_len, copies):
    """`copies` SDPA decode calls at batch 1, each on its own K/V cache, and a check of the last."""
    F = torch.nn.functional
    q = torch.randn(1, HEADS, 1, HEAD_DIM, device="cuda", dtype=torch.bfloat16)
    caches = [(torch.randn(1, KV_HEADS, kv_len, HEAD_DIM, device="cuda", dtype=torch.bfloat16),
               torch.randn(1, KV_HEADS, kv_len, HEAD_DIM, device="cuda", dtype=torch.bfloat16))
              for _ in range(copies)]
    fns = [lambda k=k, v=v: F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
           for k, v in caches]

    def check(out):
        k, v = (t.double().repeat_interleave(HEADS // KV_HEADS, dim=1) for t in caches[-1])
        weights = torch.softmax(q.double() @ k.transpose(-1, -2) / math.sqrt(HEAD_DIM), dim=-1)
        ref = weights @ v
        return ((out.double() - ref).abs().max() / ref.abs().max()).item()
    return fns, check


def main(argv):
    p = argparse.ArgumentParser()
    p.add_argument("--csv", required=True)
    p.add_argument("--json")
    args = p.parse_args(argv)
    import torch
    if not torch.cuda.is_available():
        return 3
    torch.manual_seed(0)
    rows, failures = [], []
    for (family, op), fn in families.ops(torch, 1).items():
        for chain in CHAINS:
            graph, _ = captured(torch, [fn] * chain)
            rows.append(dict(family=family, op=op, kv_len=0, chain=chain,
                             time_us=round(families.replay_us(torch, graph, RUNS), 3)))
            del graph
    for kv_len in KV_LENS:
        for chain in CHAINS:
            fns, check = sdpa_ops(torch, kv_len, chain)
            graph, outs = captured(torch, fns)
            graph.replay()
            error = check(outs[-1])
            if error > 2e-2:
                failures.append(f"sdpa kv_len {kv_len} chain {chain}: relative error {error:.3g}")
            rows.append(dict(family="attention", op="sdpa_decode", kv_len=kv_len, chain=chain,
                             time_us=round(families.replay_us(torch, graph, RUNS), 3)))
            del graph, fns, outs
            torch.cuda.empty_cache()
    with open(args.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    if args.json:
        props = torch.cuda.get_device_properties(0)
        with open(args.json, "w") as f:
            json.dump(dict(gpu=props.name, sms=props.multi_processor_count, torch=torch.__version__,
                           cuda=torch.version.cuda,
                           date=datetime.datetime.now(datetime.timezone.utc).isoformat(),
                           failures=failures), f, indent=1)
    for failure in failures:
        print("graph_chain_families:", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
