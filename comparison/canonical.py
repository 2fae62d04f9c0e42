"""The canonical forms a backend computes on, made from any user tensor.

* Row ops (``softmax``, ``log_softmax`` and their backward ops, reductions along dims):
  a 2-D ``(rows, cols)`` tensor whose last dimension has stride 1; the row stride may be
  anything, so offset and sliced views reach the kernels without a copy.
* Whole-tensor reductions: a contiguous 1-D tensor.
"""
from __future__ import annotations

import torch


def normalize_dim(dim: int, ndim: int) -> int:
    """`dim` in [0, rank), checked like torch (a 0-dim tensor accepts 0 and -1)."""
    rank = max(ndim, 1)
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TypeError(f"dim must be an int, got {type(dim).__name__}")
    if not -rank <= dim < rank:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but got {dim})")
    return dim % rank


def normalize_dims(dim, ndim: int) -> tuple[int, ...]:
    """Reduction dims as torch.sum takes them: None or an empty tuple/list for every
    dimension, an int, or a tuple/list of distinct ints; sorted, normalised."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, (tuple, list)):
        dims = tuple(normalize_dim(d, ndim) for d in dim)
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"dim {tuple(dim)} appears multiple times in the list of dims")
        if not dims:
            return tuple(range(ndim))
        return tuple(sorted(dims)) if ndim else ()
    d = normalize_dim(dim, ndim)
    return (d,) if ndim else ()


def rows_view(x: torch.Tensor, dim: int) -> torch.Tensor:
    """x as (rows, cols) along `dim` (normalised), a view when the layout allows, else a copy."""
    if x.dim() == 0:
        return x.reshape(1, 1)
    if x.dim() == 2 and dim == 1 and (x.stride(1) == 1 or x.shape[1] <= 1):
        return x  # already canonical: the common case, with no view to make
    cols = x.shape[dim]
    moved = x.movedim(dim, -1) if dim != x.dim() - 1 else x
    rows2d = moved.reshape(_count(moved.shape[:-1]), cols)
    if rows2d.stride(-1) != 1 and rows2d.shape[1] > 1:
        rows2d = rows2d.contiguous()
    return rows2d


def from_rows(y2d: torch.Tensor, like: torch.Tensor, dim: int) -> torch.Tensor:
    """The inverse of `rows_view` for an output of the same shape as `like`: a contiguous
    tensor laid out like torch.softmax's result."""
    if like.dim() == 0:
        return y2d.reshape(())
    if like.dim() == 2 and dim == 1:
        return y2d
    if dim == like.dim() - 1:
        return y2d.reshape(like.shape)
    moved_shape = like.movedim(dim, -1).shape
    return y2d.reshape(moved_shape).movedim(-1, dim).contiguous()


def reduce_view(x: torch.Tensor, dims: tuple[int, ...]) -> torch.Tensor:
    """x with the normalised `dims` reduced as the columns of a (rows, cols) tensor, or as a
    contiguous 1-D tensor when every dimension is reduced (the whole-tensor form)."""
    if x.dim() == 0 or len(dims) == x.dim():
        return x.reshape(-1).contiguous()
    if len(dims) == 1:
        return rows_view(x, dims[0])
    kept = [d for d in range(x.dim()) if d not in dims]
    rows2d = x.permute(*kept, *dims).reshape(_count(x.shape[d] for d in kept), _count(x.shape[d] for d in dims))
    if rows2d.stride(-1) != 1 and rows2d.shape[1] > 1:
        rows2d = rows2d.contiguous()
    return rows2d


def _count(sizes) -> int:
    n = 1
    for s in sizes:
        n *= s
    return n
