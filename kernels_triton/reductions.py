"""Row and whole-tensor sum / max: the kernels, their launch parameters, the thresholds.

fp16/bf16 accumulate in fp32 and are stored in their own dtype (rounded to nearest even
on every device: downcast.py). Max propagates NaN like ``torch.amax`` (``tl.max`` does
not: it lowers to maxnum, which drops NaN), so every max goes through `_max_nan`.

Kernels, each reading the input once (N elements):

* ``block``     (`_rows_block_kernel`, 2-D) a program reduces BLOCK_M whole rows held in
                registers as one ``[BLOCK_M, BLOCK_N]`` tile; narrow rows are packed many
                per program. Writes one value per row. Rows up to BLOCK_MAX_COLS wide.
* ``tiled``     (`_rows_tiled_kernel`, 2-D) a program walks one row in TILE_N-wide tiles,
                adding (or max-ing) each tile into a TILE_N-wide fp32 accumulator, and
                reduces across lanes once after the loop. Any width; registers do not
                grow with it. Rows of at most half a tile fit in one: there is nothing
                to walk, and a program takes ROWS of them at a time, `block`'s tile.
* ``two_stage`` (`_partials_kernel` + `_finish_kernel`, 1-D) stage 1: a fixed grid of P
                programs strides over the tensor and writes P fp32 partials; stage 2: one
                program reduces the partials in a fixed order. No atomics: the same bits
                every run on the same device.

Every grid is persistent (launch.persistent_grid): as many programs as stay resident.
"""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from . import downcast, launch

ROW_KERNELS = ("block", "tiled")
WHOLE_KERNELS = ("two_stage",)

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
# `tiled` rows of at most half of it (TILE_N, the width rounded up to a power of two,
# below STREAM_TILE) are taken STREAM_TILE // TILE_N at a time (ROWS), so that every
# iteration still moves a whole tile: one row of 3 per iteration kept 4 lanes of one
# warp busy (and took 19 s for 5000 such rows under the interpreter, against 0.4 s for
# `block`). Such a row fits in one tile, so ROWS of them are one masked load, the
# `block` tile. Rows wider than half a tile: one at a time, as before.
STREAM_TILE = 4096
# Stage 2 of `two_stage` reduces all partials in one tile; the grid never exceeds this.
MAX_PARTIALS = 2048
# Persistent grids launch as many programs as stay resident (from the compiled kernel's
# registers and shared memory, see kernels_triton/launch.py). Under the interpreter, a
# few programs: each one then walks several tiles, so CI runs the grid-stride loops
# that the GPU's persistent grids rely on.
INTERPRETER_PROGRAMS = 4
# Under the interpreter a max reduces lane by lane in Python (tl.reduce with `_max_nan`
# has no numpy shortcut), masked lanes included: there `block` and `tiled` tiles of short
# rows hold at most this many elements, so that a 7-row test input is not reduced as a
# 4096-lane tile. Rows wider than this are one row per tile either way.
INTERPRETER_TILE_ELEMENTS = 512


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
def _rows_tile(x_ptr, out_ptr, tile, n_rows, stride_row, cols, col_mask, BLOCK_M: tl.constexpr,
               IS_MAX: tl.constexpr, INTERPRETER: tl.constexpr):
    # Row tile `tile` of BLOCK_M whole rows (columns `cols`, `col_mask`) with one masked
    # load: read BLOCK_M rows (cols elements each), write BLOCK_M values.
    rows = tl.cast(tile, tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < n_rows
    ptrs = x_ptr + rows[:, None] * stride_row + cols[None, :]
    x = _load_f32(ptrs, row_mask[:, None] & col_mask[None, :], IS_MAX)
    r = _reduce(x, 1, IS_MAX)
    tl.store(out_ptr + rows, downcast.rounded(r, out_ptr.dtype.element_ty, INTERPRETER), mask=row_mask)


@triton.jit
def _rows_block_kernel(x_ptr, out_ptr, n_rows, n_cols, stride_row,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, IS_MAX: tl.constexpr,
                       INTERPRETER: tl.constexpr):
    # Grid: persistent, each program walks row tiles pid, pid + nprog, ...
    # Per tile: read BLOCK_M rows (cols elements each), write BLOCK_M values.
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_N)
    col_mask = cols < n_cols
    for tile in range(pid, tl.cdiv(n_rows, BLOCK_M), nprog):
        _rows_tile(x_ptr, out_ptr, tile, n_rows, stride_row, cols, col_mask, BLOCK_M, IS_MAX, INTERPRETER)


