"""Row and whole-tensor sum / max in Triton: the kernels, their launch plan, the launcher.

Canonical inputs (see `comparison.backend`): a 2-D ``(rows, cols)`` tensor with unit
column stride and any row stride, reduced along its rows to ``(rows,)``; or a contiguous
1-D tensor reduced to a 0-dim tensor (``dim=None``). fp16/bf16 accumulate in fp32 and
are stored in their own dtype. Max propagates NaN like ``torch.amax`` (``tl.max`` does
not: it lowers to maxnum, which drops NaN), so every max goes through `_max_nan`.

Variants, each one kernel below; every one reads the input once (N elements):

* ``block``     (2-D) a program reduces BLOCK_M whole rows held in registers as one
                ``[BLOCK_M, BLOCK_N]`` tile; narrow rows are packed many per program.
                Writes one value per row. Rows up to BLOCK_MAX_COLS wide.
* ``tiled``     (2-D) a program walks one row in TILE_N-wide tiles, adding (or max-ing)
                each tile into a TILE_N-wide fp32 accumulator, and reduces across lanes
                once after the loop. Any width; registers do not grow with it.
* ``two_stage`` (1-D) stage 1: a fixed grid of P programs strides over the tensor and
                writes P fp32 partials; stage 2: one program reduces the partials in a
                fixed order. No atomics: the same bits every run on the same device.

The launch plan (variant choice, tile sizes, warps, grid) lives in `plan`, with every
threshold named below. Nothing here touches a GPU or compiles before the first call.
"""
from __future__ import annotations

import contextlib

import torch
import triton
import triton.language as tl

from . import launch
from .backend import interpreting

VARIANTS = {
    "reduce_sum": ("block", "tiled", "two_stage"),
    "reduce_max": ("block", "tiled", "two_stage"),
}
ROW_VARIANTS = ("block", "tiled")
WHOLE_VARIANTS = ("two_stage",)

# -- launch thresholds ----------------------------------------------------------------
# `block` loads a whole row as one fully unrolled tile: at this width 32 values per
# thread at the largest block Triton launches (32 warps = 1024 threads, 64 registers
# each). ptxas (sm_90, Triton 3.9) reports 24-44 registers and no spills here, aligned
# or not, since the sum folds values as they arrive; wider rows would only unroll
# further, and `tiled` streams them with a fixed tile. Same cap as Triton's fused softmax.
BLOCK_MAX_COLS = 32768
# `auto` switches from `block` to `tiled` above this width. Up to 8192 a row fits in
# 16 warps at 16 fp32 values per thread (four 16-byte loads in flight each); wider rows
# need 32-warp programs, of which an SM holds at most two, while `tiled` streams any
# width with 8-warp programs and a fixed 4096-wide accumulator. (Not yet tuned on a
# GPU: benchmarks/ should confirm where the two cross.)
AUTO_BLOCK_MAX_COLS = 8192
# Values each thread holds per tile: 16 fp32 = four 16-byte loads in flight per thread,
# enough to cover DRAM latency without pressing on registers.
VALUES_PER_THREAD = 16
MAX_WARPS = 32
# Narrow rows are packed until a `block` tile holds this many elements (then 8 warps).
BLOCK_TILE_ELEMENTS = 4096
# `tiled` and stage 1 of `two_stage` stream tiles of this many elements (8 warps).
STREAM_TILE = 4096
# Stage 2 of `two_stage` reduces all partials in one tile; the grid never exceeds this.
MAX_PARTIALS = 2048
# Persistent grids launch as many programs as stay resident (from the compiled kernel's
# registers and shared memory, see kernels_triton/launch.py). Under the interpreter, a
# few programs: each one then walks several tiles, so CI runs the grid-stride loops
# that the GPU's persistent grids rely on.
INTERPRETER_PROGRAMS = 4


# -- kernels --------------------------------------------------------------------------

@triton.jit
def _max_nan(a, b):
    # maximumf, not maxnum: a NaN on either side wins, like torch.amax.
    return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)


@triton.jit
def _load_f32(ptrs, mask, IS_MAX: tl.constexpr):
    # Lanes past the end read the op's identity: -inf for max, 0 for sum.
    if IS_MAX:
        x = tl.load(ptrs, mask=mask, other=float("-inf"))
    else:
        x = tl.load(ptrs, mask=mask, other=0.0)
    return x.to(tl.float32)


