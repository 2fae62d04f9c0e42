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

The last vector of x may hold fewer values than a vector when x does not end on a
16-byte boundary (`row_edges.ends_on_vector`): then the program that holds x's last row
reads and stores by value (SHARED_EXACT_LAST), so that nothing outside x is read or
written; every other program keeps the whole-vector form.

H200 (tuning/triton_window_segments_prototype.py --bench, device call 47, 1 GiB, bf16,
% of copy; window tile -> this tile at its best geometry): 33 33.2 -> 77.2, 65 41.8 ->
84.7, 97 65.5 -> 90.4, 131 77.0 -> 94.9, 197 75.5 -> 93.2, 263 91.8 -> 97.7, 333 84.4 ->
98.1, 457 95.8 -> 99.0. `geometry` holds the rule those best geometries follow.
"""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from . import downcast, row_edges
from .softmax_rows import LN2, LOG2E

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
         SEGW: tl.constexpr, SEGS: tl.constexpr, VEC: tl.constexpr, EXACT: tl.constexpr,
         INTERPRETER: tl.constexpr):
    # Rows block * ROWS ... of contiguous x into contiguous y (the module's docstring).
    # EXACT: the program holding x's last row where x ends inside a vector, which reads
    # no further than x's end and stores that row's last vector by value.
    rows = block * ROWS + tl.arange(0, ROWS)
    live = (rows < n_rows)[:, None]
    start = rows * n_cols
    base = row_edges.window_base(start, VEC)
    h, lanes, end = row_edges.window(start, base, n_cols, SEGW)
    read_end = (end + (VEC - 1)) // VEC * VEC
    whole_end = end // VEC * VEC
    if EXACT:
        read_end = tl.minimum(read_end, (tl.cast(n_rows, tl.int64) * n_cols - base)[:, None]).to(tl.int32)
        whole_end = tl.where((rows == n_rows - 1)[:, None], end, whole_end)
    xp = x_ptr + base[:, None]
    vals = ()
    for s in tl.static_range(SEGS):
        c = s * SEGW + lanes
        v = tl.load(xp + c, mask=live & (c < read_end), other=-float("inf")).to(tl.float32)
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
    d = tl.sum(acc, axis=1)[:, None]
    norm = tl.log2(d) * LN2 if LOG_SOFTMAX else 1.0 / d
    m_before = _row_before(m, ROWS)
    norm_before = _row_before(norm, ROWS)
    yp = y_ptr + base[:, None]
    for s in tl.static_range(SEGS):
        c = s * SEGW + lanes
        y = parts[s] - norm if LOG_SOFTMAX else parts[s] * norm
        if s == 0:
            shifted_before = head - m_before
            if LOG_SOFTMAX:
                y_before = shifted_before - norm_before
            else:
                y_before = tl.exp2(shifted_before * LOG2E) * norm_before
            y = tl.where(c < h, y_before, y)
        tl.store(yp + c, downcast.rounded(y, y_ptr.dtype.element_ty, INTERPRETER), mask=live & (c < whole_end))
