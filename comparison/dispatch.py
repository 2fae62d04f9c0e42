"""From a user's tensor to a backend's canonical call: argument checks, the (rows, cols)
view, and the choice of backend.

Every public operation in `comparison.api` goes through these steps; a backend then only
ever sees canonical tensors (see `comparison.backend`).
"""
from __future__ import annotations

import torch

from .backend import Backend
from .registry import get_backend, list_backends


def normalize_dim(dim: int, ndim: int) -> int:
    """`dim` in [0, rank), checked like torch (a 0-dim tensor accepts 0 and -1)."""
    rank = max(ndim, 1)
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TypeError(f"dim must be an int, got {type(dim).__name__}")
    if not -rank <= dim < rank:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but got {dim})")
    return dim % rank


def check_tensor(x, name: str = "input") -> torch.Tensor:
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor, got {type(x).__name__}")
    return x


def resolve_backend(backend: str, x: torch.Tensor, op: str, variant: str) -> Backend:
    """The backend that will run `op` on `x`; explicit names are checked, "auto" searched."""
    if not isinstance(backend, str):
        raise TypeError(f"backend must be a string, got {type(backend).__name__}")
    if backend != "auto":
        chosen = get_backend(backend)
        chosen.check_variant(op, variant)
        return chosen
    if variant != "auto":
        raise ValueError(f"variant={variant!r} names one backend's kernel: pass backend= as well")
    if x.device.type != "cuda":
        # Off the GPU only torch is fast; Triton's CPU interpreter is for testing.
        return get_backend("torch")
    # Registry order is fastest first (see benchmarks/); torch serves whatever is left.
    for name in list_backends():
        candidate = get_backend(name)
        if candidate.supports(x, op, "auto"):
            return candidate
    return get_backend("torch")


def rows_view(x: torch.Tensor, dim: int) -> torch.Tensor:
    """x as (rows, cols) along `dim`, a view when the layout allows (no copy), else a copy."""
    cols = x.shape[dim] if x.dim() else 1
    moved = x.movedim(dim, -1) if x.dim() else x.reshape(1)
    rows2d = moved.reshape(-1, cols)
    if rows2d.stride(-1) != 1 and cols > 1:
        rows2d = rows2d.contiguous()
    return rows2d


def run_canonical(backend: Backend, x2d: torch.Tensor, op: str, variant: str) -> torch.Tensor:
    """`backend.run` after its `supports` answer, raising that answer's error if it is no."""
    backend.supports(x2d, op, variant).raise_if_unsupported()
    return backend.run(x2d, op, variant)
