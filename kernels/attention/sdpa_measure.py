#!/usr/bin/env python3
"""Times PyTorch's scaled_dot_product_attention (SDPA) on the `kernel: library`
attention workloads of a study YAML and writes the attention measurement CSV
(columns in kernels/README.md, "The attention measurement CSV") and a JSON
sidecar (GPU, clocks before and after, driver, CUDA, torch, date, revision).

  python3 kernels/attention/sdpa_measure.py STUDY.yaml --csv OUT.csv [--json OUT.json]
  python3 kernels/attention/sdpa_measure.py STUDY.yaml --dry-run   # the plan; no GPU, no torch

Per workload: `variant: flash` is timed with each of the FLASH_ATTENTION,
CUDNN_ATTENTION and EFFICIENT_ATTENTION backends (rows `sdpa_flash`,
`sdpa_cudnn`, `sdpa_efficient`), `variant: unfused` with MATH (`sdpa_math`); a
row is written only for a backend that ran, passed the correctness check and
ran the kernels of its own family (stderr says why others were skipped).
Paged and variable-length workloads have no SDPA equivalent and are skipped.

Method (as tilesim-measure's): fresh random inputs (normal, never zero),
rotated over several sets when one set is under 2x L2; a check of one run
against an fp32 reference on a slice (sequence 0, the first KV head's query
heads, the first and last 64 query rows); the kernels one run launches, read
with the profiler; warm-up (~50 ms), then >= 20 runs (~200 ms), each between
its own CUDA events and queued behind a GPU sleep long enough to cover the
host's enqueueing, so Python's launch cost does not leak into the times.
Exit status: 0; 1 a check failed; 2 usage or study; 3 no GPU; 77 no PyYAML.
"""

import argparse
import csv
import datetime
import json
import math
import os
import signal
import subprocess
import sys
import time
import warnings

try:
    import yaml
except ImportError:  # ctest reads 77 as skipped
    print("sdpa_measure: needs PyYAML (python3 -m pip install pyyaml)", file=sys.stderr)
    sys.exit(77)

COLUMNS = ("name,kernel,variant,batch,heads,kv_heads,q_len,kv_len,kv_lens,head_dim,causal,dtype,"
           "splits,page_size,time_us,time_us_min,time_us_p90,tflops,gbps,runs,input_sets,"
           "rel_error").split(",")
# The SDPA backends that implement each study variant, and the kernel-name
# family each must run (None: math, whose GEMMs and softmax have no family).
BACKENDS = {"flash": ["sdpa_flash", "sdpa_cudnn", "sdpa_efficient"], "unfused": ["sdpa_math"]}
FAMILY_OF_BACKEND = {"sdpa_flash": "flash", "sdpa_cudnn": "cudnn", "sdpa_efficient": "efficient",
                     "sdpa_math": None}
# Substrings of kernel names (lower case) by family.
KERNEL_FAMILIES = {"flash": ["flash_fwd"], "efficient": ["fmha_cutlass", "attentionkernel"],
                   "cudnn": ["cudnn"]}
ELEMENT_BYTES = {"bf16": 2, "fp16": 2}
# A bf16 result over thousands of keys lands near 4e-3 against fp32; fp16 near 5e-4.
MAX_REL_ERROR = {"bf16": 2e-2, "fp16": 5e-3}
SLICE_ROWS = 64             # query rows at each end of the checked slice
MAX_SLICE_HEADS = 4
BATCH_RUNS = 100            # runs queued behind one GPU sleep
MIN_SLEEP_US = 50.0
MAX_INPUT_SETS = 32
MAX_INPUT_BYTES = 8 << 30   # all sets of one workload together


class StudyError(Exception):
    pass


