"""`fused`'s tile for narrow rows of odd width in a contiguous tensor: every 16-byte vector
of x loaded once and every vector of y stored once, whole, though two rows share it.

In a contiguous tensor of odd width, the vector where row r - 1 ends is the one where row
r starts. The window tile (softmax_fused._fused_window_tile) loads such a vector for both
rows, tests every value against its row, and stores the head's and tail's values one at
a time: for rows of a few hundred bytes that is about twice the instructions a byte of the
aligned tile (sm_90, Triton 3.6: 1560 against 880 for an 8 x 256 tile on one warp), and
such narrow rows are issue-bound there: bf16 33-333 columns ran at 32-84% of copy on the
H200 against 95-99% for aligned rows of the same bytes.

Here a row is its window (from the 16-byte boundary at or before its start, as the window
tile's) read as SEGS segments of [ROWS, SEGW] (SEGW a multiple of the vector, so a
segment has SEGW / VEC threads a row, each holding whole vectors, and every segment
takes one layout: no conversions). A thread finds its part of the row's max and sum
across its segments first, then over the row's threads. Only the first segment (the
head) and the last two (the tail: the window's end falls in one of them) test columns
against the row. Each output vector is stored whole by the later of the two rows that
share it: its values before that row's head are row r - 1's, computed from the loaded
head vector (which holds them) with row r - 1's max and normaliser, taken from the
tile's rows by a gather. Row r - 1 is always in the same tile: a tile of ROWS rows (a
multiple of the vector's values) starts on a vector boundary, so its first row has no
values of another row in its head.

Where x does not end on a 16-byte boundary (`row_edges.ends_on_vector`) its last vector
holds fewer values than a vector: the tiles then take every row but the last (whose
tail vector would run past x's end), and the program that holds the last row reads
x's last two rows by value after its tile (`last_rows`), storing the last row and the
values of the row before it that share its head vector: nothing outside x is read or
written, and the tile is compiled once (an exact-mask copy of the tile for the last
program took 96 / 128 registers against 72 at bf16 263, Triton 3.9).

H200, 1 GiB, % of copy, `auto` forward, softmax / log-softmax, before -> after:
* 16-bit to 1 KiB spans, against the window tiles (benchmarks/h200_2026-11-28/
  tri_fwd_shared_compare_h200_1458eed.txt, call 48, two rounds within 0.1): bf16 17 / 33
  / 65 / 97 / 131 / 197 / 263 / 333 / 401 / 457 / 505 14.0 / 32.4 / 41.8 / 66.3 / 76.2 /
  78.6 / 94.9 / 81.4 / 88.5 / 95.1 / 96.7 -> 57.6 / 77.4 / 84.1 / 92.9 / 95.9 / 91.1 /
  98.1 / 98.2 / 95.3 / 98.9 / 97.9 (log-softmax 11.6-95.0 -> 56.2-99.0); fp16 alike
  (13.9-96.6 -> 60.2-98.9; log-softmax 11.6-95.0 -> 57.2-99.3, 263 even at 95.0);
* wider 16-bit rows and fp32 rows, `fused` through tune.py against the edge tile and
  element loads (shared_wider_h200_7d619e7.txt, call 49, one round): bf16 511 / 577 / 700
  78.5 / 78.1 / 88.1 -> 97.8 / 98.2 / 98.9 (log-softmax 78.3 / 75.5 / 87.5 -> 94.0 / 99.2 /
  99.9), but 769 / 1025 / 2049 (32-64 lanes a row) 89.7 / 98.3 / 99.2 -> 88.7 / 90.7 /
  55.1; fp32 17 / 33 / 47 / 63 37.5 / 22.2 / 48.4 / 60.0 -> 92.3 / 82.7 / 94.2 / 94.4
  (log-softmax 17.3-55.1 -> 82.1-96.6), and from 97 (their windows) -1.7 to +0.7.
softmax_fused.FUSED_SHARED_MAX_SPAN bounds the rows so; `geometry` holds the rule the
best geometries of the prototype (tuning/triton_window_segments_prototype.py --bench,
call 47) follow.
"""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from . import downcast, row_edges, softmax_rows
from .softmax_rows import LOG2E

# Segments a row is read as, at most: the fewest lanes a row (a power of two, from two)
# whose segments number at most this. The best geometry of each width in call 47 had 3-6
# segments of whole vectors a row (24-48 values a thread) on SEGW / 8 = 2-16 lanes:
# 65 / 97 / 131 / 263 / 333 / 457 at 5 / 4 / 5 / 5 / 6 / 4; more segments on fewer lanes
# lost (97 at 7 x 16: 80.6 against 4 x 32: 90.4), fewer on more lanes lost too (333 at 3
# x 128: 90.2 against 6 x 64: 98.1).
SHARED_MAX_SEGMENTS = 6
SHARED_MIN_LANES = 2
# Warps a program: the tile's rows fill them once (ROWS = 32 x warps / lanes a row);
# twice the rows a thread, or 8 warps, measured alike or slower (call 47: 33 77.2 / 76.5
# / 75.7, 131 94.9 / 77.0 / 85.3 at 4 warps / two rows a thread / 8 warps).
SHARED_WARPS = 4


