"""Row and whole-tensor sum / max in Triton: the op module the `triton` backend calls.

Canonical inputs (see `comparison.backend`): a 2-D ``(rows, cols)`` tensor with unit
column stride and any row stride, reduced along its rows to ``(rows,)``; or a contiguous
1-D tensor reduced to a 0-dim tensor (``dim=None``). A 0-dim tensor counts as a 1-D one
of one element. Any other tensor gets a reason from `why_unsupported` (and `plan`),
never an exception. The kernels, their thresholds and launch parameters are in
reductions.py; this module picks the kernel, sizes the grid (launch.py) and launches.
"""
from __future__ import annotations

import torch

from . import launch, reductions
from .backend import refuse, unsupported_device, unsupported_dtype

VARIANTS = {op: (*reductions.ROW_KERNELS, *reductions.WHOLE_KERNELS) for op in ("reduce_sum", "reduce_max")}


def _canonical(x: torch.Tensor) -> tuple[torch.Tensor | None, str | None]:
    """(the 2-D rows or 1-D whole-tensor view the kernels take, None), or (None, why not)."""
    if x.dim() == 0:
        return x.view(1), None
    if x.dim() == 1:
        if x.numel() > 1 and x.stride(0) != 1:
            return None, (f"a whole-tensor reduction on backend 'triton' reads a contiguous 1-D "
                          f"tensor; this one has stride {x.stride(0)}")
        return x, None
    if x.dim() == 2:
        x2d = launch.rows_view(x)
        if x2d is None:
            return None, (f"a row reduction on backend 'triton' reads rows of unit column stride; "
                          f"this (rows, cols) tensor has column stride {x.stride(1)}")
        return x2d, None
    return None, (f"backend 'triton' reduces a 2-D (rows, cols) tensor along its rows or a 1-D "
                  f"tensor as a whole; got a {x.dim()}-D tensor of shape {tuple(x.shape)}")


def why_unsupported(x: torch.Tensor, op: str, variant: str, *, offline: bool = False) -> str | None:
    """None when `variant` of `op` serves `x`; else why not. Answers for any tensor.
    `offline`: x stands for a tensor of a GPU that is not here (`plan_offline`)."""
    if op not in VARIANTS:
        return f"kernels_triton.reduce computes {', '.join(VARIANTS)}, not {op!r}"
    if variant != "auto" and variant not in VARIANTS[op]:
        return f"triton has no variant {variant!r} for {op!r} (valid: auto, {', '.join(VARIANTS[op])})"
    why = (None if offline else unsupported_device(x)) or unsupported_dtype(x)
    if why is not None:
        return why
    canonical, why = _canonical(x)
    if why is not None:
        return why
    if variant == "auto":
        return None
    return reductions.why_unsupported(canonical, variant)


def plan(x: torch.Tensor, op: str, variant: str = "auto") -> dict:
    """Which kernel runs on `x` and how: kernel, constexprs, warps, grid (0: an empty
    input, nothing to launch); "unsupported" holds the reason where nothing can run.

    On a GPU this compiles the kernel (once per configuration) to size the persistent
    grid from its register and shared-memory use; the dict then also reports n_regs,
    n_spills, programs_per_sm and what limits them.
    """
    return launch.copy_plan(_cached_plan(x, op, variant))


_PLANS = launch.PlanCache()


def _cached_plan(x: torch.Tensor, op: str, variant: str) -> dict:
    """`plan`, made once per (op, variant, layout of x): see launch.PlanCache."""
    if not isinstance(x, torch.Tensor):
        return _make_plan(x, op, variant)
    return _PLANS.get(lambda: _make_plan(x, op, variant), op, variant, x)


def plan_offline(x: torch.Tensor, op: str, variant: str, target) -> dict:
    """`plan` as on the GPU `target` (an `offline.Target`), which need not be here: `x`
    stands for a tensor of its shape, strides and dtype on it; the kernels (both stages
    of `two_stage`) are compiled for it without a GPU. Not cached."""
    return _make_plan(x, op, variant, target)


