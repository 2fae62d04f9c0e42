"""The public operations, with torch semantics, on any backend.

From a call to a kernel: these functions (torch's argument rules, `dtype=`, autograd)
-> `comparison.dispatch` (backend choice, canonical rows) -> `Backend.run` -> the
backend's op module, whose `run` plans and launches (kernels_cuda/, kernels_triton/).
"""
from __future__ import annotations

import torch

from . import library
from .autograd import ReduceFunction, SoftmaxFunction
from .canonical import normalize_dim, normalize_dims
from .dispatch import check_dtype_arg, check_gradient, check_tensor, run_rows_with_grad


def _needs_grad(x: torch.Tensor) -> bool:
    return x.requires_grad and torch.is_grad_enabled()


def _softmax(x, dim, dtype, log: bool, backend: str, variant: str) -> torch.Tensor:
    # The path of every call in a model's loop: each check costs a fraction of a
    # microsecond and is written for the common case (a tensor, no dtype, an int dim).
    if not isinstance(x, torch.Tensor):
        check_tensor(x)
    if dtype is not None:
        check_dtype_arg(dtype)
        x = x.to(dtype)
    ndim = x.dim()
    if type(dim) is int and -ndim <= dim < ndim:
        dim %= ndim
    else:
        dim = normalize_dim(dim, ndim)
    if x.requires_grad and torch.is_grad_enabled():
        if not torch.compiler.is_compiling():
            # Eager: the backend's own autograd node where it has one (CUDA's is C++).
            y = run_rows_with_grad("log_softmax" if log else "softmax", x, dim, backend, variant)
            if y is not None:
                return y
        return SoftmaxFunction.apply(x, dim, log, backend, variant)
    return library.softmax_rows(x, dim, log, backend, variant)


def softmax(x: torch.Tensor, dim: int = -1, *, dtype: torch.dtype | None = None,
            backend: str = "auto", variant: str = "auto") -> torch.Tensor:
    """Softmax along `dim` with `torch.softmax` semantics, on the chosen backend/variant.

    `backend="auto"` picks the fastest backend that serves the tensor's device and
    dtype; `"torch"`, `"triton"` and `"cuda"` select one, and then `variant` may name
    one of its kernels (see `get_backend(name).variants("softmax")`). Gradients run the
    backward kernels (`softmax_backward`).
    """
    return _softmax(x, dim, dtype, False, backend, variant)


def log_softmax(x: torch.Tensor, dim: int = -1, *, dtype: torch.dtype | None = None,
                backend: str = "auto", variant: str = "auto") -> torch.Tensor:
    """Log-softmax along `dim` with `torch.log_softmax` semantics (see `softmax`)."""
    return _softmax(x, dim, dtype, True, backend, variant)


def _softmax_backward(y, dy, dim, log: bool, backend: str, variant: str) -> torch.Tensor:
    check_gradient(y, dy)
    return library.softmax_backward_rows(y, dy, normalize_dim(dim, y.dim()), log, backend, variant)


def softmax_backward(y: torch.Tensor, dy: torch.Tensor, dim: int = -1, *, backend: str = "auto",
                     variant: str = "auto") -> torch.Tensor:
    """The gradient of softmax's input from its output `y` and the output's gradient `dy`:
    ``dx = y * (dy - sum(dy * y, dim))``, like `torch._softmax_backward_data`. Sums
    accumulate in fp32 for fp16/bf16. Not itself differentiable."""
    return _softmax_backward(y, dy, dim, False, backend, variant)


def log_softmax_backward(y: torch.Tensor, dy: torch.Tensor, dim: int = -1, *, backend: str = "auto",
                         variant: str = "auto") -> torch.Tensor:
    """The gradient of log-softmax's input from its output `y` and `dy`:
    ``dx = dy - exp(y) * sum(dy, dim)`` (see `softmax_backward`)."""
    return _softmax_backward(y, dy, dim, True, backend, variant)


def _reduce(x, dim, keepdim, is_max: bool, backend: str, variant: str) -> torch.Tensor:
    check_tensor(x)
    if not isinstance(keepdim, bool):
        raise TypeError(f"keepdim must be a bool, got {type(keepdim).__name__}")
    # An empty list stands for "no dim named" (the whole tensor), as torch.sum takes it;
    # named dims are checked and normalised here.
    named = dim is not None and not (isinstance(dim, (tuple, list)) and len(dim) == 0)
    dims = list(normalize_dims(dim, x.dim())) if named else []
    if _needs_grad(x):
        return ReduceFunction.apply(x, dims, keepdim, is_max, backend, variant)
    return library.reduce(x, dims, keepdim, is_max, backend, variant)


def reduce_sum(x: torch.Tensor, dim: int | tuple[int, ...] | None = None, keepdim: bool = False, *,
               backend: str = "auto", variant: str = "auto") -> torch.Tensor:
    """Sum like `torch.sum`: over the whole tensor (`dim=None`, a 0-dim result), one
    dimension or a tuple of them, `keepdim` as torch. fp16/bf16 accumulate in fp32 and
    return their own dtype; integer and bool inputs are summed into int64 (by the torch
    backend: the kernels take floating types)."""
    return _reduce(x, dim, keepdim, False, backend, variant)


def reduce_max(x: torch.Tensor, dim: int | tuple[int, ...] | None = None, keepdim: bool = False, *,
               backend: str = "auto", variant: str = "auto") -> torch.Tensor:
    """Maximum like `torch.amax` (over the whole tensor for `dim=None`); NaN propagates."""
    return _reduce(x, dim, keepdim, True, backend, variant)


# The forward ops and reductions by op name, all called as fn(x, dim, backend=, variant=).
OP_FUNCTIONS = {"softmax": softmax, "log_softmax": log_softmax,
                "reduce_sum": reduce_sum, "reduce_max": reduce_max}
# The backward ops, called as fn(y, dy, dim, backend=, variant=).
BACKWARD_FUNCTIONS = {"softmax_backward": softmax_backward, "log_softmax_backward": log_softmax_backward}
