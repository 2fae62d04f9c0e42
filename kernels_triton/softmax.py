"""Triton softmax and log-softmax over rows, and their backward: the op module the
`triton` backend calls.

Four kernel families, each for both ops (a constexpr flag) and fp32/fp16/bf16 in and
out with fp32 arithmetic, each in its own file with its launch parameters and the
thresholds that tune it:

* ``fused``  (softmax_fused.py): whole rows in registers, several rows per program for
  narrow widths, wide 16-bit rows as pairs of values per 32-bit word (pairs.py). Reads
  each element once, writes it once. One-shot grid.
* ``online`` (softmax_online.py): a row in tiles, one pass for max and sum with
  rescaling, then the output pass. Reads twice (the second time from L2), any width.
* ``split``  (softmax_split.py): a wide row's chunks in several resident programs that
  exchange (max, sum) through global memory. Reads once, writes once.
* ``split_oneshot`` (softmax_oneshot.py): the same exchange on a one-shot grid, a
  program per chunk of each row, each taking its (row, chunk) by ticket as it starts, so
  that no row waits on the slowest SM; 16-bit rows as pairs, as `fused`'s. Reads once,
  writes once.
* ``auto``: softmax_policy.py picks one from the width, dtype, alignment and op, and the
  GPU's SM count and DRAM bandwidth per SM.

The backward ops (softmax_backward: dx = y * (dy - sum(dy * y)); log_softmax_backward:
dx = dy - exp(y) * sum(dy); `x` is the forward output y, `dy` its gradient) have a
kernel beside each forward family, in the same file: ``fused`` (rows of y and dy in
registers: read each once, write dx once), ``tiled`` (softmax_online.py: pass 1 sums
tile by tile, pass 2 re-reads y and dy, from L2, and writes dx), ``split`` (chunks of
y and dy in resident programs that exchange their part of the sum) and
``split_oneshot`` (the same on the one-shot grid); ``auto``:
softmax_policy.auto_backward_kernel.

Every kernel honours the row strides (y's and dy's apart), offsets rows in 64-bit and
follows torch on special values: a forward row containing NaN or +inf, or all -inf,
comes out all NaN; -inf elements of an otherwise finite row give 0 (log-softmax: -inf);
a backward row with a NaN is NaN, and log-softmax's y = -inf gives dx = dy there.
`fused` and `split` read rows that start off a 16-byte boundary (odd widths) as head,
whole 16-byte vectors and tail where the rows of every tensor they read and write share
their offsets from it (row_edges.py; the plan's `realigned`).

Inputs are rows along the last dimension: a 2-D ``(rows, cols)`` tensor (the canonical
form, see `comparison.backend`), or any tensor whose rows have a view with unit column
stride (1-D: one row; 0-dim: one row of one); the result has the input's shape. Any
other tensor gets a reason from `why_unsupported` (and `plan`), never an exception.
`plan` computes every launch parameter in one place; `run` launches what it returns.
Nothing compiles at import time: kernels compile on first use, and Triton keys its cache
on what changes the code (dtypes, constexprs, pointer and integer alignment).
"""
from __future__ import annotations

import functools

import torch

from . import grad_node, launch, softmax_fused, softmax_online, softmax_oneshot, softmax_policy, softmax_split
from .backend import refuse, unsupported_device, unsupported_dtype

FAMILIES = {"fused": softmax_fused, "online": softmax_online, "split": softmax_split,
            "split_oneshot": softmax_oneshot}
# The backward families, each beside its forward (launch.Family: the same interface).
BACKWARD_FAMILIES = {"fused": softmax_fused.BACKWARD, "tiled": softmax_online.BACKWARD,
                     "split": softmax_split.BACKWARD, "split_oneshot": softmax_oneshot.BACKWARD}
BACKWARD_OPS = ("softmax_backward", "log_softmax_backward")
VARIANTS = {"softmax": tuple(FAMILIES), "log_softmax": tuple(FAMILIES),
            "softmax_backward": tuple(BACKWARD_FAMILIES), "log_softmax_backward": tuple(BACKWARD_FAMILIES)}