def geometry(x: torch.Tensor, vec: int) -> tuple[int, int, int, int]:
    """(ROWS, SEGW, SEGS, warps) of the shared-vector tile on the (rows, cols) tensor `x`
    whose 16-byte vectors hold `vec` values: SEGS segments of SEGW values cover a window
    of the row's width plus the vec - 1 values its head may start after the boundary."""
    vectors = triton.cdiv(x.shape[1] + vec - 1, vec)
    lanes = SHARED_MIN_LANES
    while triton.cdiv(vectors, lanes) > SHARED_MAX_SEGMENTS:
        lanes *= 2
    # A tile starts on a vector boundary only if its rows are a multiple of vec (odd widths).
    rows = max(vec, 32 * SHARED_WARPS // lanes)
    return rows, lanes * vec, triton.cdiv(vectors, lanes), max(1, rows * lanes // 32)


def fits(x: torch.Tensor, vec: int) -> bool:
    """Whether rows of the (rows, cols) tensor `x` read with 16-byte vectors of `vec`
    values (`row_edges.edge_vector`, 0: none) share those vectors between rows, as a
    contiguous output's rows do: x's rows contiguous and of a width off whole vectors, so
    that the vector that ends row r - 1 is the one that starts row r in both."""
    cols = x.shape[1]
    return vec > 0 and cols % vec != 0 and (x.shape[0] == 1 or x.stride(0) == cols)


@triton.jit
def _row_before(v, ROWS: tl.constexpr):
    # v ([ROWS, 1], one value a row) of the row before each; the tile's first row takes
    # its own (its head starts on a vector boundary: nothing of a row before it is used).
    idx = tl.maximum(tl.arange(0, ROWS) - 1, 0)
    return tl.gather(tl.reshape(v, [ROWS]), idx, 0)[:, None]


@triton.jit
def tile(x_ptr, y_ptr, block, n_rows, n_cols, LOG_SOFTMAX: tl.constexpr, ROWS: tl.constexpr,
         SEGW: tl.constexpr, SEGS: tl.constexpr, VEC: tl.constexpr, INTERPRETER: tl.constexpr):
    # Rows block * ROWS ... (those under n_rows) of contiguous x into contiguous y (the
    # module's docstring); each row reads every vector that holds one of its values, so
    # the vector after row n_rows - 1's last value must lie in x.
    rows = block * ROWS + tl.arange(0, ROWS)
    live = (rows < n_rows)[:, None]
    start = rows * n_cols
    base = row_edges.window_base(start, VEC)
    h, lanes, end = row_edges.window(start, base, n_cols, SEGW)
    whole_end = end // VEC * VEC
    xp = x_ptr + base[:, None]
    vals = ()
    for s in tl.static_range(SEGS):
        c = s * SEGW + lanes
        v = tl.load(xp + c, mask=row_edges.window_read(live, c, end, VEC), other=-float("inf")).to(tl.float32)
        if s == 0:
            head = v  # row r - 1's values before h, for the outputs it stores for that row
        if s == 0 or s >= SEGS - 2:
            v = tl.where(row_edges.in_window_row(c, h, n_cols, VEC), v, -float("inf"))
        vals = vals + (v,)
    # Special values as in the plain tile: the -inf set above never wins the max and its
    # exp is 0; a row of -inf, +inf or a NaN ends up NaN across the row.
    mx = vals[0]
    for s in tl.static_range(1, SEGS):
        mx = tl.maximum(mx, vals[s])
    m = tl.max(mx, axis=1)[:, None]
    parts = ()
    acc = tl.zeros_like(mx)
    for s in tl.static_range(SEGS):
        shifted = vals[s] - m
        e = tl.exp2(shifted * LOG2E)
        acc += e
        parts = parts + ((shifted if LOG_SOFTMAX else e),)
    norm = softmax_rows.normaliser(tl.sum(acc, axis=1)[:, None], LOG_SOFTMAX)
    m_before = _row_before(m, ROWS)
    norm_before = _row_before(norm, ROWS)
    yp = y_ptr + base[:, None]
    for s in tl.static_range(SEGS):
        c = s * SEGW + lanes
        y = parts[s] - norm if LOG_SOFTMAX else parts[s] * norm
        if s == 0:
            y = tl.where(c < h, _outputs(head - m_before, norm_before, LOG_SOFTMAX), y)
        tl.store(yp + c, downcast.rounded(y, y_ptr.dtype.element_ty, INTERPRETER), mask=live & (c < whole_end))


@triton.jit
def last_rows(x_ptr, y_ptr, n_rows, n_cols, LOG_SOFTMAX: tl.constexpr, BLOCK: tl.constexpr,
              VEC: tl.constexpr, INTERPRETER: tl.constexpr):
    # x's last two rows by value (BLOCK >= n_cols, a power of two), after tiles of every
    # row but the last: all of the last row, and the values of the row before it past its
    # last whole vector (the vector the two share, which the tiles leave to the later row).
    r = tl.cast(n_rows, tl.int64) - 2 + tl.arange(0, 2)
    cols = tl.arange(0, BLOCK)[None, :]
    start = (r * n_cols)[:, None]
    read = (r >= 0)[:, None] & (cols < n_cols)
    x = tl.load(x_ptr + start + cols, mask=read, other=-float("inf")).to(tl.float32)
    m = tl.max(x, axis=1)[:, None]
    shifted = x - m
    norm = softmax_rows.normaliser(tl.sum(tl.exp2(shifted * LOG2E), axis=1)[:, None], LOG_SOFTMAX)
    y = _outputs(shifted, norm, LOG_SOFTMAX)
    first = tl.where((r == n_rows - 1)[:, None], 0, (start + n_cols) // VEC * VEC - start)
    tl.store(y_ptr + start + cols, downcast.rounded(y, y_ptr.dtype.element_ty, INTERPRETER),
             mask=read & (cols >= first))


@triton.jit
def _outputs(shifted, norm, LOG_SOFTMAX: tl.constexpr):
    # Outputs of values shifted by their row's max: x - max - log d, or exp(x - max) / d.
    return shifted - norm if LOG_SOFTMAX else tl.exp2(shifted * LOG2E) * norm