def fail_usage(message):
    print(f"sdpa_measure: {message}", file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- study ----
def read_workloads(path):
    """The study's attention workloads as plain dicts, with the simulator's defaults."""
    try:
        with open(path) as f:
            study = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        raise StudyError(f"{path}: {e}")
    if not isinstance(study, dict) or not isinstance(study.get("workloads"), list):
        raise StudyError(f"{path}: expected a map with a `workloads:` list")
    workloads = []
    for i, item in enumerate(study["workloads"]):
        if not isinstance(item, dict) or "attention" not in item:
            continue
        a = item["attention"]
        where = f"{path}: workloads[{i}] ({item.get('name', '?')})"
        try:
            kv_lens = list(a["kv_lens"]) if "kv_lens" in a else None
            w = {
                "name": str(item["name"]), "kernel": item.get("kernel", "library"),
                "variant": item.get("variant", "flash"),
                "batch": int(a.get("batch", len(kv_lens) if kv_lens else 1)),
                "heads": int(a["heads"]), "q_len": int(a["q_len"]),
                "head_dim": int(a["head_dim"]), "causal": bool(a.get("causal", False)),
                "dtype": str(a.get("dtype", "bf16")),
            }
            w["kv_heads"] = int(a.get("kv_heads", w["heads"]))
            w["kv_lens"] = [int(x) for x in kv_lens] if kv_lens else [int(a["kv_len"])] * w["batch"]
        except (KeyError, TypeError, ValueError) as e:
            raise StudyError(f"{where}: bad or missing attention field ({e}); "
                             "check it with `tilesim validate`")
        workloads.append(w)
    return study.get("hardware"), workloads


def plan(workloads):
    """(jobs, skipped): one job per workload and backend to time."""
    jobs, skipped = [], []
    for w in workloads:
        if w["kernel"] != "library":
            continue  # own kernels: tilesim-measure
        if w["variant"] not in BACKENDS:
            skipped.append((w["name"], "-", f"variant {w['variant']} has no SDPA equivalent"))
        elif len(set(w["kv_lens"])) != 1:
            skipped.append((w["name"], "-", "variable-length batch (kv_lens) has no SDPA equivalent"))
        elif w["dtype"] not in ELEMENT_BYTES:
            skipped.append((w["name"], "-", f"dtype {w['dtype']}: SDPA is timed in bf16 and fp16"))
        else:
            jobs += [(w, backend) for backend in BACKENDS[w["variant"]]]
    return jobs, skipped


def visible_pairs(w):
    """(query, key) pairs one head of one sequence computes; causal is bottom-right aligned."""
    q, kv = w["q_len"], w["kv_lens"][0]
    if not w["causal"]:
        return q * kv
    return sum(min(kv, kv - q + i + 1) for i in range(q))


def useful_flops(w):
    return 4.0 * w["head_dim"] * visible_pairs(w) * w["heads"] * w["batch"]


def fewest_bytes(w):
    """Q, K, V read once and O written once."""
    e = ELEMENT_BYTES[w["dtype"]]
    q_and_o = 2 * w["batch"] * w["heads"] * w["q_len"] * w["head_dim"] * e
    k_and_v = 2 * w["batch"] * w["kv_heads"] * w["kv_lens"][0] * w["head_dim"] * e
    return q_and_o + k_and_v


def mask_kind(w):
    """How SDPA is told the mask: `none`, `is_causal` (top-left = bottom-right when the
    lengths are equal) or `lower_right` (torch.nn.attention.bias.causal_lower_right)."""
    q, kv = w["q_len"], w["kv_lens"][0]
    if not w["causal"] or q == 1:
        return "none"  # one query at the end sees every key
    return "is_causal" if q == kv else "lower_right"


# ---------------------------------------------------------- environment ----
def nvidia_smi():
    fields = "name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,power.limit"
    try:
        out = subprocess.run(["nvidia-smi", f"--query-gpu={fields}", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError) as e:
        return {"error": str(e)}
    return dict(zip(fields.split(","), [v.strip() for v in out.splitlines()[0].split(",")])) \
        if out else {"error": "no output"}


def git_revision(argument):
    if argument:
        return argument
    if os.environ.get("TILESIM_GIT_REVISION"):
        return os.environ["TILESIM_GIT_REVISION"]
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10).stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


# -------------------------------------------------------------- the GPU ----
class Gpu:
    """Everything that needs torch, imported only when something is timed."""

    def __init__(self, args):
        import torch
        import torch.nn.functional as F
        from torch.nn.attention import SDPBackend, sdpa_kernel
        from torch.nn.attention.bias import causal_lower_right
        self.torch, self.F, self.sdpa_kernel = torch, F, sdpa_kernel
        self.causal_lower_right = causal_lower_right
        self.backend_enum = {"sdpa_flash": SDPBackend.FLASH_ATTENTION,
                             "sdpa_cudnn": SDPBackend.CUDNN_ATTENTION,
                             "sdpa_efficient": SDPBackend.EFFICIENT_ATTENTION,
                             "sdpa_math": SDPBackend.MATH}
        self.args = args
        props = torch.cuda.get_device_properties(0)
        self.l2_bytes = getattr(props, "L2_cache_size", 50 << 20)
        # The model's unfused variant keeps S and P in the input type; MATH would
        # otherwise upcast bf16/fp16 inputs to fp32 (its default).
        torch.backends.cuda.allow_fp16_bf16_reduction_math_sdp(True)
        self.generator = torch.Generator(device="cuda")
        self.generator.manual_seed(args.seed)
        self.kernel_check = not args.no_kernel_check
        self.kernel_check_note = "profiler kernel names" if self.kernel_check else "disabled"
        self.max_clock_mhz = 1980.0
        self.stopped_early = None

    def dtype(self, name):
        return {"bf16": self.torch.bfloat16, "fp16": self.torch.float16}[name]

    def input_sets(self, w):
        t = self.torch
        b, h, hk, q, kv, d = (w["batch"], w["heads"], w["kv_heads"], w["q_len"], w["kv_lens"][0],
                              w["head_dim"])
        set_bytes = fewest_bytes(w) - b * h * q * d * ELEMENT_BYTES[w["dtype"]]  # Q, K, V
        count = max(1, min(MAX_INPUT_SETS, math.ceil(2 * self.l2_bytes / set_bytes),
                           MAX_INPUT_BYTES // set_bytes))
        sets = []
        for _ in range(count):
            make = lambda heads, length: t.randn(b, heads, length, d, device="cuda",
                                                 dtype=self.dtype(w["dtype"]), generator=self.generator)
            sets.append((make(h, q), make(hk, kv), make(hk, kv)))
        return sets

    def call(self, w, backend):
        """f(q, k, v) -> O running `backend`, or raises with the reason it cannot."""
        F, kind = self.F, mask_kind(w)
        gqa = w["heads"] != w["kv_heads"]
        if kind == "lower_right":
            if backend in ("sdpa_cudnn", "sdpa_efficient"):
                raise RuntimeError("causal_lower_right runs flash whenever flash accepts the inputs, "
                                   "whatever sdpa_kernel allows (torch/nn/attention/bias.py), so "
                                   "this backend cannot be chosen for a bottom-right mask")
            bias = self.causal_lower_right(w["q_len"], w["kv_lens"][0])
            if backend == "sdpa_math":  # materialized: CausalBias would dispatch to flash
                bias = bias._materialize(self.torch.device("cuda"))
            return lambda q, k, v: F.scaled_dot_product_attention(q, k, v, attn_mask=bias,
                                                                  enable_gqa=gqa)
        causal = kind == "is_causal"
        return lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=causal,
                                                              enable_gqa=gqa)

    def reference_error(self, w, q, k, v, out):
        """||O - ref|| / ||ref|| over the checked slice, ref in fp32; inf if O is not finite."""
        t = self.torch
        group = w["heads"] // w["kv_heads"]
        heads = min(group, MAX_SLICE_HEADS)
        q_len, kv = w["q_len"], w["kv_lens"][0]
        rows = sorted(set(range(min(SLICE_ROWS, q_len))) |
                      set(range(max(0, q_len - SLICE_ROWS), q_len)))
        rows_t = t.tensor(rows, device="cuda")
        qs = q[0, :heads].index_select(1, rows_t).float()           # [heads, rows, d]
        ks, vs = k[0, 0].float(), v[0, 0].float()                   # [kv, d]
        scores = qs @ ks.T / math.sqrt(w["head_dim"])                # [heads, rows, kv]
        if w["causal"]:
            last_key = rows_t + (kv - q_len)                         # bottom-right aligned
            keys = t.arange(kv, device="cuda")
            scores = scores.masked_fill(keys[None, None, :] > last_key[None, :, None], float("-inf"))
        ref = t.softmax(scores, dim=-1) @ vs
        got = out[0, :heads].index_select(1, rows_t).float()
        if not t.isfinite(got).all():
            return float("inf")
        return float((got - ref).norm() / ref.norm())

    def kernels_of(self, fn):
        """[(kernel name, us)] one call launches, or None when the profiler is unavailable."""
        if not self.kernel_check:
            return None
        t = self.torch
        try:
            from torch.profiler import ProfilerActivity, profile
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                fn()
                t.cuda.synchronize()
            return [(e.name, e.time_range.elapsed_us()) for e in prof.events()
                    if e.device_type == t.autograd.DeviceType.CUDA]
        except Exception as e:  # CUPTI missing or refused: time without the check
            self.kernel_check = False
            self.kernel_check_note = f"unavailable ({type(e).__name__}: {e})"
            print(f"sdpa_measure: kernel check off: {self.kernel_check_note}", file=sys.stderr)
            return None

    def time_runs(self, fn, sets, runs, estimate_us, enqueue_us):
        """(GPU times in us of `runs` calls, each between its own events with the input
        sets rotated; the host's enqueueing time per call in us)."""
        t = self.torch
        times, done, host_s = [], 0, 0.0
        events = [(t.cuda.Event(enable_timing=True), t.cuda.Event(enable_timing=True))
                  for _ in range(min(runs, BATCH_RUNS))]
        while done < runs:
            batch = min(BATCH_RUNS, runs - done)
            sleep_us = max(MIN_SLEEP_US, batch * max(0.0, enqueue_us - estimate_us))
            t.cuda._sleep(int(sleep_us * self.max_clock_mhz))
            host_start = time.perf_counter()
            for i in range(batch):
                events[i][0].record()
                fn(*sets[(done + i) % len(sets)])
                events[i][1].record()
            host_s += time.perf_counter() - host_start
            t.cuda.synchronize()
            times += [1000.0 * s.elapsed_time(e) for s, e in events[:batch]]
            done += batch
        return times, 1e6 * host_s / runs

    def measure(self, w, backend, sets):
        """(row fields, sidecar record) or raises RuntimeError with the reason to skip."""
        t, args = self.torch, self.args
        fn = self.call(w, backend)
        with self.sdpa_kernel([self.backend_enum[backend]]), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = fn(*sets[0])
                t.cuda.synchronize()
            except RuntimeError as e:
                reasons = "; ".join(str(c.message).splitlines()[0] for c in caught)
                raise RuntimeError(f"{str(e).splitlines()[0]}" + (f" ({reasons})" if reasons else ""))
            rel_error = self.reference_error(w, *sets[0], out)
            del out
            kernels = self.kernels_of(lambda: fn(*sets[0]))
            family = FAMILY_OF_BACKEND[backend]
            if kernels is not None:
                seen = {f for f, keys in KERNEL_FAMILIES.items()
                        for name, _ in kernels if any(key in name.lower() for key in keys)}
                if seen - {family}:
                    raise RuntimeError(f"ran {sorted(seen - {family})} kernels, not {family}: "
                                       f"{[n for n, _ in kernels]}")
            # The probe's sleep covers any enqueueing; the runs' sleeps cover 2x the probe's.
            probe, enqueue_us = self.time_runs(fn, sets, 3, 0.0, 2000.0)
            estimate_us = sorted(probe)[1]
            warmup = int(min(max(1000.0 * args.warmup_ms / estimate_us, 5), 2000))
            self.time_runs(fn, sets, warmup, estimate_us, 2 * enqueue_us)
            runs = int(min(max(1000.0 * args.target_ms / estimate_us, args.min_runs), 5000))
            times, enqueue_us = self.time_runs(fn, sets, runs, estimate_us, 2 * enqueue_us)
            times.sort()
        median = times[len(times) // 2] if len(times) % 2 else 0.5 * (
            times[len(times) // 2 - 1] + times[len(times) // 2])
        p90 = times[min(len(times) - 1, math.ceil(0.9 * len(times)) - 1)]
        row = {"name": f"{w['name']}.{backend}", "kernel": backend, "variant": w["variant"],
               "batch": w["batch"], "heads": w["heads"], "kv_heads": w["kv_heads"],
               "q_len": w["q_len"], "kv_len": w["kv_lens"][0], "kv_lens": "",
               "head_dim": w["head_dim"], "causal": "true" if w["causal"] else "false",
               "dtype": w["dtype"], "splits": "", "page_size": "",
               "time_us": f"{median:.3f}", "time_us_min": f"{times[0]:.3f}",
               "time_us_p90": f"{p90:.3f}",
               "tflops": f"{useful_flops(w) / (median * 1e-6) * 1e-12:.2f}",
               "gbps": f"{fewest_bytes(w) / (median * 1e-6) * 1e-9:.1f}",
               "runs": runs, "input_sets": len(sets), "rel_error": f"{rel_error:.3e}"}
        record = {"name": row["name"], "workload": w["name"], "backend": backend,
                  "mask": mask_kind(w), "enable_gqa": w["heads"] != w["kv_heads"],
                  "warmup_runs": warmup, "host_enqueue_us_per_run": round(enqueue_us, 1),
                  "kernels": None if kernels is None else
                  [{"name": n, "us": round(us, 2)} for n, us in kernels]}
        if not rel_error <= MAX_REL_ERROR[w["dtype"]]:
            raise CheckFailed(row, record, f"rel_error {rel_error:.3e} above "
                                           f"{MAX_REL_ERROR[w['dtype']]:.0e}")
        return row, record


class CheckFailed(Exception):
    def __init__(self, row, record, message):
        super().__init__(message)
        self.row, self.record = row, record


# ----------------------------------------------------------------- main ----
def measure_all(gpu, jobs, args, started, rows, records, failures, skipped, writer, csv_file):
    """Times every job, appending to the lists and writing each row as it comes."""
    import torch
    sets_of = {}
    for w, backend in jobs:
        if time.time() - started > args.time_budget_s:
            gpu.stopped_early = f"time budget {args.time_budget_s:.0f} s reached before {w['name']}"
            print(f"sdpa_measure: {gpu.stopped_early}; the remaining rows are not timed", file=sys.stderr)
            break
        if w["name"] not in sets_of:
            sets_of.clear()
            torch.cuda.empty_cache()
            try:
                sets_of[w["name"]] = gpu.input_sets(w)
            except Exception as e:  # out of memory: every backend of it is skipped
                sets_of[w["name"]] = e
        try:
            sets = sets_of[w["name"]]
            if isinstance(sets, Exception):
                raise sets
            row, record = gpu.measure(w, backend, sets)
        except CheckFailed as e:
            failures.append({**e.record, "reason": str(e)})
            print(f"FAIL {w['name']}.{backend}: {e}", file=sys.stderr)
            continue
        except Exception as e:  # the backend refused the inputs, ran out of memory, or failed
            reason = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            skipped.append((w["name"], backend, reason))
            print(f"skip {w['name']}.{backend}: {reason}", file=sys.stderr)
            torch.cuda.empty_cache()
            continue
        rows.append(row)
        records.append(record)
        writer.writerow(row)
        csv_file.flush()
        print(f"{row['name']:<62} {float(row['time_us']):>11.2f} us {float(row['tflops']):>7.1f} TFLOP/s "
              f"{float(row['gbps']):>7.1f} GB/s  rel {row['rel_error']}  runs {row['runs']}",
              flush=True)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("studies", nargs="+", help="study YAML files (their library attention workloads)")
    p.add_argument("--csv", help="measurement CSV to write")
    p.add_argument("--json", help="JSON sidecar (default: the CSV path with .json)")
    p.add_argument("--dry-run", action="store_true", help="print what would be timed; needs no GPU")
    p.add_argument("--git-revision", help="revision to record (default: $TILESIM_GIT_REVISION, "
                                          "else git rev-parse HEAD)")
    p.add_argument("--min-runs", type=int, default=20)
    p.add_argument("--target-ms", type=float, default=200.0, help="GPU time of the timed runs")
    p.add_argument("--warmup-ms", type=float, default=50.0)
    p.add_argument("--time-budget-s", type=float, default=420.0,
                   help="start no workload after this many seconds (rows so far are kept)")
    p.add_argument("--seed", type=int, default=20261125)
    p.add_argument("--no-kernel-check", action="store_true",
                   help="do not read the launched kernels' names with the profiler")
    args = p.parse_args(argv)
    if not args.dry_run and not args.csv:
        p.error("--csv is required unless --dry-run")
    return args


def main(argv):
    args = parse_args(argv)
    jobs, skipped, hardware = [], [], set()
    try:
        for path in args.studies:
            study_hardware, workloads = read_workloads(path)
            hardware.add(study_hardware)
            j, s = plan(workloads)
            jobs += j
            skipped += s
    except StudyError as e:
        fail_usage(str(e))
    for name, backend, reason in skipped:
        print(f"skip {name}: {reason}", file=sys.stderr)
    if args.dry_run:
        for w, backend in jobs:
            print(f"{w['name']}.{backend}: {w['batch']}x{w['heads']}/{w['kv_heads']} "
                  f"{w['q_len']}x{w['kv_lens'][0]} d{w['head_dim']} {w['dtype']} "
                  f"mask={mask_kind(w)} {useful_flops(w) / 1e9:.3f} GFLOP "
                  f"{fewest_bytes(w) / 1e6:.3f} MB")
        print(f"{len(jobs)} rows to time, {len(skipped)} workloads skipped")
        return 0

    import torch
    if not torch.cuda.is_available():
        print("sdpa_measure: no CUDA GPU", file=sys.stderr)
        return 3
    started = time.time()
    smi_before = nvidia_smi()
    gpu = Gpu(args)
    try:
        gpu.max_clock_mhz = float(smi_before.get("clocks.max.sm", "1980").split()[0])
    except ValueError:
        pass
    rows, records, failures = [], [], []
    stopped_early = None
    # Rows are written as they are measured, so a run cut short keeps them.
    csv_file = open(args.csv, "w", newline="")
    writer = csv.DictWriter(csv_file, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(124))
    try:
        measure_all(gpu, jobs, args, started, rows, records, failures, skipped, writer, csv_file)
    except SystemExit:
        stopped_early = "terminated (SIGTERM) before every row was timed"
    csv_file.close()
    smi_after = nvidia_smi()
    sidecar = {
        "tool": "kernels/attention/sdpa_measure.py",
        "studies": args.studies,
        "study_hardware": sorted(h for h in hardware if h)[0] if any(hardware) else None,
        "date_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "git_revision": git_revision(args.git_revision),
        "gpu": torch.cuda.get_device_name(0),
        "sm_count": torch.cuda.get_device_properties(0).multi_processor_count,
        "l2_bytes": gpu.l2_bytes,
        "nvidia_smi_before": smi_before, "nvidia_smi_after": smi_after,
        "torch": torch.__version__, "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version(),
        "settings": {"allow_fp16_bf16_reduction_math_sdp": True,
                     "float32_matmul_precision": torch.get_float32_matmul_precision()},
        "method": {"inputs": "torch.randn (normal, never zero), fresh per workload, seed "
                             f"{args.seed}; rotated over input_sets when one set is under 2x L2",
                   "check": f"one run against fp32 on sequence 0, <= {MAX_SLICE_HEADS} query "
                            f"heads of KV head 0, first and last {SLICE_ROWS} query rows; "
                            f"limits {MAX_REL_ERROR}",
                   "kernel_check": gpu.kernel_check_note,
                   "timing": f"warm-up ~{args.warmup_ms} ms, >= {args.min_runs} runs "
                             f"(~{args.target_ms} ms), each between its own CUDA events, "
                             f"{BATCH_RUNS} at a time behind torch.cuda._sleep covering the "
                             "host's enqueueing; median, min, p90",
                   "masks": "causal with q_len == kv_len: is_causal=True; q_len < kv_len: "
                            "torch.nn.attention.bias.causal_lower_right; q_len 1: no mask"},
        "rows": records, "failed": failures,
        "skipped": [{"workload": n, "backend": b, "reason": r} for n, b, r in skipped],
        "stopped_early": stopped_early or gpu.stopped_early, "elapsed_s": round(time.time() - started, 1),
    }
    with open(args.json or os.path.splitext(args.csv)[0] + ".json", "w") as f:
        json.dump(sidecar, f, indent=2)
        f.write("\n")
    print(f"{len(rows)} rows, {len(failures)} failed checks, {len(skipped)} skipped, "
          f"{sidecar['elapsed_s']} s; SM clock {smi_before.get('clocks.sm')} -> "
          f"{smi_after.get('clocks.sm')}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