def _families(op: str) -> dict:
    return BACKWARD_FAMILIES if op in BACKWARD_OPS else FAMILIES


def why_unsupported(x: torch.Tensor, op: str, variant: str, *, offline: bool = False) -> str | None:
    """None when `variant` of `op` serves `x`; else why not. Answers for any tensor;
    `online`, `tiled` and `auto` take any width. Backward ops: `x` is the forward output
    y, and the answer assumes a dy laid out like it (`plan` with the actual dy checks
    that one too). `offline`: x stands for a tensor of a GPU that is not here
    (`plan_offline`), its device is not asked about."""
    if op not in VARIANTS:
        return f"kernels_triton.softmax computes {', '.join(VARIANTS)}, not {op!r}"
    families = _families(op)
    if variant != "auto" and variant not in families:
        return f"triton has no variant {variant!r} for {op!r} (valid: auto, {', '.join(families)})"
    why = (None if offline else unsupported_device(x)) or unsupported_dtype(x)
    if why is not None:
        return why
    x2d = launch.rows_view(x)
    if x2d is None:
        return _no_rows_view(x, "this tensor")
    if variant == "auto":
        return None
    if op in BACKWARD_OPS:
        return families[variant].why_unsupported(x2d, x2d)
    return families[variant].why_unsupported(x2d)


def _no_rows_view(x: torch.Tensor, what: str) -> str:
    return (f"backend 'triton' reads rows along the last dimension with unit stride; {what} "
            f"of shape {tuple(x.shape)} and strides {x.stride()} has no such view "
            f"(pass a contiguous copy)")


def _dy_reason(y: torch.Tensor, dy, op: str, variant: str) -> str | None:
    """None when `dy` can go with the forward output `y` to `variant` of backward `op`;
    else why not (y itself already passed `why_unsupported`)."""
    if not isinstance(dy, torch.Tensor):
        return f"{op} needs dy, the gradient of the forward output, as a tensor; got {type(dy).__name__}"
    if dy.shape != y.shape or dy.dtype != y.dtype or dy.device != y.device:
        return (f"{op} needs dy of y's shape, dtype and device: y is {y.dtype} {tuple(y.shape)} on "
                f"{y.device}, dy is {dy.dtype} {tuple(dy.shape)} on {dy.device}")
    dy2d = launch.rows_view(dy)
    if dy2d is None:
        return _no_rows_view(dy, "dy")
    if variant == "auto":
        return None
    return BACKWARD_FAMILIES[variant].why_unsupported(launch.rows_view(y), dy2d)


_PLANS = launch.PlanCache()


def plan(x: torch.Tensor, op: str, variant: str = "auto", dy: torch.Tensor | None = None) -> dict:
    """The kernel and every launch parameter `run` uses for `op`/`variant` on `x` (backward
    ops: x is y, with its gradient `dy`; left out, a dy laid out like y is assumed); grid
    0 for an empty input (nothing to launch); "unsupported" holds the reason where
    nothing can run.

    On a GPU this compiles the kernel (once per configuration) to size the persistent
    grid from its register and shared-memory use; the dict then also reports n_regs,
    n_spills, shared (bytes), programs_per_sm and what limits it.
    """
    return launch.copy_plan(_cached_plan(x, op, variant, dy))


def _cached_plan(x: torch.Tensor, op: str, variant: str, dy) -> dict:
    """`plan`, made once per (op, variant, layouts of x and dy): see launch.PlanCache."""
    if not isinstance(x, torch.Tensor) or not (dy is None or isinstance(dy, torch.Tensor)):
        return _make_plan(x, op, variant, dy)
    tensors = (x,) if dy is None else (x, dy)
    return _PLANS.get(lambda: _make_plan(x, op, variant, dy), op, variant, *tensors)


def plan_offline(x: torch.Tensor, op: str, variant: str, dy: torch.Tensor | None, target) -> dict:
    """`plan` as on the GPU `target` (an `offline.Target`), which need not be here: `x`
    (and `dy`) stand for tensors of their shape, strides and dtype on it, and the kernels
    are compiled for it without a GPU. Not cached."""
    return _make_plan(x, op, variant, dy, target)