@triton.jit
def _combine(acc, x, IS_MAX: tl.constexpr):
    # Elementwise: one accumulator lane per tile lane, no cross-lane traffic.
    if IS_MAX:
        r = _max_nan(acc, x)
    else:
        r = acc + x
    return r


@triton.jit
def _reduce(x, axis: tl.constexpr, IS_MAX: tl.constexpr):
    # Across lanes (shuffles, then shared memory across warps).
    if IS_MAX:
        r = tl.reduce(x, axis, _max_nan)
    else:
        r = tl.sum(x, axis)
    return r


@triton.jit
def _identity_vector(N: tl.constexpr, IS_MAX: tl.constexpr):
    if IS_MAX:
        r = tl.full([N], float("-inf"), tl.float32)
    else:
        r = tl.zeros([N], tl.float32)
    return r


@triton.jit
def _rows_block_kernel(x_ptr, out_ptr, n_rows, n_cols, stride_row,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, IS_MAX: tl.constexpr):
    # Grid: persistent, each program walks row tiles pid, pid + nprog, ...
    # Per tile: read BLOCK_M rows (cols elements each), write BLOCK_M values.
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_N)
    col_mask = cols < n_cols
    for tile in range(pid, tl.cdiv(n_rows, BLOCK_M), nprog):
        rows = tl.cast(tile, tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
        row_mask = rows < n_rows
        ptrs = x_ptr + rows[:, None] * stride_row + cols[None, :]
        x = _load_f32(ptrs, row_mask[:, None] & col_mask[None, :], IS_MAX)
        r = _reduce(x, 1, IS_MAX)
        tl.store(out_ptr + rows, r.to(out_ptr.dtype.element_ty), mask=row_mask)


@triton.jit
def _rows_tiled_kernel(x_ptr, out_ptr, n_rows, n_cols, stride_row,
                       TILE_N: tl.constexpr, IS_MAX: tl.constexpr):
    # Grid: persistent, one row at a time per program.
    # Per row: read cols elements in TILE_N steps, write one value.
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, TILE_N)
    n_full = (n_cols // TILE_N) * TILE_N
    for row in range(pid, n_rows, nprog):
        row_ptr = x_ptr + tl.cast(row, tl.int64) * stride_row
        acc = _identity_vector(TILE_N, IS_MAX)
        # Full tiles without a mask: a mask on a width not divisible by 16 would make
        # Triton fall back to scalar loads even on aligned rows.
        for start in range(0, n_full, TILE_N):
            x = tl.load(row_ptr + start + lanes).to(tl.float32)
            acc = _combine(acc, x, IS_MAX)
        if n_full < n_cols:
            offs = n_full + lanes
            acc = _combine(acc, _load_f32(row_ptr + offs, offs < n_cols, IS_MAX), IS_MAX)
        r = _reduce(acc, 0, IS_MAX)
        tl.store(out_ptr + row, r.to(out_ptr.dtype.element_ty))


@triton.jit
def _partials_kernel(x_ptr, partial_ptr, n, BLOCK: tl.constexpr, IS_MAX: tl.constexpr):
    # Stage 1. Grid: P programs (fixed for a device and n); program p reduces tiles
    # p, p + P, ... into one fp32 partial. Reads n elements in all, writes P partials.
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK)
    acc = _identity_vector(BLOCK, IS_MAX)
    for tile in range(pid, tl.cdiv(n, BLOCK), nprog):
        offs = tl.cast(tile, tl.int64) * BLOCK + lanes
        acc = _combine(acc, _load_f32(x_ptr + offs, offs < n, IS_MAX), IS_MAX)
    tl.store(partial_ptr + pid, _reduce(acc, 0, IS_MAX))


@triton.jit
def _finish_kernel(partial_ptr, out_ptr, n_partials, BLOCK_P: tl.constexpr, IS_MAX: tl.constexpr):
    # Stage 2. Grid: one program; reads the P partials, writes one value. The reduction
    # tree is fixed by BLOCK_P and num_warps, so the order never changes between runs.
    offs = tl.arange(0, BLOCK_P)
    p = _load_f32(partial_ptr + offs, offs < n_partials, IS_MAX)
    tl.store(out_ptr, _reduce(p, 0, IS_MAX).to(out_ptr.dtype.element_ty))


