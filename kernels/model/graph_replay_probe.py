#!/usr/bin/env python3
"""Where a single CUDA-graph replay's extra time goes (docs/models.md, "Held-out
set 6"): a decode forward replayed once after a synchronize takes 75-116 us
more than the same replay issued back to back, at 4 layers of a 7B model.

Per graph, each mode timed between CUDA events (median of `--rounds`):
  single      synchronize, start event, replay, end event (what the model files hold)
  b2b         4 replays between the events, per replay (the host ahead of the GPU)
  prequeued   a ~3 ms spin kernel, then start event, replay, end event: the host has
              submitted the whole graph before the start event runs, and the GPU was busy
  idle_1ms    as single, with 1 ms of host sleep after the synchronize
  after_eager the forward run eagerly 3 times just before, as
              torch_llama_forward.py's interleaved rounds do (forward graphs only)
  after_eager_warm  as after_eager, then one untimed replay before the timed one
Graphs: the decode forward of torch_llama_forward.py (DeepSeek-7B and Llama-3-8B
dimensions, batch 1 and 32, 4 layers) and synthetic chains of N tiny adds (one
row of 4096 bf16) and of N 8 MiB copies. Writes JSON. Exit status 0; 3 no GPU.
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_llama_forward import (CaseForward, Model, capture_graph, host_time_of_call,  # noqa: E402
                                 kernels_of)


def timed(torch, fn, mode, rounds, eager=None):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(rounds):
        if mode.startswith("after_eager"):
            torch.cuda.synchronize()
            for _ in range(3):
                eager()
        if mode == "after_eager_warm":
            torch.cuda.synchronize()
            fn()
        torch.cuda.synchronize()
        if mode == "idle_1ms":
            time.sleep(1e-3)
        if mode == "prequeued":
            torch.cuda._sleep(5_000_000)  # cycles: ~3 ms at 1.98 GHz
        start.record()
        for _ in range(4 if mode == "b2b" else 1):
            fn()
        end.record()
        end.synchronize()
        times.append(1000.0 * start.elapsed_time(end) / (4 if mode == "b2b" else 1))
    return statistics.median(times)


def warmed(torch, graph):
    """`graph`, replayed 3 times before it is timed."""
    for _ in range(3):
        graph.replay()
    torch.cuda.synchronize()
    return graph


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", required=True)
    parser.add_argument("--rounds", type=int, default=31)
    parser.add_argument("--profile-first", action="store_true",
                        help="run torch.profiler once before timing, as torch_llama_forward.py's "
                             "dispatch probe does (CUPTI stays loaded)")
    args = parser.parse_args(argv)
    import torch
    if not torch.cuda.is_available():
        print("no GPU", file=sys.stderr)
        return 3
    device = torch.device("cuda")
    if args.profile_first:
        x = torch.ones(16, device=device)
        print(f"profiled {len(kernels_of(torch, lambda: x.add_(1)))} kernel(s) first", flush=True)
    modes = ("single", "b2b", "prequeued", "idle_1ms")
    results = []
    models = {
        "deepseek7b": dict(hidden=4096, heads=32, kv_heads=32, head_dim=128, intermediate=11008,
                           vocab=102400),
        "llama3_8b": dict(hidden=4096, heads=32, kv_heads=8, head_dim=128, intermediate=14336,
                          vocab=128256),
    }
    forwards = (("deepseek7b", 4, 1, 1024), ("deepseek7b", 30, 2, 2048))
    with torch.inference_mode():
        for name, layers, batch, context in forwards:
            dims = models[name]
            model = Model(torch, dims, layers, device, torch.bfloat16)
            case = dict(phase="decode", layers=layers, batch=batch, context=context)
            with CaseForward(torch, model, dims, case, device) as forward:
                warmed(torch, forward.graph)
                row = dict(graph=f"{name}_decode_b{batch}_c{context}_{layers}layers")
                row.update({m: round(timed(torch, forward.graph.replay, m, args.rounds,
                                           forward.eager), 2)
                            for m in modes + ("after_eager", "after_eager_warm")})
                row["replay_host_call_us"] = round(
                    host_time_of_call(torch, forward.graph.replay, args.rounds), 1)
                row["eager"] = round(timed(torch, forward.eager, "single", 5), 1)
            print(row, flush=True)
            results.append(row)
            del model
            torch.cuda.empty_cache()
        x = torch.randn(1, 4096, device=device, dtype=torch.bfloat16)
        big = torch.randn(4 << 20, device=device, dtype=torch.bfloat16)
        big_out = torch.empty_like(big)
        for nodes in (200,):
            chains = {"add_1x4096": lambda: [x.add_(1.0) for _ in range(nodes)],
                      "copy_8mib": lambda: [big_out.copy_(big) for _ in range(nodes)]}
            for op, fn in chains.items():
                graph = warmed(torch, capture_graph(torch, fn)[0])
                row = dict(graph=f"{op}_x{nodes}")
                row.update({m: round(timed(torch, graph.replay, m, args.rounds), 2) for m in modes})
                print(row, flush=True)
                results.append(row)
    with open(args.json, "w") as f:
        json.dump(dict(script="kernels/model/graph_replay_probe.py", gpu=torch.cuda.get_device_name(),
                       torch=torch.__version__, started=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                       profile_first=args.profile_first, modes=modes, results=results), f,
                  indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
