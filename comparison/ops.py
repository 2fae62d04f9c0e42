"""The public operations registered with `torch.library`, for `torch.compile`.

In eager mode `comparison.softmax` & co. run their Python directly (no dispatcher
overhead). While `torch.compile` traces, they call these custom ops instead, so the
backend lookup, the checks and the kernel launch stay one opaque node: graphs compile
with `fullgraph=True`, fake tensors give the output shapes, and softmax/log-softmax keep
their gradients through `register_autograd`.
"""
from __future__ import annotations

from typing import Optional

import torch

from . import api


@torch.library.custom_op("comparison::softmax", mutates_args=())
def softmax_op(x: torch.Tensor, dim: int, log: bool, backend: str, variant: str) -> torch.Tensor:
    return api._softmax_like("log_softmax" if log else "softmax", x, dim, None, backend, variant,
                             track_grad=False)


@softmax_op.register_fake
def _(x, dim, log, backend, variant):
    return torch.empty_like(x, memory_format=torch.contiguous_format)


def _softmax_setup(ctx, inputs, output):
    _, dim, log, _, _ = inputs
    ctx.dim, ctx.log = dim, log
    ctx.save_for_backward(output)


def _softmax_backward(ctx, dy):
    (y,) = ctx.saved_tensors
    return api.softmax_grad(y, dy, ctx.dim, ctx.log), None, None, None, None


softmax_op.register_autograd(_softmax_backward, setup_context=_softmax_setup)


@torch.library.custom_op("comparison::reduce", mutates_args=())
def reduce_op(x: torch.Tensor, dim: Optional[int], is_max: bool, backend: str, variant: str) -> torch.Tensor:
    return api._reduce("reduce_max" if is_max else "reduce_sum", x, dim, backend, variant,
                       track_grad=False)


@reduce_op.register_fake
def _(x, dim, is_max, backend, variant):
    if dim is None:
        return x.new_empty(())
    d = dim % max(x.dim(), 1)
    return x.new_empty([s for i, s in enumerate(x.shape) if i != d])


def _reduce_setup(ctx, inputs, output):
    x, dim, is_max, _, _ = inputs
    ctx.dim, ctx.is_max = dim, is_max
    ctx.save_for_backward(x, output)


def _reduce_backward(ctx, dy):
    x, out = ctx.saved_tensors
    return api.reduce_grad(x, out, dy, ctx.dim, ctx.is_max), None, None, None, None


reduce_op.register_autograd(_reduce_backward, setup_context=_reduce_setup)
