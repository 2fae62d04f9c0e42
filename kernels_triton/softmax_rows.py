"""What the softmax families share about a row: its alignment, base-2 exp/log, the
kernel arguments, and the backward's arithmetic per element.

Rows are loaded 16 bytes at a time where alignment allows: the launcher passes ALIGN
(`row_align`: the power of two dividing both width and row stride), which the kernels
restate (`aligned_sizes`) so that Triton's alignment analysis sees it (it only knows
integer arguments divisible by 16). exp and log are ``exp2`` / ``log2`` of arguments
scaled by LOG2E / LN2.
"""
from __future__ import annotations

import math

import torch
import triton
import triton.language as tl

# Largest ALIGN hint (elements): Triton already knows integers divisible by 16.
MAX_ALIGN = 16

LOG2E = tl.constexpr(1.4426950408889634)
LN2 = tl.constexpr(0.6931471805599453)


def row_align(x: torch.Tensor, *more: torch.Tensor) -> int:
    """ALIGN of a ``(rows, cols)`` tensor: the largest power of two (at most MAX_ALIGN)
    dividing both the width and the row stride, so every row start and row end is a
    multiple of it (in elements). With `more` tensors of the same shape (the backward's
    dy), their row strides too: one ALIGN holds for every tensor a kernel reads."""
    g = math.gcd(x.shape[1], x.stride(0), *(t.stride(0) for t in more))
    return min(MAX_ALIGN, g & -g) if g else MAX_ALIGN


def kernel_args(x: torch.Tensor, y: torch.Tensor, *scratch: torch.Tensor) -> tuple:
    """The arguments of every softmax kernel, in order: input and output, any scratch
    tensors (`split`'s exchange slots), rows, width, and both row strides (y: contiguous
    (rows, cols), row stride cols)."""
    rows, cols = x.shape
    return (x, y, *scratch, rows, cols, x.stride(0), cols)


def backward_kernel_args(y: torch.Tensor, dy: torch.Tensor, dx: torch.Tensor, *scratch: torch.Tensor) -> tuple:
    """The arguments of every softmax backward kernel, in order: the forward output y, its
    gradient dy, the result dx, any scratch tensors, rows, width, and the three row
    strides (dx: contiguous (rows, cols), row stride cols)."""
    rows, cols = y.shape
    return (y, dy, dx, *scratch, rows, cols, y.stride(0), dy.stride(0), cols)


@triton.jit
def multiple_of(n, ALIGN: tl.constexpr):
    # n is a multiple of ALIGN (the launcher checked). Triton's alignment analysis only
    # knows integer arguments divisible by 16; written as (n // ALIGN) * ALIGN it sees
    # the factor, so rows of e.g. 1000 fp32 (ALIGN 8) still load 16 bytes at a time.
    return (n // ALIGN) * ALIGN


@triton.jit
def aligned_sizes(n_cols, x_row_stride, y_row_stride, ALIGN: tl.constexpr):
    # The width and both row strides, each restated as a multiple of ALIGN.
    return (multiple_of(n_cols, ALIGN), multiple_of(x_row_stride, ALIGN),
            multiple_of(y_row_stride, ALIGN))


@triton.jit
def backward_sizes(n_cols, y_row_stride, dy_row_stride, dx_row_stride, ALIGN: tl.constexpr):
    # The backward's width and three row strides, each restated as a multiple of ALIGN.
    return (multiple_of(n_cols, ALIGN), multiple_of(y_row_stride, ALIGN),
            multiple_of(dy_row_stride, ALIGN), multiple_of(dx_row_stride, ALIGN))


@triton.jit
def normaliser(d, LOG_SOFTMAX: tl.constexpr):
    # What a row's forward outputs take from its sum of exps d: log d, or 1 / d.
    return tl.log2(d) * LN2 if LOG_SOFTMAX else 1.0 / d


# The backward per element, in fp32 whatever the I/O dtype (evaluated in fp16/bf16, the
# chain rule loses up to 10x the accuracy of torch's own autograd):
#   softmax:      s = sum(dy * y),  dx = y * (dy - s)
#   log-softmax:  s = sum(dy),      dx = dy - exp(y) * s
# Special values follow the arithmetic, as torch's backward does: a NaN in y or dy makes
# the row's sum, and so the row, NaN; log-softmax's y = -inf gives exp(y) = 0, so dx = dy
# there (while s is finite). Padding holds +0 in y and dy, which adds nothing to a sum.

@triton.jit
def grad_term(y, g, LOG_SOFTMAX: tl.constexpr):
    # What an element adds to its row's sum.
    if LOG_SOFTMAX:
        return g
    else:
        return y * g


@triton.jit
def grad_out(y, g, s, LOG_SOFTMAX: tl.constexpr):
    # dx of an element from its y, its dy and the row's sum s.
    if LOG_SOFTMAX:
        return g - tl.exp2(y * LOG2E) * s
    else:
        return y * (g - s)
