"""The operations as `torch.library` custom ops, for `torch.compile`.

In eager mode the public functions run `comparison.dispatch` directly (no dispatcher
overhead). While `torch.compile` traces, each kernel call is one of these opaque custom
ops instead, so backend lookup, checks and launch stay one node of the graph: graphs
compile with `fullgraph=True` and fake tensors give the output shapes. Gradients are
not registered here: `comparison.autograd` wraps these calls once, for both modes.
"""
from __future__ import annotations

import torch

from . import dispatch


@torch.library.custom_op("comparison::softmax", mutates_args=())
def softmax_op(x: torch.Tensor, dim: int, log: bool, backend: str, variant: str) -> torch.Tensor:
    return dispatch.run_rows("log_softmax" if log else "softmax", x, dim, backend, variant)


@softmax_op.register_fake
def _(x, dim, log, backend, variant):
    return torch.empty_like(x, memory_format=torch.contiguous_format)


@torch.library.custom_op("comparison::softmax_backward", mutates_args=())
def softmax_backward_op(y: torch.Tensor, dy: torch.Tensor, dim: int, log: bool, backend: str,
                        variant: str) -> torch.Tensor:
    op = "log_softmax_backward" if log else "softmax_backward"
    return dispatch.run_rows(op, y, dim, backend, variant, dy=dy)


@softmax_backward_op.register_fake
def _(y, dy, dim, log, backend, variant):
    return torch.empty_like(y, memory_format=torch.contiguous_format)


@torch.library.custom_op("comparison::reduce", mutates_args=())
def reduce_op(x: torch.Tensor, dims: list[int], keepdim: bool, is_max: bool, backend: str,
              variant: str) -> torch.Tensor:
    return dispatch.run_reduce("reduce_max" if is_max else "reduce_sum", x, dims, keepdim, backend, variant)


@reduce_op.register_fake
def _(x, dims, keepdim, is_max, backend, variant):
    dtype = x.dtype if is_max else dispatch.sum_dtype(x.dtype)
    reduced = tuple(dims) or tuple(range(x.dim()))  # no dim named: every dimension
    return x.new_empty(dispatch.reduced_shape(x.shape, reduced, keepdim), dtype=dtype)


def softmax_rows(x: torch.Tensor, dim: int, log: bool, backend: str, variant: str) -> torch.Tensor:
    """Softmax or log-softmax along the normalised `dim`, eager or as the custom op."""
    if torch.compiler.is_compiling():
        return softmax_op(x, dim, log, backend, variant)
    return dispatch.run_rows("log_softmax" if log else "softmax", x, dim, backend, variant)


def softmax_backward_rows(y: torch.Tensor, dy: torch.Tensor, dim: int, log: bool, backend: str,
                          variant: str) -> torch.Tensor:
    """The input gradient of softmax (log-softmax) from its output `y` and `dy`."""
    if torch.compiler.is_compiling():
        return softmax_backward_op(y, dy, dim, log, backend, variant)
    op = "log_softmax_backward" if log else "softmax_backward"
    return dispatch.run_rows(op, y, dim, backend, variant, dy=dy)


def reduce(x: torch.Tensor, dims: list[int], keepdim: bool, is_max: bool, backend: str,
           variant: str) -> torch.Tensor:
    """Sum or max over the normalised `dims` (an empty list: the whole tensor, no dim named)."""
    if torch.compiler.is_compiling():
        return reduce_op(x, dims, keepdim, is_max, backend, variant)
    return dispatch.run_reduce("reduce_max" if is_max else "reduce_sum", x, dims, keepdim, backend, variant)