def _make_plan(x: torch.Tensor, op: str, variant: str, dy: torch.Tensor | None, target=None) -> dict:
    backward = op in BACKWARD_OPS
    why = why_unsupported(x, op, variant, offline=target is not None)
    if why is None and backward and dy is not None:
        why = _dy_reason(x, dy, op, variant)
    if why is not None:
        return {"op": op, "variant": variant, "kernel": None, "unsupported": why}
    x = launch.rows_view(x)
    # The tensors the family takes: x, or y and dy.
    tensors = (x, x if dy is None else launch.rows_view(dy)) if backward else (x,)
    rows, cols = x.shape
    target = launch.plan_target(x, target)
    on_gpu = target is not None
    limits = target.limits if on_gpu else None
    if variant != "auto":
        kernel = variant
    elif backward:
        kernel = softmax_policy.auto_backward_kernel(*tensors, limits, op.removesuffix("_backward"))
    else:
        kernel = softmax_policy.auto_kernel(x, limits, op)
    family = _families(op)[kernel]
    out = {"op": op, "variant": variant, "kernel": kernel, "kernel_fn": family.KERNEL.fn.__name__,
           "rows": rows, "cols": cols, "dtype": x.dtype, "unsupported": None}
    if x.numel() == 0:
        out["grid"] = 0
        return out
    constexprs, warps, maxnreg, units = family.launch_params(*tensors, limits, op.removesuffix("_backward"))
    # INTERPRETER: plain Triton instead of inline PTX (pairs.py), bf16 rounded in the
    # fp32 bits (downcast.py).
    constexprs.update(LOG_SOFTMAX=op in ("log_softmax", "log_softmax_backward"), INTERPRETER=not on_gpu)
    elem = x.element_size()
    forms = _forms(family, constexprs, elem, limits)
    first, first_warps = _form_warps(forms[0], warps)
    # realigned: rows read as head, whole 16-byte vectors and tail (row_edges.py), as the
    # CUDA plans' field of that name.
    out.update(constexprs=first, num_warps=first_warps, maxnreg=maxnreg, realigned=bool(first.get("EDGES")))
    # The bytes of a row that a second pass re-reads (`online`, `tiled`: the L2 budget):
    # the row; the backward's rows of y and dy (log-softmax: its first pass reads dy alone).
    row_bytes = cols * elem * (2 if op == "softmax_backward" else 1)
    if not on_gpu:
        # Interpreter: no SMs to fill, one program per unit of work (`split`: a few, so
        # that each loops over rows; SPLIT is 1 there).
        out["grid"] = family.grid(units, row_bytes, first)[0]
        return out
    build = functools.partial(target.compile, family.KERNEL, family.compile_args(*tensors))
    held_forms = getattr(family, "held_forms", None)

    def choose(forms: list[dict], warps: int) -> tuple:
        chosen = _best_form(build, family, forms, warps, maxnreg)
        if held_forms is not None:
            # split's REREAD form would pend more of each row between its two reads than
            # this GPU's L2 keeps: the forms that hold their chunks in registers instead.
            grid = family.grid(units, row_bytes, chosen[0], limits, chosen[1].programs_per_sm)[0]
            held = held_forms(chosen[0], grid, limits, elem)
            if held:
                chosen = _best_form(build, family, held, warps, maxnreg)
        return chosen

    constexprs, res, out["num_warps"], out["maxnreg"] = choose(forms, warps)
    regroup = getattr(family, "regroup", None)
    while regroup is not None and (wider := regroup(constexprs, warps, res.programs_per_sm * limits.sm_count)):
        # A group of programs that wait for each other must all be resident: where the
        # compiled kernel does not hold one, fewer and wider chunks (split), over warps
        # scaled from the geometry's own (before any respread).
        base, warps = wider
        constexprs, res, out["num_warps"], out["maxnreg"] = choose(_forms(family, base, elem, limits), warps)
    grid, per_sm = family.grid(units, row_bytes, constexprs, limits, res.programs_per_sm)
    out["constexprs"] = constexprs
    out.update(grid=grid, programs_per_sm=per_sm, occupancy_limited_by=res.limited_by,
               sm_count=limits.sm_count, n_regs=res.n_regs, n_spills=res.n_spills,
               shared=res.shared, device=x.device.index,
               bound_launch={})  # launch.launch: the compiled kernels, bound on their first launch
    return out


