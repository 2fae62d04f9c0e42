"""From a user's tensors to a backend's canonical call and back, in eager mode.

Every public operation in `comparison.api` goes through here (under `torch.compile`, from
inside a registered custom op, see `comparison.library`): check the arguments, choose the
backend, view the input as canonical rows (`comparison.canonical`), run, and give the
result the layout torch would.
"""
from __future__ import annotations

from typing import Callable

import torch

from .backend import BACKWARD_OF, REDUCE_OPS, Backend
from .canonical import from_rows, normalize_dims, reduce_view, rows_view
from .registry import AUTO_ORDER, get_backend


def check_tensor(x, name: str = "input") -> torch.Tensor:
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor, got {type(x).__name__}")
    return x


def check_dtype_arg(dtype) -> None:
    if dtype is not None and not isinstance(dtype, torch.dtype):
        raise TypeError(f"dtype must be a torch.dtype (e.g. torch.float16) or None, got {dtype!r}")


def check_gradient(y: torch.Tensor, dy: torch.Tensor) -> None:
    """The incoming gradient of a backward op matches the forward output it goes with."""
    check_tensor(y, "y (the forward output)")
    check_tensor(dy, "dy (the gradient of the output)")
    if y.shape != dy.shape:
        raise ValueError(f"dy has shape {tuple(dy.shape)} but y has shape {tuple(y.shape)}: they must match")
    if y.dtype != dy.dtype:
        raise TypeError(f"dy has dtype {dy.dtype} but y has dtype {y.dtype}: they must match")
    if y.device != dy.device:
        raise ValueError(f"dy is on {dy.device} but y is on {y.device}: they must be on one device")


def resolve_backend(backend: str, x: torch.Tensor, op: str, variant: str) -> Backend:
    """The backend that will run `op` on `x`; explicit names are checked, "auto" searched.
    (The call path asks once per route, see `route`.)"""
    if not isinstance(backend, str):
        raise TypeError(f"backend must be a string, got {type(backend).__name__}")
    if not isinstance(variant, str):
        raise TypeError(f"variant must be a string, got {type(variant).__name__}")
    if backend != "auto":
        chosen = get_backend(backend)
        chosen.check_variant(op, variant)
        return chosen
    if variant != "auto":
        raise ValueError(f"variant={variant!r} names one backend's kernel: pass backend= as well")
    if x.device.type != "cuda":
        # Off the GPU only torch is fast; Triton's CPU interpreter is for testing.
        return get_backend("torch")
    # AUTO_ORDER is fastest first (see benchmarks/); torch serves whatever is left.
    for name in AUTO_ORDER:
        candidate = get_backend(name)
        if candidate.supports(x, op, "auto"):
            return candidate
    return get_backend("torch")


# (backend, op, variant, dtype) for CUDA tensors, (backend, op, variant, dtype, device
# type) for others -> the backend that runs such a call, its basic checks (availability,
# variant, device, dtype) passed, and its runner. Neither depends on the shape: the
# backends AUTO_ORDER searches serve every canonical shape with "auto"
# (`auto_serves_every_shape`), so its choice is a function of the device and dtype too.
# A loop of calls then pays one dict hit for what would be microseconds of checks. (The
# short key for CUDA tensors because `x.device.type` alone costs half a microsecond:
# `x.is_cuda` a tenth of that.)
_ROUTES: dict[tuple, tuple[Backend, Callable]] = {}
# The same keys -> the backend's `grad_runner`, or False where the Python
# autograd.Function must record the gradient (see `grad_runner`).
_GRAD_ROUTES: dict[tuple, Callable | bool] = {}


def _key(backend: str, op: str, variant: str, x: torch.Tensor) -> tuple:
    return (backend, op, variant, x.dtype) if x.is_cuda else (backend, op, variant, x.dtype, x.device.type)


def route(backend: str, x: torch.Tensor, op: str, variant: str) -> tuple[Backend, Callable]:
    """The backend that runs `op` on `x`, checked (raising the check's error), and
    the callable ``runner(x2d, dy2d)`` a canonical call goes to: the backend's own runner
    where no shape can be refused, else its shape check and `run`."""
    key = _key(backend, op, variant, x)
    found = _ROUTES.get(key)
    if found is None:
        chosen = resolve_backend(backend, x, op, variant)
        chosen.basic_support(x, op, variant).raise_if_unsupported()
        if variant == "auto" and chosen.auto_serves_every_shape:
            runner = chosen.runner(op, variant)
        else:
            def runner(x2d, dy2d, chosen=chosen):
                chosen.supports_canonical(x2d, op, variant).raise_if_unsupported()
                return chosen.run(x2d, op, variant, dy=dy2d)
        found = _ROUTES[key] = (chosen, runner)
    return found


