"""Triton softmax and log-softmax over rows: the op module the `triton` backend calls.

Three kernel families, each for both ops (a constexpr flag) and fp32/fp16/bf16 in and
out with fp32 arithmetic, each in its own file with its launch parameters and the
thresholds that tune it:

* ``fused``  (softmax_fused.py): whole rows in registers, several rows per program for
  narrow widths, wide 16-bit rows as pairs of values per 32-bit word (pairs.py). Reads
  each element once, writes it once. One-shot grid.
* ``online`` (softmax_online.py): a row in tiles, one pass for max and sum with
  rescaling, then the output pass. Reads twice (the second time from L2), any width.
* ``split``  (softmax_split.py): a wide row's chunks in several resident programs that
  exchange (max, sum) through global memory. Reads once, writes once.
* ``auto``: softmax_policy.py picks one from the width, dtype and alignment.

Every kernel honours the input's row stride, offsets rows in 64-bit and follows
``torch.softmax`` on special values: a row containing NaN or +inf, or all -inf, comes
out all NaN; -inf elements of an otherwise finite row give 0 (log-softmax: -inf).

Inputs are rows along the last dimension: a 2-D ``(rows, cols)`` tensor (the canonical
form, see `comparison.backend`), or any tensor whose rows have a view with unit column
stride (1-D: one row; 0-dim: one row of one); the result has the input's shape. Any
other tensor gets a reason from `why_unsupported` (and `plan`), never an exception.
`plan` computes every launch parameter in one place; `run` launches what it returns.
Nothing compiles at import time: kernels compile on first use, and Triton keys its cache
on what changes the code (dtypes, constexprs, pointer and integer alignment).
"""
from __future__ import annotations

import torch

from . import launch, softmax_fused, softmax_online, softmax_policy, softmax_split
from .backend import refuse, unsupported_device, unsupported_dtype

FAMILIES = {"fused": softmax_fused, "online": softmax_online, "split": softmax_split}
VARIANTS = {"softmax": tuple(FAMILIES), "log_softmax": tuple(FAMILIES)}


def why_unsupported(x: torch.Tensor, op: str, variant: str) -> str | None:
    """None when `variant` of `op` serves `x`; else why not. Answers for any tensor;
    `online` and `auto` take any width."""
    if op not in VARIANTS:
        return f"kernels_triton.softmax computes {', '.join(VARIANTS)}, not {op!r}"
    if variant != "auto" and variant not in FAMILIES:
        return f"triton has no variant {variant!r} for {op!r} (valid: auto, {', '.join(FAMILIES)})"
    why = unsupported_device(x) or unsupported_dtype(x)
    if why is not None:
        return why
    x2d = launch.rows_view(x)
    if x2d is None:
        return (f"backend 'triton' reads rows along the last dimension with unit stride; this "
                f"tensor of shape {tuple(x.shape)} and strides {x.stride()} has no such view "
                f"(pass a contiguous copy)")
    if variant == "auto":
        return None
    return FAMILIES[variant].why_unsupported(x2d)


def plan(x: torch.Tensor, op: str, variant: str = "auto") -> dict:
    """The kernel and every launch parameter `run` uses for `op`/`variant` on `x`; grid 0
    for an empty input (nothing to launch); "unsupported" holds the reason where nothing
    can run.

    On a GPU this compiles the kernel (once per configuration) to size the persistent
    grid from its register and shared-memory use; the dict then also reports n_regs,
    n_spills, shared (bytes), programs_per_sm and what limits it.
    """
    why = why_unsupported(x, op, variant)
    if why is not None:
        return {"op": op, "variant": variant, "kernel": None, "unsupported": why}
    x = launch.rows_view(x)
    rows, cols = x.shape
    on_gpu = launch.on_gpu(x)
    limits = launch.device_limits(x.device.index) if on_gpu else None
    sm_count = limits.sm_count if on_gpu else None
    kernel = softmax_policy.auto_kernel(x, sm_count) if variant == "auto" else variant
    family = FAMILIES[kernel]
    out = {"op": op, "variant": variant, "kernel": kernel, "kernel_fn": f"_softmax_{kernel}_kernel",
           "rows": rows, "cols": cols, "dtype": x.dtype, "unsupported": None}
    if x.numel() == 0:
        out["grid"] = 0
        return out
    constexprs, warps, maxnreg, units = family.launch_params(x, sm_count)
    # INTERPRETER: plain Triton instead of inline PTX (pairs.py), bf16 rounded in the
    # fp32 bits (downcast.py).
    constexprs.update(LOG_SOFTMAX=op == "log_softmax", INTERPRETER=not on_gpu)
    out.update(constexprs=constexprs, num_warps=warps, maxnreg=maxnreg)
    row_bytes = cols * x.element_size()
    if not on_gpu:
        # Interpreter: no SMs to fill, one program per unit of work (`split`: a few, so
        # that each loops over rows; SPLIT is 1 there).
        out["grid"] = family.grid(units, row_bytes, constexprs)[0]
        return out
    res = launch.resources(family.KERNEL, family.compile_args(x), constexprs, num_warps=warps,
                           limits=limits, maxnreg=maxnreg)
    if maxnreg and res.n_spills:
        # The cap is a bet on ptxas fitting the tile in it, which depends on its
        # version (Triton 3.6's spills fp16 32768 at 64): spilling is worse than the
        # residency the cap buys, so such a configuration runs uncapped.
        out["maxnreg"] = None
        res = launch.resources(family.KERNEL, family.compile_args(x), constexprs, num_warps=warps,
                               limits=limits, maxnreg=None)
    grid, per_sm = family.grid(units, row_bytes, constexprs, limits, res.programs_per_sm)
    out.update(grid=grid, programs_per_sm=per_sm, occupancy_limited_by=res.limited_by,
               sm_count=limits.sm_count, n_regs=res.n_regs, n_spills=res.n_spills,
               shared=res.shared)
    return out


def launch_plan(x: torch.Tensor, p: dict, out: torch.Tensor | None = None) -> torch.Tensor:
    """Launch the kernel `p` (from `plan`) on `x`, into `out` (a contiguous tensor of x's
    shape and dtype) or a new one; returns it."""
    if out is None:
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    elif out.shape != x.shape or out.dtype != x.dtype or not out.is_contiguous():
        raise ValueError(f"out must be a contiguous {x.dtype} tensor of shape {tuple(x.shape)}; got "
                         f"{out.dtype} {tuple(out.shape)} with strides {out.stride()}")
    if p["grid"]:
        with launch.on_device(x):
            FAMILIES[p["kernel"]].launch_plan(launch.rows_view(x), out.view(p["rows"], p["cols"]), p)
    return out


def run(x: torch.Tensor, op: str, variant: str = "auto", out: torch.Tensor | None = None) -> torch.Tensor:
    """`op` ("softmax" / "log_softmax") along the last dimension of `x`: a new contiguous
    tensor of x's shape and dtype, or `out` filled."""
    p = plan(x, op, variant)
    if p["unsupported"] is not None:
        refuse(x, p["unsupported"])
    return launch_plan(x, p, out)