def _forms(family, constexprs: dict, elem: int, limits: launch.DeviceLimits | None) -> list[dict]:
    """The forms of a family's kernel to compile for `elem`-byte values on the GPU of
    `limits` (None: the interpreter) (split: where the next row's loads go, whose speed
    follows what ptxas makes of each, and whether chunks are read twice), the one kept
    at a tie first. A form may name its own `num_warps` (`_form_warps`)."""
    forms = getattr(family, "forms", None)
    return forms(constexprs, elem, limits) if forms is not None else [constexprs]


def _form_warps(form: dict, warps: int) -> tuple[dict, int]:
    """(constexprs, warps) of a form: its own `num_warps` where it names one (split's
    aligned REREAD backward: 16-bit chunks at more values a thread than the plan's other
    forms), else `warps`."""
    if "num_warps" not in form:
        return form, warps
    constexprs = dict(form)
    return constexprs, constexprs.pop("num_warps")


def _best_form(build, family, forms: list[dict], warps: int, maxnreg: int | tuple | None) -> tuple:
    """(constexprs, resources, warps, register cap) of the form that holds the most
    programs per SM, or as many and spills least (spilling past what split tolerates
    loses to any residency); the first at a tie."""
    split = [_form_warps(form, warps) for form in forms]
    compiled = [_compile_form(build, family, form, form_warps, maxnreg) for form, form_warps in split]
    best = max(range(len(forms)), key=lambda i: (_form_rank(compiled[i][0]), -i))
    return (split[best][0], *compiled[best])


def _compile_form(build, family, constexprs: dict, warps: int, maxnreg: int | tuple | None) -> tuple:
    """(resources, warps, register cap) of the kernel compiled at `constexprs` by
    `build`: at `warps` under the cap `maxnreg` (a tuple: the first of those caps that
    does not spill), uncapped where the caps spill, over more warps where the family's
    geometry spills (`respread`)."""
    for maxnreg in (maxnreg if isinstance(maxnreg, tuple) else (maxnreg,)):
        res = build(constexprs, warps, maxnreg)
        if not (maxnreg and res.n_spills):
            break
    else:
        # A cap is a bet on ptxas fitting the tile in it, which depends on its version
        # (Triton 3.6's spills fp16 32768 at 64): spilling is worse than the residency
        # the cap buys, so such a configuration runs uncapped.
        maxnreg = None
        res = build(constexprs, warps, None)
    respread = getattr(family, "respread", None)
    while respread is not None and (more := respread(warps, res.n_spills, constexprs)):
        # The family's geometry is a bet on ptxas too (split: values per thread near the
        # register limit): where it spilled, the same work over more warps.
        warps = more
        res = build(constexprs, warps, maxnreg)
    return res, warps, maxnreg


def _form_rank(res: launch.CompiledResources) -> tuple:
    """How `plan` ranks two compiled forms of a kernel: spills within
    SPLIT_SPILL_BYTES_TOLERATED first, then programs per SM, then fewer bytes spilled."""
    return res.n_spills <= softmax_split.SPLIT_SPILL_BYTES_TOLERATED, res.programs_per_sm, -res.n_spills


