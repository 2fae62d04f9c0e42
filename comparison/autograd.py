"""Gradients of the public operations, wired once for eager mode and `torch.compile`.

Each forward saves what its backward needs (softmax: its output, never its input) and
the backward is itself a kernel call through `comparison.library`, on the backend that
ran the forward when it implements the backward op (else on `auto`'s choice).
"""
from __future__ import annotations

import sys

import torch
from torch.autograd.function import once_differentiable

from . import library
from .backend import BACKWARD_OF
from .registry import get_backend


def constant_under_compile(fn):
    """`torch.compiler.assume_constant_result(fn)` without importing torch._dynamo first.

    That decorator imports torch._dynamo, which imports Triton; imported with
    `comparison`, Triton would fix its interpreter switch (TRITON_INTERPRET, read once,
    at its import) before the CLI sets it for a CPU run, and every Triton row of
    `python -m comparison` on a CPU failed ("Cannot call @triton.jit'd outside of the
    scope of a kernel": triton.language's own helpers compiled, not interpreted). So
    until dynamo is loaded by something else, the function gets the mark that decorator
    sets (tests/test_api.py checks that it is the same mark); dynamo reads it when it
    traces, by which time it is loaded."""
    if "torch._dynamo" in sys.modules:
        return torch.compiler.assume_constant_result(fn)
    fn._dynamo_marked_constant = True
    return fn


# Under torch.compile the answer is taken as a constant of the trace (it depends on the
# two strings alone): tracing into it would import the backend's module, which dynamo
# refuses to trace (a graph break, an error with fullgraph=True).
@constant_under_compile
def backward_backend(backend: str, forward_op: str) -> str:
    """The backend for the backward of `forward_op` run on `backend` (asked by every
    forward that records a gradient: answered once per pair)."""
    found = _BACKWARD_BACKENDS.get((backend, forward_op))
    if found is None:
        found = backend if backend != "auto" and get_backend(backend).variants(BACKWARD_OF[forward_op]) else "auto"
        _BACKWARD_BACKENDS[(backend, forward_op)] = found
    return found


_BACKWARD_BACKENDS: dict[tuple[str, str], str] = {}


class SoftmaxFunction(torch.autograd.Function):
    """softmax / log-softmax along a normalised dim, with the backward kernels."""

    @staticmethod
    def forward(ctx, x, dim: int, log: bool, backend: str, variant: str):
        y = library.softmax_rows(x, dim, log, backend, variant)
        ctx.save_for_backward(y)
        ctx.dim, ctx.log = dim, log
        ctx.backend = backward_backend(backend, "log_softmax" if log else "softmax")
        return y

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        (y,) = ctx.saved_tensors
        dx = library.softmax_backward_rows(y, dy.to(y.dtype), ctx.dim, ctx.log, ctx.backend, "auto")
        return dx, None, None, None, None


class ReduceFunction(torch.autograd.Function):
    """Sum (dy broadcast) or max (dy shared evenly among the maxima, as torch.amax does)."""

    @staticmethod
    def forward(ctx, x, dims: list[int], keepdim: bool, is_max: bool, backend: str, variant: str):
        out = library.reduce(x, dims, keepdim, is_max, backend, variant)
        # No dim named (an empty list): every dimension was reduced.
        ctx.dims, ctx.keepdim, ctx.is_max = tuple(dims) or tuple(range(x.dim())), keepdim, is_max
        ctx.shape = x.shape
        if is_max:
            ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, dy):
        if not ctx.keepdim:
            for d in ctx.dims:  # ascending: each unsqueeze lands where torch reduced
                dy = dy.unsqueeze(d)
        if not ctx.is_max:
            return dy.expand(ctx.shape).clone(), None, None, None, None, None
        x, out = ctx.saved_tensors
        if not ctx.keepdim:
            for d in ctx.dims:
                out = out.unsqueeze(d)
        hits = (x == out).to(dy.dtype)
        count = hits.sum(dim=list(ctx.dims), keepdim=True) if ctx.dims else hits
        return hits * (dy / count), None, None, None, None, None
