#!/usr/bin/env python3
"""Times a plain PyTorch Llama-style forward (embedding, N decoder layers, final
RMSNorm, LM head on each sequence's last token) with random weights, eagerly and
replayed as a CUDA graph, and writes the model measurement CSV that
`tilesim compare` reads (columns in kernels/README.md, "The model measurement
CSV"), a JSON sidecar (GPU, clocks, driver, CUDA, torch, date, revision) and
the kernels each forward launches, read with the profiler.

  python3 kernels/model/torch_llama_forward.py [--cases kernels/model/llama_forward_cases.json]
      --csv OUT.csv [--kernels OUT_kernels.csv.gz] [--json OUT.json]

"Plain PyTorch" means what a Hugging Face-style implementation launches, op by
op: RMSNorm upcast to fp32 (to(fp32), pow, mean, add eps, rsqrt, mul, to(bf16),
mul by the weight: 8 kernels), separate q/k/v and gate/up projections
(F.linear), RoPE as rotate_half (neg, cat, two muls and an add for q and for k),
the new K/V written into a preallocated cache (2 copies), SDPA with
enable_gqa, SiLU and mul as two kernels, residual adds. Decode runs one token
per sequence against `context` keys (the new one included); prefill runs
`tokens` per sequence, causal.

Method: weights random normal (x 0.02), activations from random token ids;
correctness: the forward at a small shape against a float64 evaluation of the
same formula, and the graph replay against the eager output (its static output
poisoned with NaN first). Timing: per case, warm-up, then rounds of 3 eager
and 3 graph runs in turn (at least 12 of each and ~0.4 s), each round after
one untimed run of its mode, each run between CUDA events with a synchronize
before (eager time includes the host's per-op dispatch: that is what it
measures); the median, min and p90 are written. The profiler lists the
kernels in a second pass over the cases, after every timing: once loaded,
CUPTI slows every launch for the rest of the process (files measured before
2026-11-27 16:30 UTC were timed with it loaded: graph_replay_probe.py). The sidecar's
`graph_replays_back_to_back` gives each case's graph time per replay with 4
replays issued back to back (the host ahead of the GPU): the single replay's
time minus it is what the launch costs before the first kernel runs; and
`replay_call_host_us`, the host time `replay()` takes to return, and
`replay_runtime_calls`, the CUDA calls it makes (count, host us). A dispatch probe (a toy-size
forward, eager, host time per kernel) runs at the start, before every case
and at the end: the sidecar's `dispatch_probe` shows whether the host's speed
drifted, and is what `launch.framework_dispatch` is fitted on; each row's
`dispatch_probe_us` is the probe taken just before its case, the host's speed
that `tilesim compare` simulates its eager row with. Exit status: 0; 1 a check
failed; 3 no GPU.
"""

import argparse
import csv
import datetime
import gzip
import json
import os
import statistics
import subprocess
import sys
import time

COLUMNS = ("name,kind,split,phase,hidden,heads,kv_heads,head_dim,intermediate,layers,vocab,"
           "batch,tokens,context,dtype,fused,launch,time_us,time_us_min,time_us_p90,"
           "runs,kernels,dispatch_probe_us").split(",")
EPS = 1e-5