def launch_plan(x: torch.Tensor, p: dict, out: torch.Tensor | None = None,
                dy: torch.Tensor | None = None) -> torch.Tensor:
    """Launch the kernel `p` (from `plan`) on `x` (backward ops: y, with `dy`), into `out`
    (a contiguous tensor of x's shape and dtype) or a new one; returns it."""
    fresh = out is None
    if fresh:
        # (empty_like: a third of the host time of torch.empty(shape, dtype=, device=))
        out = torch.empty_like(x, memory_format=torch.contiguous_format)
    elif out.shape != x.shape or out.dtype != x.dtype or not out.is_contiguous():
        raise ValueError(f"out must be a contiguous {x.dtype} tensor of shape {tuple(x.shape)}; got "
                         f"{out.dtype} {tuple(out.shape)} with strides {out.stride()}")
    if not p["grid"]:
        return out
    if (dy is None) == (p["op"] in BACKWARD_OPS):
        raise ValueError(f"{p['op']}: dy must be given for backward ops and only for them")
    target = out
    if p["constexprs"].get("PAIRS") and out.data_ptr() % 4:
        # Paired tiles store 32-bit words: an output 2 bytes off a word gets a fresh one.
        target = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    rows_out = target if target.dim() == 2 else target.view(p["rows"], p["cols"])
    x2d = x if x.dim() == 2 else launch.rows_view(x)
    with launch.on_device(x):
        if dy is not None:
            BACKWARD_FAMILIES[p["kernel"]].launch_plan(x2d, launch.rows_view(dy), rows_out, p)
        else:
            FAMILIES[p["kernel"]].launch_plan(x2d, rows_out, p)
    if fresh and "direct" not in p and p.get("bound_launch") and p["kernel"] in DIRECT_KERNELS:
        # Later calls of this plan with a fresh output launch straight away (`run`).
        n_tensors = 3 if dy is not None else 2
        p["direct"] = (softmax_split.direct_launcher(p, n_tensors) if p["kernel"] == "split"
                       else launch.tensors_only_launcher(p, n_tensors))
    return target if target is out else out.copy_(target)


# The families whose launch takes only the row tensors (x, y; or y, dy, dx) besides the
# plan's scalars; `split`'s also takes the exchange buffer of its device and stream.
DIRECT_KERNELS = ("fused", "online", "tiled", "split")


def run(x: torch.Tensor, op: str, variant: str = "auto", out: torch.Tensor | None = None,
        dy: torch.Tensor | None = None) -> torch.Tensor:
    """`op` along the last dimension of `x`: a new contiguous tensor of x's shape and
    dtype, or `out` filled. Backward ops take the forward output as `x` and its gradient
    as `dy` (dx = the result); the forward ops take no `dy`."""
    p = _cached_plan(x, op, variant, dy)
    direct = p.get("direct")
    if direct is not None and out is None and (dy is None) != (op in BACKWARD_OPS) and (
            x.device.index == launch.current_device()):
        # The plan has launched before: its kernel, grid and scalars are bound. (A
        # contiguous x's own format is the contiguous one, and the format argument's
        # parsing costs a fifth of empty_like's host time.)
        out = torch.empty_like(x) if x.is_contiguous() else torch.empty_like(x, memory_format=torch.contiguous_format)
        if dy is None:
            direct(x, out)
        else:
            direct(x, dy, out)
        return out
    if p["unsupported"] is not None:
        refuse(x, p["unsupported"])
    if (dy is None) == (op in BACKWARD_OPS):
        raise ValueError(f"{op}: dy must be given for backward ops and only for them")
    return launch_plan(x, p, out, dy)


def grad_runner(op: str, variant: str):
    """``runner(x)``: `run` of a forward op whose result records its gradient through the
    C++ node of grad_node.py (it saves y; its backward runs the backward op's `auto` on
    dy), so an eager training step never enters Python's autograd.Function; None for the
    backward ops, or where that node cannot be built."""
    if op in BACKWARD_OPS:
        return None
    backward_op = "log_softmax_backward" if op == "log_softmax" else "softmax_backward"

    def backward(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
        return run(y, backward_op, "auto", dy=dy)
    attach = grad_node.backward_attacher(
        backward, f"Triton{op.title().replace('_', '')}Backward",
        f"the gradient of {op} on the triton backend cannot be differentiated again (no double backward): "
        f"use backend=\"torch\" for that")
    if attach is None:
        return None

    def run_forward(x: torch.Tensor) -> torch.Tensor:
        return attach(x, run(x, op, variant))
    return run_forward

