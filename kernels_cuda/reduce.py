"""Row and whole-tensor sum / max with the CUDA kernels of csrc/reduce/.

Canonical inputs (see `comparison.backend`): a 2-D ``(rows, cols)`` tensor with unit
column stride and any row stride, reduced to ``(rows,)``; or a contiguous 1-D tensor
reduced to a 0-dim tensor (``dim=None``). fp16/bf16 accumulate in fp32.

Variants (csrc/reduce/variants.def) name how threads combine their partial results
and how they load: ``warp_xor`` (xor butterfly), ``warp_down`` (down tree),
``smem_tree`` (shared-memory tree, no shuffles), ``vectorized`` (pack loads of up to
16 bytes feeding the xor butterfly); ``auto`` runs ``vectorized``.

Every variant serves both forms. The plan (layout, lanes per row, pack width, threads,
grid; csrc/reduce/rows.cuh and whole.cuh) is made in C++ by the launchers themselves:
`run` is one call, `plan` shows what it would launch. The whole-tensor form runs a
fixed grid of blocks that each write one fp32 partial, then one block that reduces the
partials in a fixed order: the same bits every run, no floating-point atomics.
"""
from __future__ import annotations

import functools

import torch

from . import codes
from .build import current_stream, extension

_VARIANTS = codes.read("reduce/variants.def")
VARIANT_NAMES = codes.names_by_code(_VARIANTS["SK_REDUCE_VARIANT"])
OPS = codes.names_by_code(codes.read("reduce/ops.def")["SK_REDUCE_OP"])
VARIANTS = {op: VARIANT_NAMES for op in OPS}
VARIANT_CODES = {name: code for code, name in enumerate(VARIANT_NAMES)} | {"auto": _VARIANTS["SK_REDUCE_AUTO"][0].code}
OP_CODES = {name: code for code, name in enumerate(OPS)}
LAYOUTS = codes.names_by_code(codes.read("reduce/layouts.def")["SK_REDUCE_LAYOUT"])
PLAN_FIELDS = codes.names_by_code(codes.read("reduce/plan_fields.def")["SK_REDUCE_PLAN_FIELD"])
DTYPE_CODES = codes.DTYPE_CODES


@functools.cache
def constants(device: int) -> dict[str, int]:
    """The launch limits by name (csrc/reduce.cu reduce_constants), and WHOLE_MAX_GRID:
    the most fp32 partials the whole-tensor form writes on `device`. Builds the extension."""
    return dict(extension().reduce_constants(device))


def why_unsupported(x: torch.Tensor, op: str, variant: str) -> str | None:
    return None  # every variant serves both forms, any width and any row stride


def _form(x: torch.Tensor) -> tuple[int, int, int, bool]:
    """(rows, cols, row stride, whole): the whole tensor is one row of all its elements."""
    if x.dim() == 2:
        return x.shape[0], x.shape[1], x.stride(0), False
    return 1, x.numel(), x.numel(), True


def plan(x: torch.Tensor, op: str, variant: str = "auto") -> dict:
    """Which kernel runs on `x` and how: variant, form, layout, group, pack width,
    threads, grid, finish_threads (0 where the form has none)."""
    rows, cols, stride, whole = _form(x)
    raw = extension().reduce_plan(x.data_ptr(), rows, cols, stride, whole, DTYPE_CODES[x.dtype],
                                  VARIANT_CODES[variant], x.device.index)
    p = dict(zip(PLAN_FIELDS, raw, strict=True))
    p.update(variant=VARIANT_NAMES[p["variant"]], layout=LAYOUTS[p["layout"]], form="whole" if whole else "rows")
    return p


def run(x: torch.Tensor, op: str, variant: str = "auto", out: torch.Tensor | None = None) -> torch.Tensor:
    """`op` ("reduce_sum" / "reduce_max") of a canonical CUDA tensor with a CUDA variant:
    one call that plans and launches.

    `out`, when given, is a contiguous tensor of the result's shape and dtype.
    """
    ext = extension()
    if out is None:
        out = torch.empty(x.shape[:1] if x.dim() == 2 else (), dtype=x.dtype, device=x.device)
    device = x.device.index
    launch_args = (DTYPE_CODES[x.dtype], OP_CODES[op], VARIANT_CODES[variant], device,
              current_stream(x.device.index))
    rows, cols, stride, whole = _form(x)
    if not whole:
        ext.reduce_rows(x.data_ptr(), out.data_ptr(), rows, cols, stride, *launch_args)
    else:
        # Partials come from torch's caching allocator, on the stream the kernels run on;
        # enough for the largest grid the plan makes on this device.
        partials = torch.empty(constants(device)["WHOLE_MAX_GRID"], dtype=torch.float32, device=x.device)
        ext.reduce_whole(x.data_ptr(), partials.data_ptr(), partials.numel(), out.data_ptr(), cols, *launch_args)
    return out