# -- launch plan ------------------------------------------------------------------------

# launch.CompiledResources per compiled configuration: measured once per process.
_RESOURCES: dict[tuple, launch.CompiledResources] = {}


def _resident_programs(kernel, args: tuple, constexprs: dict, num_warps: int, x: torch.Tensor) -> dict:
    """Programs of `kernel` that stay resident on x's GPU (all SMs), from its compiled
    register and shared-memory use, with what limits them; compiled once per config."""
    limits = launch.device_limits(x.device.index)
    ints = [a for a in args if isinstance(a, int)]
    # What Triton specialises a binary on besides dtypes and constexprs.
    key = (limits.index, kernel.fn.__name__, x.dtype, x.data_ptr() % 16 == 0,
           tuple((n % 16 == 0, n == 1) for n in ints), tuple(sorted(constexprs.items())), num_warps)
    res = _RESOURCES.get(key)
    if res is None:
        with torch.cuda.device(limits.index):
            res = launch.compiled_resources(kernel, args, num_warps=num_warps, limits=limits, **constexprs)
        _RESOURCES[key] = res
    return {"programs_resident": limits.sm_count * res.programs_per_sm, "programs_per_sm": res.programs_per_sm,
            "occupancy_limited_by": res.limited_by, "n_regs": res.n_regs, "n_spills": res.n_spills}


def _launch_grid(kernel, args: tuple, constexprs: dict, num_warps: int, units: int, x: torch.Tensor,
                 cap: int | None = None) -> dict:
    """{"grid": programs, ...}: persistent on the GPU (each program loops over `units`),
    INTERPRETER_PROGRAMS under the interpreter; never more than `units` or `cap`."""
    if x.device.type == "cuda" and not interpreting():
        info = _resident_programs(kernel, args, constexprs, num_warps, x)
        resident = info["programs_resident"]
    else:
        info, resident = {}, INTERPRETER_PROGRAMS
    if cap is not None:
        resident = min(resident, cap)
    return {"grid": max(1, min(units, resident)), **info}


