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

Not yet: a contiguous x (row stride == cols) and a tensor
that ends on a 16-byte boundary are assumed (the last row's loads run to its tail
vector's end: a real kernel sends the last program to a masked path, as WINDOW 2 does);
ROWS a multiple of 8 so that a tile starts on a vector boundary.

    TRITON_INTERPRET=1 python3 benchmarks/tuning/triton_window_segments_prototype.py
checks fp16 rows of 33-457 columns against torch in the interpreter;

    PYTHONPATH=. python3 benchmarks/tuning/triton_window_segments_prototype.py --bench [--cols ...]
        [--dtypes bf16,fp16]
runs the same check on the GPU, then times geometries ROWSxSEGW/wWARPS (PREV=0; the best
again with PREV=1) on 1 GiB inputs of rows that end on a 16-byte boundary, beside the
package's Triton `auto`, as % of the copy measured in the same run (first and last four
rows checked against float64 before timing).
"""
import argparse
import math
import os
import sys

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


def check(device: str = "cpu") -> int:
    """fp16 rows of 33-457 columns at 64 / 200 / 296 rows, poisoned outputs, against torch."""
    torch.manual_seed(0)
    bad = 0
    for cols, rows_per_tile, segw in [(33, 32, 8), (35, 64, 8), (65, 32, 8), (97, 16, 16), (131, 16, 32),
                                      (201, 8, 32), (457, 8, 64)]:
        for n_rows in (64, 200, 8 * 37):
            for prev in ((0,) if device == "cpu" else (0, 1)):
                x = torch.randn(n_rows, cols, dtype=torch.float16, device=device) * 4
                y = torch.full_like(x, float("nan"))
                segs = math.ceil((cols + 7) / segw)
                seg2_kernel[(triton.cdiv(n_rows, rows_per_tile),)](
                    x, y, n_rows, cols, cols, cols, ROWS=rows_per_tile, SEGS=segs, SEGW=segw, VEC=8, PREV=prev)
                err = (y.float() - torch.softmax(x.float(), 1)).abs().max().item()
                ok = err < 2e-3 and not torch.isnan(y).any()
                bad += not ok
                print(f"{cols:4d} cols {n_rows:4d} rows PREV={prev}  max err {err:.2e}  {'ok' if ok else 'WRONG'}")
    return bad


def geometries(cols: int):
    """(ROWS, SEGW, SEGS, warps) to time for rows of `cols` 16-bit values: SEGW / 8 lanes a
    row, SEGS segments covering the widest window (head offset 7), 8 to 80 values a
    thread; ROWS fills the warps once or twice."""
    for segw in (8, 16, 32, 64, 128):
        segs = math.ceil((cols + 7) / segw)
        if not 1 <= segs <= 10 or (segs == 1 and segw > 8):
            continue
        for warps, m in ((4, 1), (4, 2), (8, 1)):
            yield warps * 32 * 8 // segw * m, segw, segs, warps


def bench(cols_list: str, dtypes: str) -> int:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from kernels_triton import softmax
    from triton_oneshot_geometry import DTYPES, _ms, header, inputs, timed_cell

    bad = check("cuda")
    header(2.0**30, "window segments ROWSxSEGW/wWARPS[p1]; rows a multiple of 8")
    for dname in dtypes.split(","):
        dtype = DTYPES[dname]
        for cols in map(int, cols_list.split(",")):
            rows = (2**30 // (cols * dtype.itemsize)) // 8 * 8
            x, _, out, copy_bw, moved, ref = inputs("fwd", dtype, cols, rows * cols * dtype.itemsize)
            assert x.shape[0] == rows
            q = softmax.plan(x, "softmax", "auto")
            cells = [f"auto={100 * moved / _ms(lambda: softmax.run(x, 'softmax', 'auto')) / copy_bw:.1f}"
                     f"({q['kernel']})"]
            best = None
            for r, segw, segs, warps in geometries(cols):
                def call(r=r, segw=segw, segs=segs, warps=warps, prev=0):
                    return seg2_kernel[(triton.cdiv(rows, r),)](
                        x, out, rows, cols, cols, cols, ROWS=r, SEGS=segs, SEGW=segw, VEC=8, PREV=prev,
                        num_warps=warps)
                cell = timed_cell(f"{r}x{segw}/w{warps}", call, out, ref, dtype, moved, copy_bw)
                cells.append(cell)
                bad += "WRONG" in cell or "ERR" in cell
                pct = float(cell.split("=")[1].split("(")[0]) if "ERR" not in cell else 0.0
                if best is None or pct > best[0]:
                    best = (pct, r, segw, segs, warps)
            _, r, segw, segs, warps = best
            cell = timed_cell(f"{r}x{segw}/w{warps}p1", lambda: seg2_kernel[(triton.cdiv(rows, r),)](
                x, out, rows, cols, cols, cols, ROWS=r, SEGS=segs, SEGW=segw, VEC=8, PREV=1, num_warps=warps),
                out, ref, dtype, moved, copy_bw)
            bad += "WRONG" in cell or "ERR" in cell
            print(dname, cols, f"copy={copy_bw / 1e6:.0f}GB/s", "  ".join(cells + [cell]), flush=True)
    return bad


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--cols", default="33,65,97,131,197,263,333,457")
    ap.add_argument("--dtypes", default="bf16")
    args = ap.parse_args()
    if args.bench:
        raise SystemExit(1 if bench(args.cols, args.dtypes) else 0)
    assert os.environ.get("TRITON_INTERPRET") == "1", "run under TRITON_INTERPRET=1, or with --bench on a GPU"
    raise SystemExit(1 if check() else 0)
