#!/usr/bin/env python3
"""Runs chosen workloads of a study once each through PyTorch SDPA's FLASH
backend (FlashAttention-2's flash_fwd_kernel), for a profiler to read.

Each workload is run twice on fresh random inputs (the first call loads the
module); under `ncu -k regex:flash_fwd --launch-skip-before-match ...` profile
the second. Causal rows with q_len != kv_len use causal_lower_right (bottom-right
aligned, as FA2 masks). No timing here: sdpa_measure.py times.

  ncu --clock-control none -k regex:flash_fwd -c 64 -o fa2 \\
      python3 kernels/attention/sdpa_flash_once.py STUDY.yaml NAME [NAME ...]
"""
import sys

import torch
import torch.nn.functional as F
import yaml
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.nn.attention.bias import causal_lower_right


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0]) as f:
        study = {w["name"]: w["attention"] for w in yaml.safe_load(f)["workloads"]}
    generator = torch.Generator(device="cuda").manual_seed(20261128)
    for name in argv[1:]:
        a = study[name]
        dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}[a.get("dtype", "bf16")]
        kv_heads = a.get("kv_heads", a["heads"])

        def make(heads, length):
            return torch.randn(a["batch"], heads, length, a["head_dim"], device="cuda",
                               dtype=dtype, generator=generator)

        q, k, v = make(a["heads"], a["q_len"]), make(kv_heads, a["kv_len"]), make(kv_heads, a["kv_len"])
        causal = bool(a.get("causal", False))
        kwargs = {"enable_gqa": a["heads"] != kv_heads}
        if causal and a["q_len"] != a["kv_len"]:
            kwargs["attn_mask"] = causal_lower_right(a["q_len"], a["kv_len"])
        else:
            kwargs["is_causal"] = causal
        with sdpa_kernel([SDPBackend.FLASH_ATTENTION]):
            for _ in range(2):
                torch.cuda.nvtx.range_push(name)
                F.scaled_dot_product_attention(q, k, v, **kwargs)
                torch.cuda.nvtx.range_pop()
        torch.cuda.synchronize()
        print(f"ran {name}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
