"""Rows that do not start on a 16-byte boundary, read in three parts: the head (the
values before the row's first 16-byte aligned address), the body (whole 16-byte
vectors), the tail (the values after the last whole vector).

In a contiguous tensor of odd width (GPT-2's 50257 columns) row r starts r x cols x
elem bytes from the base, at another offset from a 16-byte boundary in every row, so
Triton's alignment analysis can prove no more than one value's alignment for a row's
pointer and loads the row one value at a time (2-byte loads for bf16). Read as head,
body and tail, all but at most 2 (VEC - 1) values of each row move in 16-byte vectors.
The body's start is the row's offset rounded up to a whole vector, written
``(start + VEC - 1) // VEC * VEC`` and its length ``(n - head) // VEC * VEC``: forms
whose factor VEC the analysis sees, so that masked loads and stores of the body stay
vectorized (kernels_cuda/csrc/common/row_edges.cuh does the same in CUDA).

One split serves every tensor a kernel reads or writes with the same column indices (x
and y; y, dy and dx) where their rows sit at the same offset from a 16-byte boundary:
each base 16-byte aligned (Triton specialises on that) and the row strides a whole
number of vectors apart, or a single row (`edge_vector` checks, for a contiguous
output). Elsewhere the kernels keep their element-by-element loads: the split is exact
for any layout, but vectorizes only these.
"""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from . import softmax_rows

# The widest load: 16 bytes (ld.global.v4.b32, LDG.E.128).
VECTOR_BYTES = 16


def edge_vector(x: torch.Tensor, *more: torch.Tensor) -> int:
    """EDGES of a kernel on the (rows, cols) tensor `x` (and `more`, the backward's dy,
    read with the same columns) writing a contiguous output: the values of a 16-byte
    vector where the rows are read as head, whole vectors and tail, else 0. 0 where the
    rows already start and end on whole vectors (`row_align`), are narrower than two
    vectors (no whole vector in some row), a tensor's start is off 16 bytes, or the
    rows of the tensors and of the output sit at different offsets from a 16-byte
    boundary."""
    rows, cols = x.shape
    vec = VECTOR_BYTES // x.element_size()
    if cols < 2 * vec or softmax_rows.row_align(x, *more) >= vec:
        return 0
    tensors = (x, *more)
    if any(t.data_ptr() % VECTOR_BYTES for t in tensors):
        return 0
    if rows > 1 and any((t.stride(0) - cols) % vec for t in tensors):
        return 0
    return vec


def ends_on_vector(x: torch.Tensor) -> bool:
    """Whether the (rows, cols) tensor `x` (16-byte aligned start: `edge_vector`) ends on
    a 16-byte boundary, so that every 16-byte vector holding a value of x lies inside x's
    own extent and a kernel may read each whole (the values of x's neighbours in them
    masked). What a plan reads of x decides it (launch.tensor_key: the start mod 16 bytes,
    shape, strides), never the storage beyond x, so a cached plan holds for every tensor
    of the key: bf16 rows of odd width end so in a multiple of 8 rows."""
    rows, cols = x.shape
    if rows == 0 or cols == 0:
        return True
    end = x.data_ptr() + ((rows - 1) * x.stride(0) + cols) * x.element_size()
    return end % VECTOR_BYTES == 0


@triton.jit
def split_row(start, n_cols, VEC: tl.constexpr):
    # (body_start, head, body) of a row `start` values past a 16-byte aligned base:
    # the body's first column as an offset from the base (a multiple of VEC, as the
    # analysis sees it), the head's values (at most the row's), the body's values (a
    # multiple of VEC). Elementwise: `start` may be a tensor of rows.
    body_start = (start + (VEC - 1)) // VEC * VEC
    head = tl.minimum(body_start - start, n_cols)
    body = (n_cols - head) // VEC * VEC
    return body_start, head, body


@triton.jit
def edge_columns(e, head, body):
    # The columns of edge values e = 0, 1, ... of a row: the head's, then the tail's,
    # which follow the body. Edge e exists where e < n_cols - body.
    return tl.where(e < head, e, e + body)


@triton.jit
def moved(body_start, rows, from_stride, to_stride, VEC: tl.constexpr):
    # body_start of `rows` in another tensor whose row stride is `to_stride` (the same
    # columns, the same offset from a 16-byte boundary: the strides differ by a multiple
    # of VEC, which `edge_vector` checked), as a multiple of VEC the analysis sees.
    return body_start + tl.cast(rows, tl.int64) * softmax_rows.multiple_of(to_stride - from_stride, VEC)


# -- windows: rows read from the 16-byte boundary at or before their start -------------------
# (softmax_fused's window tiles, forward and backward: every 16-byte vector holding a value
# of the row loaded whole, `ends_on_vector` says where that stays inside the tensor.)

@triton.jit
def window_base(start, VEC: tl.constexpr):
    # The 16-byte boundary at or before rows `start` values past a 16-byte aligned
    # pointer: where their windows start.
    return start // VEC * VEC


@triton.jit
def window(start, base, n_cols, BLOCK: tl.constexpr):
    # (h, cols, end) of rows `start` values past an aligned pointer whose windows start at
    # `base` (window_base): the row's first column in its window (a [ROWS, 1] column), the
    # window's columns, and the row's end in it (h + n_cols).
    h = (start - base).to(tl.int32)[:, None]
    return h, tl.arange(0, BLOCK)[None, :], h + n_cols


@triton.jit
def window_read(live, cols, end, VEC: tl.constexpr):
    # The window's columns to load: every vector that holds a value of a live row.
    return live & (cols < (end + (VEC - 1)) // VEC * VEC)


@triton.jit
def in_window_row(cols, h, n_cols, VEC: tl.constexpr):
    # Whether a window column is the row's (h <= col < h + n_cols), tested as j >= -t
    # and j < n_cols - t for j = col % VEC, t per vector: j is a constant of each register
    # of a thread's vector, so each value takes two compares with an immediate (col - h
    # unsigned below n_cols took four instructions a value and 9 more registers, Triton
    # 3.6).
    j = cols % VEC
    t = cols // VEC * VEC - h
    return (j >= -t) & (j < n_cols - t)


@triton.jit
def window_whole(live, cols, h, end, VEC: tl.constexpr):
    # The window's columns in whole vectors of a live row: stored 16 bytes at a time.
    return live & (cols >= (h + (VEC - 1)) // VEC * VEC) & (cols < end // VEC * VEC)


@triton.jit
def window_edges(live, k, h, end, VEC: tl.constexpr):
    # (columns, mask) of lanes k of a row's head and tail vectors in its window: lanes 0 ..
    # VEC - 1 the head vector's values in the row (none where it starts on a boundary, h =
    # 0: whole), VEC .. 2 VEC - 1 the tail vector's.
    e_cols = tl.where(k < VEC, k, k - VEC + end // VEC * VEC)
    return e_cols, live & (k < 2 * VEC) & tl.where(k < VEC, (k >= h) & (h > 0), e_cols < end)