def nvidia_smi():
    fields = "name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,power.limit"
    try:
        out = subprocess.run(["nvidia-smi", f"--query-gpu={fields}", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError) as e:
        return {"error": str(e)}
    return dict(zip(fields.split(","), [v.strip() for v in out.splitlines()[0].split(",")])) \
        if out else {"error": "no output"}


class Model:
    """Random weights of `layers` Llama layers plus embedding, final norm and LM head."""

    def __init__(self, torch, dims, layers, device, dtype):
        self.t = torch
        self.d = dims
        h, kv, hd, inter = dims["hidden"], dims["kv_heads"], dims["head_dim"], dims["intermediate"]
        q_cols = dims["heads"] * hd

        def w(*shape):
            return torch.randn(*shape, device=device, dtype=dtype) * 0.02

        self.embed = w(dims["vocab"], h)
        self.lm_head = w(dims["vocab"], h)
        self.final_norm = 1 + w(h)
        self.layers = [dict(attn_norm=1 + w(h), q=w(q_cols, h), k=w(kv * hd, h), v=w(kv * hd, h),
                            o=w(h, q_cols), mlp_norm=1 + w(h), gate=w(inter, h), up=w(inter, h),
                            down=w(h, inter)) for _ in range(layers)]
        max_pos = 65536
        inv_freq = 1.0 / (500000.0 ** (torch.arange(0, hd, 2, device=device).float() / hd))
        freqs = torch.outer(torch.arange(max_pos, device=device).float(), inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.cos_table, self.sin_table = emb.cos().to(dtype), emb.sin().to(dtype)

    def rmsnorm(self, x, weight):
        t = self.t
        xf = x.to(t.float32)
        variance = xf.pow(2).mean(-1, keepdim=True)
        xf = xf * t.rsqrt(variance + EPS)
        return weight * xf.to(x.dtype)

    def rotate_half(self, x):
        half = x.shape[-1] // 2
        return self.t.cat((-x[..., half:], x[..., :half]), dim=-1)

    def layer(self, x, p, cache, positions, cos, sin, prefill):
        t, F = self.t, self.t.nn.functional
        b, s, _ = x.shape
        hd, heads, kv = self.d["head_dim"], self.d["heads"], self.d["kv_heads"]
        normed = self.rmsnorm(x, p["attn_norm"])
        q = F.linear(normed, p["q"]).view(b, s, heads, hd).transpose(1, 2)
        k = F.linear(normed, p["k"]).view(b, s, kv, hd).transpose(1, 2)
        v = F.linear(normed, p["v"]).view(b, s, kv, hd).transpose(1, 2)
        q = q * cos + self.rotate_half(q) * sin
        k = k * cos + self.rotate_half(k) * sin
        k_cache, v_cache = cache
        start, end = positions
        k_cache[:, :, start:end] = k
        v_cache[:, :, start:end] = v
        attended = F.scaled_dot_product_attention(q, k_cache[:, :, :end], v_cache[:, :, :end],
                                                  is_causal=prefill, enable_gqa=True)
        attended = attended.transpose(1, 2).reshape(b, s, heads * hd)
        h = x + F.linear(attended, p["o"])
        normed = self.rmsnorm(h, p["mlp_norm"])
        act = F.silu(F.linear(normed, p["gate"])) * F.linear(normed, p["up"])
        return h + F.linear(act, p["down"])

    def forward(self, ids, caches, positions, layers, prefill):
        start, end = positions
        cos = self.cos_table[start:end]
        sin = self.sin_table[start:end]
        x = self.t.nn.functional.embedding(ids, self.embed)
        for i in range(layers):
            x = self.layer(x, self.layers[i], caches[i], positions, cos, sin, prefill)
        last = self.rmsnorm(x[:, -1], self.final_norm)
        return self.t.nn.functional.linear(last, self.lm_head)


def kernels_of(torch, fn):
    """[(kernel name, us, start us after the first one's start)] one call launches (kernels,
    memsets, copies); [] when the profiler is unavailable. The starts show the gaps between
    kernels, which the durations alone leave as one sum."""
    try:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            fn()
            torch.cuda.synchronize()
        events = sorted((e for e in prof.events()
                         if e.device_type == torch.autograd.DeviceType.CUDA),
                        key=lambda e: e.time_range.start)
        first = events[0].time_range.start if events else 0
        return [(e.name, e.time_range.elapsed_us(), e.time_range.start - first) for e in events]
    except Exception as e:  # CUPTI missing or refused: time without the listing
        print(f"torch_llama_forward: profiler unavailable: {e}", file=sys.stderr)
        return []


def reference_check(torch, device):
    """The same formula in float64 at a small shape; returns the relative error."""
    dims = TOY_DIMS
    model = Model(torch, dims, 2, device, torch.bfloat16)
    b, s = 2, 16
    ids = torch.randint(0, dims["vocab"], (b, s), device=device)
    caches = [(torch.zeros(b, 2, s, 64, device=device, dtype=torch.bfloat16),
               torch.zeros(b, 2, s, 64, device=device, dtype=torch.bfloat16)) for _ in range(2)]
    got = model.forward(ids, caches, (0, s), 2, True).double()

    ref = Model.__new__(Model)
    ref.t, ref.d = torch, dims
    cast = lambda v: v.double()
    ref.embed, ref.lm_head, ref.final_norm = map(cast, (model.embed, model.lm_head, model.final_norm))
    ref.layers = [{k: cast(v) for k, v in p.items()} for p in model.layers]
    ref.cos_table, ref.sin_table = cast(model.cos_table), cast(model.sin_table)
    ref_caches = [(torch.zeros(b, 2, s, 64, device=device, dtype=torch.float64),
                   torch.zeros(b, 2, s, 64, device=device, dtype=torch.float64)) for _ in range(2)]
    want = ref.forward(ids, ref_caches, (0, s), 2, True)
    return float((got - want).norm() / want.norm())


TOY_DIMS = dict(hidden=256, heads=4, kv_heads=2, head_dim=64, intermediate=512, vocab=512)


class DispatchProbe:
    """The framework's host cost per kernel, measured alone: a 4-layer decode
    forward at toy dimensions (the same ops as the real forward, but every
    kernel a few microseconds of GPU work and no split-K), launched eagerly
    back to back; host wall time per kernel. Run before every case so that a
    drifting host shows in the sidecar, not only in the eager rows."""

    def __init__(self, torch, device):
        self.t = torch
        self.model = Model(torch, TOY_DIMS, 4, device, torch.bfloat16)
        self.ids = torch.randint(0, TOY_DIMS["vocab"], (1, 1), device=device)
        self.caches = [(torch.zeros(1, 2, 64, 64, device=device, dtype=torch.bfloat16),
                        torch.zeros(1, 2, 64, 64, device=device, dtype=torch.bfloat16))
                       for _ in range(4)]
        with torch.inference_mode():
            for _ in range(3):
                self.forward()
            torch.cuda.synchronize()
        self.kernels = None  # counted by count_kernels(), after every timing

    def forward(self):
        return self.model.forward(self.ids, self.caches, (63, 64), 4, False)

    def us_per_forward(self):
        """Median host us over 5 batches of 10 forwards."""
        t, batches = self.t, []
        with t.inference_mode():
            for _ in range(5):
                t.cuda.synchronize()
                start = time.perf_counter()
                for _ in range(10):
                    self.forward()
                t.cuda.synchronize()
                batches.append(1e6 * (time.perf_counter() - start) / 10)
        return statistics.median(batches)

    def count_kernels(self):
        """The toy forward's kernels, from the profiler; None without it."""
        with self.t.inference_mode():
            self.kernels = len(kernels_of(self.t, self.forward)) or None
        return self.kernels

    def per_kernel(self, us_per_forward):
        return None if not self.kernels else us_per_forward / self.kernels


def time_back_to_back(torch, fn, replays=4, rounds=9):
    """Median us per call of `replays` calls issued back to back between two events:
    with the host ahead of the GPU, the calls' GPU time without the launch's cost
    before the first kernel (which a timed single call includes)."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(rounds):
        torch.cuda.synchronize()
        start.record()
        for _ in range(replays):
            fn()
        end.record()
        end.synchronize()
        times.append(1000.0 * start.elapsed_time(end) / replays)
    return statistics.median(times)


def runtime_calls_of(torch, fn):
    """{CUDA runtime/driver call: [count, host us]} that one call of `fn` makes, from
    the profiler's CPU side; {} when the profiler is unavailable."""
    try:
        from torch.profiler import ProfilerActivity, profile
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            fn()
            torch.cuda.synchronize()
        calls = {}
        for e in prof.events():
            if e.device_type == torch.autograd.DeviceType.CPU and e.name.startswith("cu"):
                entry = calls.setdefault(e.name, [0, 0.0])
                entry[0] += 1
                entry[1] = round(entry[1] + e.time_range.elapsed_us(), 2)
        return calls
    except Exception as e:  # CUPTI missing or refused
        print(f"torch_llama_forward: profiler unavailable: {e}", file=sys.stderr)
        return {}


def host_time_of_call(torch, fn, rounds=9):
    """Median host us that one call of `fn` takes to return, after a synchronize."""
    times = []
    for _ in range(rounds):
        torch.cuda.synchronize()
        begin = time.perf_counter()
        fn()
        times.append(1e6 * (time.perf_counter() - begin))
    torch.cuda.synchronize()
    return statistics.median(times)


def time_interleaved(torch, launches, min_runs=12, budget_s=0.4):
    """{launch: sorted times in us}: rounds of 3 runs of each launch mode in
    turn, so that a host which speeds up or slows down during the case moves
    the eager and the graph times alike; each run between CUDA events after a
    synchronize (eager time includes the host's per-op dispatch)."""
    times = {name: [] for name, _ in launches}
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    t_end = time.perf_counter() + budget_s
    while min(len(v) for v in times.values()) < min_runs or \
            (time.perf_counter() < t_end and min(len(v) for v in times.values()) < 200):
        for name, fn in launches:
            fn()  # untimed: the GPU leaves the other mode's load pattern first
            for _ in range(3):
                torch.cuda.synchronize()
                start.record()
                fn()
                end.record()
                end.synchronize()
                times[name].append(1000.0 * start.elapsed_time(end))
    return {name: sorted(v) for name, v in times.items()}


def capture_graph(torch, fn):
    """(a CUDA graph of `fn`, its static output), after two warm-up calls on a side stream."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(2):
            fn()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = fn()
    return graph, out


class CaseForward:
    """One case's caches, inputs, eager forward and captured CUDA graph; freed on exit."""

    def __init__(self, torch, model, dims, case, device):
        self.t, self.model, self.case = torch, model, case
        self.prefill = case["phase"] == "prefill"
        b, self.layers = case["batch"], case["layers"]
        s = case["tokens"] if self.prefill else 1
        total = case["tokens"] if self.prefill else case["context"]
        self.positions = (0, total) if self.prefill else (total - 1, total)
        self.caches = [(torch.randn(b, dims["kv_heads"], total, dims["head_dim"], device=device,
                                    dtype=torch.bfloat16),
                        torch.randn(b, dims["kv_heads"], total, dims["head_dim"], device=device,
                                    dtype=torch.bfloat16)) for _ in range(self.layers)]
        self.ids = torch.randint(0, dims["vocab"], (b, s), device=device)
        self.graph = self.static_out = None

    def eager(self):
        return self.model.forward(self.ids, self.caches, self.positions, self.layers, self.prefill)

    def __enter__(self):
        t = self.t
        self.mode = t.inference_mode()
        self.mode.__enter__()
        for _ in range(3):
            self.eager()
        t.cuda.synchronize()
        self.graph, self.static_out = capture_graph(t, self.eager)
        return self

    def graph_matches_eager(self):
        """The replay (its static output poisoned with NaN first) against the eager output."""
        t = self.t
        self.static_out.fill_(float("nan"))
        self.graph.replay()
        t.cuda.synchronize()
        eager_out = self.eager()
        t.cuda.synchronize()
        return bool(t.isfinite(self.static_out).all()) and \
            (self.static_out.float() - eager_out.float()).abs().max().item() <= \
            1e-2 * eager_out.float().abs().max().item()

    def __exit__(self, *exc):
        self.graph = self.static_out = self.caches = None
        self.mode.__exit__(*exc)
        self.t.cuda.empty_cache()
        return False


def measurement_row(case, launch, times, kernels, probed, dims):
    """One CSV row: the median, min and p90 of a case's sorted times in one launch mode."""
    return dict(name=f"{case['name']}/{launch}", kind="model", split=case["split"],
                phase=case["phase"], layers=case["layers"], batch=case["batch"],
                tokens=case.get("tokens", ""), context=case.get("context", ""),
                fused="framework", launch=launch,
                time_us=f"{statistics.median(times):.2f}", time_us_min=f"{times[0]:.2f}",
                time_us_p90=f"{times[int(0.9 * (len(times) - 1))]:.2f}",
                runs=len(times), kernels=kernels,
                dispatch_probe_us="" if probed is None else f"{probed:.2f}", **dims)


def main(argv):
    p = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    p.add_argument("--cases", default=os.path.join(here, "llama_forward_cases.json"))
    p.add_argument("--csv", required=True)
    p.add_argument("--kernels", help="the profiler's kernel list; gzip-compressed when it ends in .gz")
    p.add_argument("--json")
    p.add_argument("--only", help="comma-separated case names")
    p.add_argument("--hardware", default="h100_sxm",
                   help="the configs/hw/ file `tilesim compare` simulates the rows on")
    args = p.parse_args(argv)
    import torch
    if not torch.cuda.is_available():
        print("torch_llama_forward: no GPU", file=sys.stderr)
        return 3
    torch.manual_seed(0)
    device = "cuda"
    started = datetime.datetime.now(datetime.timezone.utc).isoformat()
    smi_before = nvidia_smi()
    with open(args.cases) as f:
        spec = json.load(f)
    dims = spec["model"]
    cases = [dict(c, split="calibration") for c in spec.get("calibration", [])] + \
            [dict(c, split="validation") for c in spec["validation"]]
    if args.only:
        keep = set(args.only.split(","))
        cases = [c for c in cases if c["name"] in keep]

    error = reference_check(torch, device)
    print(f"reference check (float64, 2 layers, prefill 2x16): rel error {error:.2e}", flush=True)
    failures = [] if error < 3e-2 else [f"reference check rel error {error:.3g}"]

    # Every timing runs before the profiler is first used: once loaded, CUPTI's
    # callbacks stay for the life of the process and slow what is timed (a graph
    # replay's launch 10 -> 116 us, an eager forward +30%: graph_replay_probe.py).
    probe = DispatchProbe(torch, device)
    probes = [dict(when="start", us_per_forward=probe.us_per_forward())]
    depth = max(c["layers"] for c in cases)
    model = Model(torch, dims, depth, device, torch.bfloat16)
    timings, back_to_back = [], []
    for case in cases:
        with CaseForward(torch, model, dims, case, device) as forward:
            if not forward.graph_matches_eager():
                failures.append(f"{case['name']}: graph replay differs from the eager forward")
            probes.append(dict(when=f"before {case['name']}",
                               us_per_forward=probe.us_per_forward()))
            launches = (("eager", forward.eager), ("cuda_graph", forward.graph.replay))
            for _, fn in launches:
                for _ in range(2):
                    fn()
            timings.append((case, time_interleaved(torch, launches), probes[-1]["us_per_forward"]))
            back_to_back.append(dict(case=case["name"],
                                     graph_us_per_replay=time_back_to_back(torch, forward.graph.replay),
                                     replay_call_host_us=host_time_of_call(torch, forward.graph.replay)))
            print(f"{case['name']:40s} timed", flush=True)
    probes.append(dict(when="end", us_per_forward=probe.us_per_forward()))

    # The profiler, after every timing: kernel lists and the replay's runtime calls.
    probe.count_kernels()
    for sample in probes:
        sample["us_per_kernel"] = probe.per_kernel(sample["us_per_forward"])
    print(f"dispatch probe: {probe.kernels} kernels a toy forward, "
          f"{probes[0]['us_per_kernel']} us of host time per kernel", flush=True)
    rows, kernel_rows = [], []
    for (case, measured, probed_forward), b2b in zip(timings, back_to_back):
        probed = probe.per_kernel(probed_forward)
        with CaseForward(torch, model, dims, case, device) as forward:
            b2b["replay_runtime_calls"] = runtime_calls_of(torch, forward.graph.replay)
            for launch, fn in (("eager", forward.eager), ("cuda_graph", forward.graph.replay)):
                kernels = kernels_of(torch, fn)
                for i, (kname, us, start_us) in enumerate(kernels):
                    kernel_rows.append([case["name"], launch, i, kname, f"{us:.2f}",
                                        f"{start_us:.2f}"])
                rows.append(measurement_row(case, launch, measured[launch], len(kernels), probed,
                                            dims))
                print(f"{rows[-1]['name']:40s} {rows[-1]['time_us']:>10s} us  {len(kernels)} kernels",
                      flush=True)

    with open(args.csv, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    if args.kernels:
        opener = gzip.open if args.kernels.endswith(".gz") else open  # the lists compress 30x
        with opener(args.kernels, "wt", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["case", "launch", "index", "kernel", "gpu_us", "start_us"])
            writer.writerows(kernel_rows)
    sidecar = dict(script="kernels/model/torch_llama_forward.py", started=started,
                   study_hardware=args.hardware,
                   finished=datetime.datetime.now(datetime.timezone.utc).isoformat(),
                   gpu=torch.cuda.get_device_name(0), nvidia_smi_before=smi_before,
                   nvidia_smi_after=nvidia_smi(), torch=torch.__version__,
                   cuda=torch.version.cuda, cudnn=torch.backends.cudnn.version(),
                   git_revision=os.environ.get("TILESIM_GIT_REVISION", "unknown"),
                   reference_rel_error=error, failures=failures, cases=args.cases,
                   graph_replays_back_to_back=back_to_back,
                   dispatch_probe=dict(kernels_per_toy_forward=probe.kernels, samples=probes))
    with open(args.json or os.path.splitext(args.csv)[0] + ".json", "w") as f:
        json.dump(sidecar, f, indent=2)
    for failure in failures:
        print(f"torch_llama_forward: FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