def _make_plan(x: torch.Tensor, op: str, variant: str, target=None) -> dict:
    offline = target is not None
    why = why_unsupported(x, op, variant, offline=offline)
    if why is not None:
        return {"op": op, "variant": variant, "kernel": None, "unsupported": why}
    x, _ = _canonical(x)
    kernel = reductions.auto_kernel(x) if variant == "auto" else variant
    kernel_fn = "_partials_kernel+_finish_kernel" if kernel == "two_stage" else f"_rows_{kernel}_kernel"
    out = {"op": op, "variant": variant, "kernel": kernel, "kernel_fn": kernel_fn,
           "shape": tuple(x.shape), "dtype": x.dtype, "unsupported": None}
    if x.numel() == 0:
        out["grid"] = 0
        return out
    target = launch.plan_target(x, target)
    gpu = target is not None
    constexprs, warps, units = reductions.launch_params(x, kernel, interpreted=not gpu)
    constexprs["IS_MAX"] = op == "reduce_max"
    if kernel != "two_stage":  # stage 1 stores fp32 partials: nothing to round
        constexprs["INTERPRETER"] = not gpu
    out.update(constexprs=constexprs, num_warps=warps)
    if kernel == "two_stage":
        units = min(units, reductions.MAX_PARTIALS)
    if gpu:
        limits = target.limits
        res = target.compile(reductions.KERNELS[kernel], reductions.compile_args(x, kernel), constexprs, warps)
        out["grid"] = launch.persistent_grid(units, res.programs_per_sm, limits.sm_count)
        out.update(programs_resident=limits.sm_count * res.programs_per_sm,
                   programs_per_sm=res.programs_per_sm, occupancy_limited_by=res.limited_by,
                   n_regs=res.n_regs, n_spills=res.n_spills, device=x.device.index,
                   bound_launch={})  # launch.launch: the compiled kernels, bound on their first launch
    else:
        out["grid"] = max(1, min(units, reductions.INTERPRETER_PROGRAMS))
    if kernel == "two_stage":
        finish, finish_warps = reductions.finish_params(out["grid"])
        finish.update(IS_MAX=constexprs["IS_MAX"], INTERPRETER=not gpu)
        out.update(finish_constexprs=finish, finish_num_warps=finish_warps)
        if offline:  # on a GPU stage 2 compiles at its first launch
            stage2 = target.compile(reductions.FINISH_KERNEL, reductions.finish_args(x, out["grid"]), finish,
                                    finish_warps)
            out.update(finish_n_regs=stage2.n_regs, finish_n_spills=stage2.n_spills)
    return out


def run(x: torch.Tensor, op: str, variant: str = "auto", out: torch.Tensor | None = None) -> torch.Tensor:
    """`op` ("reduce_sum" / "reduce_max") of `x`: along its rows for a 2-D tensor, of the
    whole tensor for a 1-D (or 0-dim) one. Empty inputs follow torch: sums of nothing are
    0, and the max of an empty row or tensor raises as torch.amax does.

    `out`, when given, is a contiguous tensor of the result's shape and dtype.
    """
    p = _cached_plan(x, op, variant)
    if p["unsupported"] is not None:
        refuse(x, p["unsupported"])
    x, _ = _canonical(x)
    shape = x.shape[:1] if x.dim() == 2 else ()
    if out is None:
        out = torch.empty(shape, dtype=x.dtype, device=x.device)
    elif out.shape != shape or out.dtype != x.dtype or not out.is_contiguous():
        raise ValueError(f"out must be a contiguous {x.dtype} tensor of shape {tuple(shape)}; got "
                         f"{out.dtype} {tuple(out.shape)} with strides {out.stride()}")
    if p["grid"] == 0:  # empty input
        if op == "reduce_max" and x.shape[-1] == 0:
            if x.dim() == 2:
                raise IndexError("amax(): Expected reduction dim 1 to have non-zero size.")
            raise RuntimeError("amax(): Expected reduction dim to be specified for input.numel() == 0.")
        return out.zero_()
    with launch.on_device(x):
        reductions.launch_plan(x, out, p)
    return out
