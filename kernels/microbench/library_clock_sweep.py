#!/usr/bin/env python3
"""The SM clock and power while cuBLAS runs one GEMM shape back to back.

For each shape (bf16, row-major A m x k times B k x n through torch.matmul,
i.e. cuBLAS): random inputs (rotated over enough sets to exceed L2), 0.3 s of
warm-up, then 0.8 s of back-to-back products timed with CUDA events while
`nvidia-smi` samples the SM clock, power and throttle reasons every 20 ms.
Prints CSV on stdout: m, n, k, time_us (median product), tflops, clock_mhz and
power_w (median of the samples inside the timed window), throttle (the
reasons seen, OR-ed), samples.

Usage: library_clock_sweep.py [MxNxK ...]   (default: the shapes below)
"""
import statistics
import subprocess
import sys
import threading
import time

import torch

DEFAULT_SHAPES = [
    (8192, 8192, 8192), (12288, 12288, 12288), (6144, 6144, 6144), (3072, 12288, 3072),
    (4096, 11008, 4096), (8192, 8192, 2048), (2048, 8192, 2048), (1536, 6144, 1536),
    (3072, 5632, 512), (1536, 11264, 2048),
]
L2_BYTES = 50 << 20


class Sampler:
    """nvidia-smi in a thread: (host time, clock MHz, power W, throttle mask)."""

    def __init__(self):
        self.samples = []
        self.proc = subprocess.Popen(
            ["nvidia-smi", "--query-gpu=clocks.sm,power.draw,clocks_throttle_reasons.active",
             "--format=csv,noheader,nounits", "-lms", "20"],
            stdout=subprocess.PIPE, text=True)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        for line in self.proc.stdout:
            parts = [p.strip() for p in line.split(",")]
            try:
                self.samples.append((time.time(), float(parts[0]), float(parts[1]), int(parts[2], 16)))
            except (ValueError, IndexError):
                pass

    def window(self, t0, t1):
        return [s for s in self.samples if t0 <= s[0] <= t1]

    def stop(self):
        self.proc.terminate()


def measure(m, n, k, sampler):
    operand_bytes = 2 * (m * k + k * n)
    sets = max(1, min(8, -(-2 * L2_BYTES // operand_bytes)))
    a = [torch.randn(m, k, device="cuda", dtype=torch.bfloat16) for _ in range(sets)]
    b = [torch.randn(k, n, device="cuda", dtype=torch.bfloat16) for _ in range(sets)]
    c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    t_end = time.time() + 0.3
    i = 0
    while time.time() < t_end:
        torch.matmul(a[i % sets], b[i % sets], out=c)
        i += 1
    torch.cuda.synchronize()
    flop = 2.0 * m * n * k
    times_ms = []
    t0 = time.time()
    while time.time() < t0 + 0.8:
        batch = []
        for j in range(8):
            start = torch.cuda.Event(enable_timing=True)
            stop = torch.cuda.Event(enable_timing=True)
            start.record()
            torch.matmul(a[(i + j) % sets], b[(i + j) % sets], out=c)
            stop.record()
            batch.append((start, stop))
        i += 8
        torch.cuda.synchronize()
        times_ms += [s.elapsed_time(e) for s, e in batch]
    t1 = time.time()
    window = sampler.window(t0, t1)
    time_us = statistics.median(times_ms) * 1e3
    clock = statistics.median(s[1] for s in window) if window else float("nan")
    power = statistics.median(s[2] for s in window) if window else float("nan")
    throttle = 0
    for s in window:
        throttle |= s[3]
    return time_us, flop / time_us / 1e6, clock, power, throttle, len(window)


def main():
    shapes = [tuple(int(v) for v in arg.split("x")) for arg in sys.argv[1:]] or DEFAULT_SHAPES
    sampler = Sampler()
    time.sleep(0.5)
    print("m,n,k,time_us,tflops,clock_mhz,power_w,throttle,samples", flush=True)
    try:
        for m, n, k in shapes:
            time_us, tflops, clock, power, throttle, count = measure(m, n, k, sampler)
            print(f"{m},{n},{k},{time_us:.2f},{tflops:.1f},{clock:.0f},{power:.0f},"
                  f"0x{throttle:x},{count}", flush=True)
    finally:
        sampler.stop()


if __name__ == "__main__":
    main()
