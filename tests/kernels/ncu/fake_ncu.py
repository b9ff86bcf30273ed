#!/usr/bin/env python3
"""Stands in for Nsight Compute in ncu_kernel_names.py's test: prints ncu's
--csv rows for the one workload of the study it is given, by the workload's
name: `*fail*` exits 1, `*slow*` sleeps past the test's limit, `*split*`
adds a reduce launch, and every other workload launches one GEMM twice."""
import sys
import time

import yaml

study = next(a for a in sys.argv[1:] if a.endswith(".yaml"))
name = yaml.safe_load(open(study))["workloads"][0]["name"]
if "fail" in name:
    print("==ERROR== the profiled application failed", file=sys.stderr)
    sys.exit(1)
if "slow" in name:
    time.sleep(5)
header = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream",'
          '"Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit",'
          '"Metric Value"')
# (kernel, block, grid, threads per block, CTAs, registers, time in ns as ncu prints it)
launches = [("gemm_" + name, "(256, 1, 1)", "(8, 4, 1)", "256", "32", "168", t)
            for t in ("5,056", "4,864")]
if "split" in name:
    launches.append(("splitKreduce_kernel", "(128, 1, 1)", "(16, 1, 1)", "128", "16", "32", "2,300"))
print("==PROF== Connected to process 633")
print(header)
for i, (kernel, block, grid, threads, grid_size, regs, time_ns) in enumerate(launches):
    metrics = [("gpu__time_duration.sum", "ns", time_ns), ("launch__block_size", "", threads),
               ("launch__grid_size", "", grid_size),
               ("launch__registers_per_thread", "register/thread", regs)]
    for metric, unit, value in metrics:
        print(f'"{i}","633","tilesim-measure","127.0.0.1","{kernel}","1","13","{block}","{grid}",'
              f'"0","9.0","Command line profiler metrics","{metric}","{unit}","{value}"')