def _warps_for(elements: int) -> int:
    """Warps for a tile of `elements` values: VALUES_PER_THREAD each, 1 to MAX_WARPS."""
    return max(1, min(MAX_WARPS, triton.next_power_of_2(elements) // (32 * VALUES_PER_THREAD)))


def _form(x: torch.Tensor) -> str:
    return "rows" if x.dim() == 2 else "whole"


def resolve_variant(x: torch.Tensor, variant: str) -> str:
    """The variant `auto` stands for on `x`: `two_stage` for dim=None; `block` for rows
    up to AUTO_BLOCK_MAX_COLS wide, `tiled` beyond."""
    if variant != "auto":
        return variant
    if _form(x) == "whole":
        return "two_stage"
    return "block" if x.shape[1] <= AUTO_BLOCK_MAX_COLS else "tiled"


def why_unsupported(x: torch.Tensor, op: str, variant: str) -> str | None:
    if variant == "auto":
        return None
    if _form(x) == "whole" and variant in ROW_VARIANTS:
        return (f"triton variant {variant!r} reduces rows (reduce along a dim); the whole-tensor "
                f"reduction (dim=None) needs {', '.join(repr(v) for v in WHOLE_VARIANTS)} or 'auto'")
    if _form(x) == "rows" and variant in WHOLE_VARIANTS:
        return (f"triton variant {variant!r} reduces the whole tensor (dim=None); a reduction along "
                f"a dim needs {', '.join(repr(v) for v in ROW_VARIANTS)} or 'auto'")
    if variant == "block" and x.shape[1] > BLOCK_MAX_COLS:
        return (f"triton variant 'block' holds a whole row in registers, at most {BLOCK_MAX_COLS} "
                f"columns; this row has {x.shape[1]} (use 'tiled')")
    return None


def _out_stand_in(x: torch.Tensor) -> torch.Tensor:
    # Compiling for occupancy needs an output argument; only its dtype and 16-byte
    # alignment matter (nothing is launched), and `run` allocates aligned outputs.
    return torch.empty(16, dtype=x.dtype, device=x.device)


def plan(x: torch.Tensor, op: str, variant: str = "auto") -> dict:
    """Which kernel runs on `x` and how: variant, kernel name, tile sizes, warps, grid.

    On a GPU this compiles the kernel (once per configuration) to size the persistent
    grid from its register and shared-memory use; the dict then also reports n_regs,
    n_spills, programs_per_sm and what limits them.
    """
    variant = resolve_variant(x, variant)
    why = why_unsupported(x, op, variant)
    if why is not None:
        raise ValueError(why)
    is_max = op == "reduce_max"
    if variant == "block":
        rows, cols = x.shape
        block_n = triton.next_power_of_2(cols)
        # BLOCK_M depends on the width only (not on `rows`): one compiled kernel per
        # width and dtype; masked rows of a short last tile cost no memory traffic.
        block_m = max(1, BLOCK_TILE_ELEMENTS // block_n)
        warps = _warps_for(block_m * block_n)
        constexprs = {"BLOCK_M": block_m, "BLOCK_N": block_n, "IS_MAX": is_max}
        args = (x, _out_stand_in(x), rows, cols, x.stride(0))
        return {"variant": variant, "kernel": "_rows_block_kernel", **constexprs, "num_warps": warps,
                **_launch_grid(_rows_block_kernel, args, constexprs, warps, triton.cdiv(rows, block_m), x)}
    if variant == "tiled":
        rows, cols = x.shape
        tile_n = min(triton.next_power_of_2(cols), STREAM_TILE)
        warps = _warps_for(tile_n)
        constexprs = {"TILE_N": tile_n, "IS_MAX": is_max}
        args = (x, _out_stand_in(x), rows, cols, x.stride(0))
        return {"variant": variant, "kernel": "_rows_tiled_kernel", **constexprs, "num_warps": warps,
                **_launch_grid(_rows_tiled_kernel, args, constexprs, warps, rows, x)}
    n = x.numel()
    block = min(triton.next_power_of_2(n), STREAM_TILE)
    warps = _warps_for(block)
    constexprs = {"BLOCK": block, "IS_MAX": is_max}
    args = (x, torch.empty(16, dtype=torch.float32, device=x.device), n)
    out = {"variant": variant, "kernel": "_partials_kernel+_finish_kernel", **constexprs, "num_warps": warps,
           **_launch_grid(_partials_kernel, args, constexprs, warps, triton.cdiv(n, block), x, cap=MAX_PARTIALS)}
    out["BLOCK_P"] = triton.next_power_of_2(out["grid"])
    out["finish_num_warps"] = _warps_for(out["BLOCK_P"])
    return out


# -- launcher ---------------------------------------------------------------------------

def _device_guard(x: torch.Tensor):
    # Triton launches on the current device; make it the tensor's own.
    return torch.cuda.device(x.device) if x.device.type == "cuda" else contextlib.nullcontext()


def run(x: torch.Tensor, op: str, variant: str = "auto", out: torch.Tensor | None = None) -> torch.Tensor:
    """`op` ("reduce_sum" / "reduce_max") of a canonical tensor with a Triton variant.

    `out`, when given, is a contiguous tensor of the result's shape and dtype.
    """
    p = plan(x, op, variant)
    if out is None:
        out = torch.empty(x.shape[:1] if x.dim() == 2 else (), dtype=x.dtype, device=x.device)
    with _device_guard(x):
        if p["variant"] == "block":
            _rows_block_kernel[(p["grid"],)](
                x, out, x.shape[0], x.shape[1], x.stride(0),
                BLOCK_M=p["BLOCK_M"], BLOCK_N=p["BLOCK_N"], IS_MAX=p["IS_MAX"], num_warps=p["num_warps"])
        elif p["variant"] == "tiled":
            _rows_tiled_kernel[(p["grid"],)](
                x, out, x.shape[0], x.shape[1], x.stride(0),
                TILE_N=p["TILE_N"], IS_MAX=p["IS_MAX"], num_warps=p["num_warps"])
        else:
            partials = torch.empty(p["grid"], dtype=torch.float32, device=x.device)
            _partials_kernel[(p["grid"],)](
                x, partials, x.numel(), BLOCK=p["BLOCK"], IS_MAX=p["IS_MAX"], num_warps=p["num_warps"])
            _finish_kernel[(1,)](
                partials, out, p["grid"], BLOCK_P=p["BLOCK_P"], IS_MAX=p["IS_MAX"],
                num_warps=p["finish_num_warps"])
    return out