def _is_canonical(x: torch.Tensor, dim: int) -> bool:
    """Rows along the last of two dimensions with unit column stride, not empty: what the
    runners take as they are (is_contiguous first: a fifth of the cost of stride(1))."""
    return dim == 1 and x.dim() == 2 and (x.is_contiguous() or x.stride()[1] == 1) and x.numel() > 0


def run_rows(op: str, x: torch.Tensor, dim: int, backend: str, variant: str,
             dy: torch.Tensor | None = None) -> torch.Tensor:
    """A row op (softmax, log-softmax, or their backward with `x` = y and `dy`) along the
    normalised `dim`; the result has x's shape, contiguous."""
    found = _ROUTES.get((backend, op, variant, x.dtype) if x.is_cuda else _key(backend, op, variant, x))
    chosen, runner = found if found is not None else route(backend, x, op, variant)
    if _is_canonical(x, dim):
        # The common call, with no view to make or undo.
        return runner(x, None if dy is None else rows_view(dy, dim))
    x2d = rows_view(x, dim)
    if not x.numel():
        chosen.supports_canonical(x2d, op, variant).raise_if_unsupported()
        return torch.empty_like(x, memory_format=torch.contiguous_format)
    return from_rows(runner(x2d, None if dy is None else rows_view(dy, dim)), x, dim)


def grad_runner(backend: str, x: torch.Tensor, op: str, variant: str) -> Callable | None:
    """The backend's `grad_runner` for a forward softmax op whose gradient is recorded, or
    None where `comparison.autograd.SoftmaxFunction` must do it: a named variant (its
    shape check runs per call), a backend without one, or a backward that the Function
    would run elsewhere (it runs on the forward's backend when that has backward kernels,
    else on `auto`'s choice)."""
    key = _key(backend, op, variant, x)
    found = _GRAD_ROUTES.get(key)
    if found is None:
        chosen, _ = route(backend, x, op, variant)
        found = False
        if variant == "auto" and chosen.auto_serves_every_shape:
            backward_op = BACKWARD_OF[op]
            if backend == "auto":
                same = route("auto", x, backward_op, "auto")[0] is chosen
            else:
                same = bool(chosen.variants(backward_op))
            found = (same and chosen.grad_runner(op, variant)) or False
        _GRAD_ROUTES[key] = found
    return found or None


def run_rows_with_grad(op: str, x: torch.Tensor, dim: int, backend: str, variant: str) -> torch.Tensor | None:
    """`run_rows` for an eager forward that records its gradient through the backend's
    `grad_runner` (the views made here are recorded by torch as usual), or None when the
    caller must use the autograd.Function (see `grad_runner`; empty inputs too)."""
    runner = _GRAD_ROUTES.get((backend, op, variant, x.dtype) if x.is_cuda else _key(backend, op, variant, x))
    if runner is None:
        runner = grad_runner(backend, x, op, variant)
    if not runner:
        return None
    if _is_canonical(x, dim):
        return runner(x)
    if not x.numel():
        return None
    return from_rows(runner(rows_view(x, dim)), x, dim)


def reduced_shape(shape, dims: tuple[int, ...], keepdim: bool) -> tuple[int, ...]:
    if keepdim:
        return tuple(1 if i in dims else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in dims)


def run_reduce(op: str, x: torch.Tensor, dim, keepdim: bool, backend: str, variant: str) -> torch.Tensor:
    """A sum or max over `dim`: normalised dims, or an empty list for no dim named (the
    whole tensor)."""
    assert op in REDUCE_OPS
    dims = normalize_dims(dim, x.dim())
    out_shape = reduced_shape(x.shape, dims, keepdim)
    chosen, runner = route(backend, x, op, variant)
    canonical = reduce_view(x, dims)
    if x.numel() == 0:
        chosen.supports_canonical(canonical, op, variant).raise_if_unsupported()
        return empty_reduction(op, x, dims, out_shape, named=bool(dim))
    return runner(canonical, None).reshape(out_shape)


def empty_reduction(op: str, x: torch.Tensor, dims: tuple[int, ...], out_shape, named: bool) -> torch.Tensor:
    """What torch.sum / torch.amax give for an empty input: amax raises as torch does,
    IndexError when a named dim is empty, RuntimeError when no dim was named."""
    if op == "reduce_max":
        if not named:
            raise RuntimeError("amax(): Expected reduction dim to be specified for input.numel() == 0.")
        for d in dims:
            if x.shape[d] == 0:
                raise IndexError(f"amax(): Expected reduction dim {d} to have non-zero size.")
        return torch.empty(out_shape, dtype=x.dtype, device=x.device)
    return torch.zeros(out_shape, dtype=sum_dtype(x.dtype), device=x.device)


def sum_dtype(dtype: torch.dtype) -> torch.dtype:
    """torch.sum's result dtype: integers and bool are summed into int64."""
    return torch.int64 if not dtype.is_floating_point and not dtype.is_complex else dtype
