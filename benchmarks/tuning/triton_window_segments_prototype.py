#!/usr/bin/env python3
"""Prototype (session 59, not yet on a GPU): Triton's odd 16-bit rows as segments of whole
16-byte vectors, for the `fused` window tile's narrow rows (bf16 33-333 columns at
32-84% of copy on the H200, benchmarks/README.md, session 59).

Why: the window tile (softmax_fused._fused_window_tile) issues about twice the
instructions per byte of the aligned tile (sm_90 SASS, 8 x 256 on one warp: 1560
against 880): an in-row test and a select for every value, mask and address arithmetic,
the head and tail values reloaded and stored two bytes at a time, and at 33 / 65 a
narrow tail tile whose layout Triton converts through shared memory (27 / 11 barriers).
Issue cycles against the cycles the program's bytes get at copy rate follow the
measurements: aligned bf16 47% (98% of copy), bf16 263 / 457 81 / 69% (95), 131-333
86-99% (76-84), 97 / 155 105% (66-71), 33 117% (32).

How: a row's window (from the 16-byte boundary before it) is read as SEGS tensors of
[ROWS, SEGW] (SEGW a multiple of the vector's 8 values, SEGS exact, so every tensor has
one layout: SEGW / 8 threads a row and no conversions); the max and the sum run in each
thread across segments, then over the row's threads; only the first and the last two
segments test columns against the row. Each 16-byte vector of y is stored whole, by the
later of the two rows that share it: its values before the row's head are the previous
row's, computed from that row's (max, 1 / sum) taken from the lanes SEGW / 8 below
(`_prev`: tl.gather, or PREV=1 shfl.sync.up, to check on a GPU). Predicted (SASS, no
GPU): issue 41-59% at 33-457, every access LDG.128 / STG.128, 64-96 registers.

Not yet: the GPU timing and checks; a contiguous x (row stride == cols) and a tensor
that ends on a 16-byte boundary are assumed (the last row's loads run to its tail
vector's end: a real kernel sends the last program to a masked path, as WINDOW 2 does);
ROWS a multiple of 8 so that a tile starts on a vector boundary.

    TRITON_INTERPRET=1 python3 benchmarks/tuning/triton_window_segments_prototype.py
checks fp16 rows of 33-457 columns against torch in the interpreter.
"""
import math
import os

import torch
import triton
import triton.language as tl

LOG2E = tl.constexpr(1.4426950408889634)


@triton.jit
def _prev(v, ROWS: tl.constexpr, K: tl.constexpr, PREV: tl.constexpr):
    # v of row r - 1 (rows [ROWS, 1], replicated over the K lanes of a row).
    if PREV == 1:
        return tl.inline_asm_elementwise(f"shfl.sync.up.b32 $0, $1, {K}, 0, -1;", "=r,r", [v],
                                         dtype=tl.float32, is_pure=True, pack=1)
    else:
        idx = tl.maximum(tl.arange(0, ROWS) - 1, 0)
        return tl.gather(tl.reshape(v, [ROWS]), idx, 0)[:, None]


@triton.jit
def seg2_kernel(x_ptr, y_ptr, n_rows, n_cols, x_row_stride, y_row_stride,
                ROWS: tl.constexpr, SEGS: tl.constexpr, SEGW: tl.constexpr, VEC: tl.constexpr,
                PREV: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    rows = pid * ROWS + tl.arange(0, ROWS)
    live = (rows < n_rows)[:, None]
    x_rows = rows * x_row_stride
    base = x_rows // VEC * VEC
    h = (x_rows - base).to(tl.int32)[:, None]
    end = h + n_cols
    rd = (end + (VEC - 1)) // VEC * VEC
    hi = end // VEC * VEC
    lanes = tl.arange(0, SEGW)[None, :]
    xp = x_ptr + base[:, None]
    vals = ()
    for s in tl.static_range(SEGS):
        c = s * SEGW + lanes
        v = tl.load(xp + c, mask=live & (c < rd), other=-float("inf")).to(tl.float32)
        if s == 0:
            raw0 = v
        if s == 0 or s >= SEGS - 2:
            v = tl.where((c >= h) & (c < end), v, -float("inf"))
        vals = vals + (v,)
    mx = vals[0]
    for s in tl.static_range(1, SEGS):
        mx = tl.maximum(mx, vals[s])
    m = tl.max(mx, axis=1)[:, None]
    es = ()
    acc = tl.zeros_like(mx)
    for s in tl.static_range(SEGS):
        e = tl.exp2((vals[s] - m) * LOG2E)
        es = es + (e,)
        acc += e
    inv = 1.0 / tl.sum(acc, axis=1)[:, None]
    m_p = _prev(m, ROWS, SEGW // VEC, PREV)
    inv_p = _prev(inv, ROWS, SEGW // VEC, PREV)
    y_rows = rows * y_row_stride
    yp = y_ptr + (y_rows // VEC * VEC)[:, None]
    for s in tl.static_range(SEGS):
        c = s * SEGW + lanes
        y = es[s] * inv
        if s == 0:
            # the head vector's values before h are row r - 1's (none in a tile's first row
            # or a warp chunk's: h = 0 there)
            y = tl.where(c < h, tl.exp2((raw0 - m_p) * LOG2E) * inv_p, y)
        tl.store(yp + c, y.to(y_ptr.dtype.element_ty), mask=live & (c < hi))


def check() -> int:
    """fp16 rows of 33-457 columns at 64 / 200 / 296 rows, poisoned outputs, against torch."""
    torch.manual_seed(0)
    bad = 0
    for cols, rows_per_tile, segw in [(33, 32, 8), (35, 64, 8), (65, 32, 8), (97, 16, 16), (131, 16, 32),
                                      (201, 8, 32), (457, 8, 64)]:
        for n_rows in (64, 200, 8 * 37):
            x = torch.randn(n_rows, cols, dtype=torch.float16) * 4
            y = torch.full_like(x, float("nan"))
            segs = math.ceil((cols + 7) / segw)
            seg2_kernel[(triton.cdiv(n_rows, rows_per_tile),)](
                x, y, n_rows, cols, cols, cols, ROWS=rows_per_tile, SEGS=segs, SEGW=segw, VEC=8, PREV=0)
            err = (y.float() - torch.softmax(x.float(), 1)).abs().max().item()
            ok = err < 2e-3 and not torch.isnan(y).any()
            bad += not ok
            print(f"{cols:4d} cols {n_rows:4d} rows  max err {err:.2e}  {'ok' if ok else 'WRONG'}")
    return bad


if __name__ == "__main__":
    assert os.environ.get("TRITON_INTERPRET") == "1", "run under TRITON_INTERPRET=1 (the GPU form is not checked yet)"
    raise SystemExit(1 if check() else 0)
