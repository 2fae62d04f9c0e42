#!/usr/bin/env python3
"""The CUDA unpacked clusters holding packs in shared memory (SK_UNPACK_SMEM=fill|all):
enough rows (160) that `auto` takes its many-rows rules, not the few-rows one;
each width's `auto` plan, then every element of softmax and log-softmax against float64
on rows of random values, with rows of special values (-inf, +inf, NaN, one peaked value)
among them, outputs poisoned with NaN before the launch. Prints one line per case and
exits 1 on any disagreement.

    SK_UNPACK_SMEM=all PYTHONPATH=. python3 benchmarks/tuning/unpack_smem_check.py 151936,262144
"""
from __future__ import annotations

import sys

import torch

from kernels_cuda import softmax as cuda_softmax

TOL = {torch.bfloat16: (1e-2, 2e-5), torch.float16: (2e-3, 1e-6)}  # (rtol, atol) on softmax


def check(cols: int, dtype: torch.dtype, op: str, rows: int = 160) -> bool:
    g = torch.Generator(device="cuda").manual_seed(cols)
    x = (torch.randn(rows, cols, device="cuda", generator=g) * 3).to(dtype)
    x[1, cols // 3] = float("-inf")
    x[2, :] = float("-inf")
    x[3, cols - 1] = float("nan")
    x[4, cols // 2] = float("inf")
    x[5, 7] = 80.0  # one peaked value
    ref = (torch.log_softmax if op == "log_softmax" else torch.softmax)(x.double(), dim=-1)
    out = torch.full_like(x, float("nan"))
    cuda_softmax.run(x, op, "auto", out=out)
    rtol, atol = TOL[dtype]
    if op == "log_softmax":
        atol = 2e-2 if dtype == torch.bfloat16 else 4e-3
        rtol = 1e-2 if dtype == torch.bfloat16 else 2e-3
    ok = torch.allclose(out.double(), ref, rtol=rtol, atol=atol, equal_nan=True)
    bad = (~torch.isclose(out.double(), ref, rtol=rtol, atol=atol, equal_nan=True)).nonzero()
    p = cuda_softmax.plan(x, op, "auto")
    print(f"{op:11s} {str(dtype)[6:]:8s} {cols:8d} {'ok' if ok else 'FAIL'} bad={len(bad)} "
          f"{p['variant']} K={p['cluster_size']} threads={p['threads']} smem={p['smem_bytes']} "
          f"clusters={p['active_clusters']} {p['kernel']}")
    if not ok:
        print("   first bad:", bad[:5].tolist(), out[tuple(bad[0])].item(), ref[tuple(bad[0])].item())
    return ok


def main() -> int:
    widths = [int(c) for c in sys.argv[1].split(",")]
    good = True
    for cols in widths:
        for dtype in (torch.bfloat16, torch.float16):
            for op in ("softmax", "log_softmax"):
                good &= check(cols, dtype, op)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
