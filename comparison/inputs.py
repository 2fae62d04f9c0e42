"""Inputs for agreement checks: random, never zeros, with rows that expose wrong kernels.

Plain `randn` rows are too kind: a kernel whose row maximum skips an element, or one
that never subtracts the maximum, still gets them right. So every row gets a random
offset (+-50), and the first rows carry extremes that such kernels turn into inf/nan.
"""
from __future__ import annotations

import torch

# Largest magnitudes each dtype represents with room to spare (fp16 tops out at 65504).
BIG = {torch.float32: 1e4, torch.float64: 1e4, torch.bfloat16: 1e4, torch.float16: 6e4}


def make_rows(rows: int, cols: int, dtype: torch.dtype, device="cpu", seed: int = 0,
              extremes: bool = True) -> torch.Tensor:
    """A fresh (rows, cols) input: N(0, 3^2) plus a per-row offset in [-50, 50].

    With `extremes`, row 0 holds a spike of +BIG in its last column, row 1 in its first
    column, row 2 is shifted by -BIG/2 and row 3 is scaled by BIG/400, so that
    skipping an element in the max, or not subtracting it, overflows visibly.
    """
    device = torch.device(device)
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(rows, cols, generator=gen, device=device, dtype=torch.float32).mul_(3.0)
    x += (torch.rand(rows, 1, generator=gen, device=device) - 0.5) * 100.0
    if extremes:
        big = BIG[dtype]
        if rows > 0:
            x[0, -1] = big
        if rows > 1:
            x[1, 0] = big
        if rows > 2:
            x[2] -= big / 2
        if rows > 3:
            x[3] *= big / 400
    return x.to(dtype)


def make_gradient(rows: int, cols: int, dtype: torch.dtype, device="cpu", seed: int = 0) -> torch.Tensor:
    """A fresh incoming gradient dy: N(0, 1) plus a per-row offset in [-2, 2], so that the
    row sums a backward kernel forms are far from zero and from each other."""
    device = torch.device(device)
    gen = torch.Generator(device=device).manual_seed(seed + 1_000_003)
    dy = torch.randn(rows, cols, generator=gen, device=device, dtype=torch.float32)
    dy += (torch.rand(rows, 1, generator=gen, device=device) - 0.5) * 4.0
    return dy.to(dtype)