@triton.jit
def _rows_tiled_kernel(x_ptr, out_ptr, n_rows, n_cols, stride_row,
                       TILE_N: tl.constexpr, IS_MAX: tl.constexpr, ROWS: tl.constexpr,
                       INTERPRETER: tl.constexpr):
    # Grid: persistent, one row at a time per program. Per row: read cols elements in
    # TILE_N steps, write one value. ROWS > 1 (rows that fit in half a tile, so TILE_N >=
    # n_cols): ROWS rows at a time, each tile of them one masked load, as in `block`.
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, TILE_N)
    n_full = (n_cols // TILE_N) * TILE_N
    if ROWS == 1:
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
            tl.store(out_ptr + row, downcast.rounded(r, out_ptr.dtype.element_ty, INTERPRETER))
    else:
        col_mask = lanes < n_cols
        for tile in range(pid, tl.cdiv(n_rows, ROWS), nprog):
            _rows_tile(x_ptr, out_ptr, tile, n_rows, stride_row, lanes, col_mask, ROWS, IS_MAX, INTERPRETER)


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
def _finish_kernel(partial_ptr, out_ptr, n_partials, BLOCK_P: tl.constexpr, IS_MAX: tl.constexpr,
                   INTERPRETER: tl.constexpr):
    # Stage 2. Grid: one program; reads the P partials, writes one value. The reduction
    # tree is fixed by BLOCK_P and num_warps, so the order never changes between runs.
    offs = tl.arange(0, BLOCK_P)
    p = _load_f32(partial_ptr + offs, offs < n_partials, IS_MAX)
    tl.store(out_ptr, downcast.rounded(_reduce(p, 0, IS_MAX), out_ptr.dtype.element_ty, INTERPRETER))


# -- launch parameters -------------------------------------------------------------------------

def _warps_for(elements: int) -> int:
    """Warps for a tile of `elements` values: VALUES_PER_THREAD each, 1 to MAX_WARPS."""
    return max(1, min(MAX_WARPS, triton.next_power_of_2(elements) // (32 * VALUES_PER_THREAD)))


def auto_kernel(x: torch.Tensor) -> str:
    """The kernel `auto` runs on a canonical `x`: `two_stage` for a 1-D tensor (dim=None);
    `block` for rows up to AUTO_BLOCK_MAX_COLS wide, `tiled` beyond."""
    if x.dim() == 1:
        return "two_stage"
    return "block" if x.shape[1] <= AUTO_BLOCK_MAX_COLS else "tiled"


def why_unsupported(x: torch.Tensor, kernel: str) -> str | None:
    """None when `kernel` serves the canonical `x` (2-D rows or a 1-D whole tensor); else why not."""
    if x.dim() == 1 and kernel in ROW_KERNELS:
        return (f"triton variant {kernel!r} reduces rows (reduce along a dim); the whole-tensor "
                f"reduction (dim=None) needs {', '.join(repr(v) for v in WHOLE_KERNELS)} or 'auto'")
    if x.dim() == 2 and kernel in WHOLE_KERNELS:
        return (f"triton variant {kernel!r} reduces the whole tensor (dim=None); a reduction along "
                f"a dim needs {', '.join(repr(v) for v in ROW_KERNELS)} or 'auto'")
    if kernel == "block" and x.shape[1] > BLOCK_MAX_COLS:
        return (f"triton variant 'block' holds a whole row in registers, at most {BLOCK_MAX_COLS} "
                f"columns; this row has {x.shape[1]} (use 'tiled')")
    return None


def launch_params(x: torch.Tensor, kernel: str, interpreted: bool) -> tuple[dict, int, int]:
    """(constexprs, num_warps, units of work) of `kernel` on the canonical `x` (IS_MAX and
    INTERPRETER are the caller's); units: row tiles, rows or tiles of the whole tensor."""
    def elements(tile: int) -> int:  # a tile's elements, capped under the interpreter
        return min(tile, INTERPRETER_TILE_ELEMENTS) if interpreted else tile

    if kernel == "block":
        rows, cols = x.shape
        block_n = triton.next_power_of_2(cols)
        # BLOCK_M depends on the width only (not on `rows`): one compiled kernel per
        # width and dtype; masked rows of a short last tile cost no memory traffic.
        block_m = max(1, elements(BLOCK_TILE_ELEMENTS) // block_n)
        return ({"BLOCK_M": block_m, "BLOCK_N": block_n}, _warps_for(block_m * block_n),
                triton.cdiv(rows, block_m))
    if kernel == "tiled":
        rows, cols = x.shape
        tile_n = min(triton.next_power_of_2(cols), STREAM_TILE)
        tile_rows = max(1, elements(STREAM_TILE) // tile_n)  # 1 for rows wider than half a tile
        return ({"TILE_N": tile_n, "ROWS": tile_rows}, _warps_for(tile_rows * tile_n),
                triton.cdiv(rows, tile_rows))
    block = min(triton.next_power_of_2(x.numel()), STREAM_TILE)
    return {"BLOCK": block}, _warps_for(block), triton.cdiv(x.numel(), block)


def finish_params(partials: int) -> tuple[dict, int]:
    """(constexprs, num_warps) of stage 2 of `two_stage` over `partials` partials."""
    block_p = triton.next_power_of_2(partials)
    return {"BLOCK_P": block_p}, _warps_for(block_p)


# -- launch ------------------------------------------------------------------------------------

KERNELS = {"block": _rows_block_kernel, "tiled": _rows_tiled_kernel, "two_stage": _partials_kernel}
FINISH_KERNEL = _finish_kernel  # two_stage's stage 2


def compile_args(x: torch.Tensor, kernel: str) -> tuple:
    """The launch's arguments of `kernel` (stage 1 for `two_stage`) with a stand-in output,
    for `launch.resources`."""
    if kernel == "two_stage":
        return (x, launch.stand_in(torch.float32, x.device), x.numel())
    return (x, launch.stand_in(x.dtype, x.device), x.shape[0], x.shape[1], x.stride(0))


def finish_args(x: torch.Tensor, partials: int) -> tuple:
    """Stage 2's arguments of `two_stage` over `partials` partials, with stand-ins."""
    return (launch.stand_in(torch.float32, x.device), launch.stand_in(x.dtype, x.device), partials)


def launch_plan(x: torch.Tensor, out: torch.Tensor, p: dict) -> None:
    """Launch `p` (from reduce.plan) on the canonical `x` into `out`."""
    grid = (p["grid"],)
    if p["kernel"] in ROW_KERNELS:
        launch.launch(KERNELS[p["kernel"]], grid, (x, out, x.shape[0], x.shape[1], x.stride(0)), p, p["num_warps"],
                      {}, p["constexprs"])
        return
    partials = torch.empty(p["grid"], dtype=torch.float32, device=x.device)
    launch.launch(_partials_kernel, grid, (x, partials, x.numel()), p, p["num_warps"], {}, p["constexprs"])
    launch.launch(_finish_kernel, (1,), (partials, out, p["grid"]), p, p["finish_num_warps"], {},
                  p["finish_constexprs"])
