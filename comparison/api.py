"""Public operations with torch semantics, dispatched to a backend.

Three hops from the user to a launch: these functions (torch semantics: `dim`, `dtype`,
views, empty tensors, autograd), a `Backend.run` on a canonical tensor, the launcher.
"""
from __future__ import annotations

import torch

from .backend import OPS, BackendUnavailableError
from .dispatch import check_tensor, normalize_dim, resolve_backend, rows_view, run_canonical


class _SoftmaxFunction(torch.autograd.Function):
    """Forward through the chosen kernels; backward with the closed forms on torch ops."""

    @staticmethod
    def forward(ctx, x2d, backend, op, variant):
        y = run_canonical(backend, x2d, op, variant)
        ctx.op = op
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensors
        return softmax_grad(y, dy, -1, ctx.op == "log_softmax"), None, None, None


def softmax_grad(y: torch.Tensor, dy: torch.Tensor, dim: int, log: bool) -> torch.Tensor:
    """Input gradient from the output y: softmax dx = y * (dy - sum(dy * y));
    log-softmax dx = dy - exp(y) * sum(dy), sums along `dim`."""
    if log:
        return dy - torch.exp(y) * dy.sum(dim, keepdim=True)
    return y * (dy - (dy * y).sum(dim, keepdim=True))


def _compiling() -> bool:
    return torch.compiler.is_compiling()


def _softmax_like(op, x, dim, dtype, backend, variant, track_grad=True):
    x = check_tensor(x)
    dim = normalize_dim(dim, x.dim())
    if dtype is not None:
        x = x.to(dtype)
    chosen = resolve_backend(backend, x, op, variant)
    if x.numel() == 0:
        chosen.supports(x, op, variant).raise_if_unsupported()
        return torch.empty_like(x, memory_format=torch.contiguous_format)
    x2d = rows_view(x, dim)
    if track_grad and x2d.requires_grad and torch.is_grad_enabled():
        y2d = _SoftmaxFunction.apply(x2d, chosen, op, variant)
    else:
        y2d = run_canonical(chosen, x2d, op, variant)
    if x.dim() == 0:
        return y2d.reshape(())
    moved_shape = x.movedim(dim, -1).shape
    return y2d.reshape(moved_shape).movedim(-1, dim).contiguous()


def softmax(x: torch.Tensor, dim: int = -1, *, dtype: torch.dtype | None = None,
            backend: str = "auto", variant: str = "auto") -> torch.Tensor:
    """Softmax along `dim` with `torch.softmax` semantics, on the chosen backend/variant.

    `backend="auto"` picks the fastest backend that serves the tensor's device and
    dtype; `"torch"`, `"triton"` and `"cuda"` select one, and then `variant` may name
    one of its kernels (see `get_backend(name).variants("softmax")`).
    """
    if _compiling():
        from .ops import softmax_op
        return softmax_op(x if dtype is None else x.to(dtype), dim, False, backend, variant)
    return _softmax_like("softmax", x, dim, dtype, backend, variant)


def log_softmax(x: torch.Tensor, dim: int = -1, *, dtype: torch.dtype | None = None,
                backend: str = "auto", variant: str = "auto") -> torch.Tensor:
    """Log-softmax along `dim` with `torch.log_softmax` semantics (see `softmax`)."""
    if _compiling():
        from .ops import softmax_op
        return softmax_op(x if dtype is None else x.to(dtype), dim, True, backend, variant)
    return _softmax_like("log_softmax", x, dim, dtype, backend, variant)


def reduce_grad(x: torch.Tensor, out: torch.Tensor, dy: torch.Tensor, dim, is_max: bool) -> torch.Tensor:
    """Input gradient of a sum (dy broadcast) or max (dy shared evenly among the maxima,
    as torch.amax does) along `dim` (None: the whole tensor)."""
    if dim is not None and x.dim():
        out, dy = out.unsqueeze(dim), dy.unsqueeze(dim)
    if not is_max:
        return dy.expand_as(x).clone()
    hits = (x == out).to(dy.dtype)
    count = hits.sum() if dim is None else hits.sum(dim, keepdim=True)
    return hits * (dy / count)


class _ReduceFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, op, dim, backend, variant):
        out = _reduce(op, x, dim, backend, variant, track_grad=False)
        ctx.dim, ctx.is_max = dim, op == "reduce_max"
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, dy):
        x, out = ctx.saved_tensors
        return reduce_grad(x, out, dy, ctx.dim, ctx.is_max), None, None, None, None


def _reduce(op, x, dim, backend, variant, track_grad=True):
    x = check_tensor(x)
    if dim is not None:
        dim = normalize_dim(dim, x.dim())
    if track_grad and x.requires_grad and torch.is_grad_enabled():
        return _ReduceFunction.apply(x, op, dim, backend, variant)
    chosen = resolve_backend(backend, x, op, variant)
    if dim is None:
        if x.numel() == 0:
            chosen.supports(x, op, variant).raise_if_unsupported()
            if op == "reduce_max":
                raise RuntimeError("amax(): Expected reduction dim to be specified for input.numel() == 0.")
            return torch.zeros((), dtype=x.dtype, device=x.device)
        return run_canonical(chosen, x.reshape(-1).contiguous(), op, variant)
    out_shape = tuple(s for i, s in enumerate(x.shape) if i != dim)
    if x.numel() == 0:
        chosen.supports(x, op, variant).raise_if_unsupported()
        if op == "reduce_max" and x.dim() and x.shape[dim] == 0:
            raise IndexError(f"amax(): Expected reduction dim {dim} to have non-zero size.")
        return torch.zeros(out_shape, dtype=x.dtype, device=x.device)
    return run_canonical(chosen, rows_view(x, dim), op, variant).reshape(out_shape)


def reduce_sum(x: torch.Tensor, dim: int | None = -1, *, backend: str = "auto",
               variant: str = "auto") -> torch.Tensor:
    """Sum along `dim` (or of the whole tensor for dim=None), like `torch.sum`.

    fp16 and bf16 inputs accumulate in fp32 and return their own dtype.
    """
    if _compiling():
        from .ops import reduce_op
        return reduce_op(x, dim, False, backend, variant)
    return _reduce("reduce_sum", x, dim, backend, variant)


def reduce_max(x: torch.Tensor, dim: int | None = -1, *, backend: str = "auto",
               variant: str = "auto") -> torch.Tensor:
    """Maximum along `dim` (or of the whole tensor for dim=None), like `torch.amax`; NaN propagates."""
    if _compiling():
        from .ops import reduce_op
        return reduce_op(x, dim, True, backend, variant)
    return _reduce("reduce_max", x, dim, backend, variant)


OP_FUNCTIONS = {"softmax": softmax, "log_softmax": log_softmax,
                "reduce_sum": reduce_sum, "reduce_max": reduce_max}
assert set(OP_FUNCTIONS) == set(OPS)

__all__ = ["softmax", "log_softmax", "reduce_sum", "reduce_max", "BackendUnavailableError"]
