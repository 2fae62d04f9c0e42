"""Softmax `online`: tiles, one pass for max and sum with rescaling, then the output pass.

A program walks one row in TILE-wide tiles. Pass 1 keeps a running max and a rescaled
running sum per lane; pass 2 re-reads the row and writes the output. Reads twice, writes
once, any width. The grid is persistent (`grid`), sized so that the rows in flight fit
an L2 budget (never below one program per SM), so that pass 2's re-reads come from L2
and DRAM sees one read and one write.

The backward's `tiled` (`BACKWARD`) walks rows the same way: pass 1 sums dy * y (or dy,
for log-softmax) tile by tile, pass 2 re-reads y and dy and writes dx, on the same
L2-sized persistent grid.
"""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from . import downcast, launch, softmax_rows
from .softmax_rows import LN2, LOG2E

# Register and spill figures quoted below are ptxas's for sm_90 (Triton 3.6 and 3.9).

# Measurements quoted below: NVIDIA H200, 1 GiB inputs, % of the copy bandwidth, runs
# of benchmarks/tuning/h200_tuning_triton_pairs_2026-11-21.txt unless another file is named.

# `online` tile width in elements, any dtype; two tiles are loaded per iteration. At 16
# warps a thread holds 16 values per tile plus the per-lane max and sum: 64-89
# registers, under the 128 a 512-thread program may use (16384-wide 16-bit tiles reach
# 128 and spill). In flight per program: 64 KiB (fp32) / 32 KiB (16-bit), about what
# an H100/H200 SM needs for its share of DRAM bandwidth, since the L2 budget below
# allows one program per SM at the widest rows.
ONLINE_TILE = 8192
# Odd rows (element-by-element loads, an address per value) take half that: 8192 needs
# 128 registers and spills; 4096 needs 104-118.
ONLINE_TILE_ODD = 4096
ONLINE_VALUES_PER_THREAD = 16
ONLINE_MAX_WARPS = 16
# Pipelining of the tile loops: 1 = none. Pass 1 has no cross-warp step inside the loop
# (accumulators are per lane), so 16 warps drift apart and overlap each other's loads.
ONLINE_NUM_STAGES = 1
# Fraction of L2 that the rows in flight may fill between pass 1 and pass 2. Each
# program keeps one row live; if they all fit, pass 2 reads L2 instead of DRAM (two
# DRAM transfers per element, not three). Half leaves room for the output stream and
# for L2's split into two partitions.
ONLINE_L2_FRACTION = 0.5
# Under Triton's CPU interpreter every op is a numpy call per program: tiles this narrow
# keep the tests quick, and make the 1025/4099-wide test rows take several tiles (masked
# tail, reversed pass 2).
INTERPRET_ONLINE_TILE = 256


@triton.jit
def _online_update(m, d, x):
    # One tile into the per-lane running max m and sum d of exp(x - m), with one exp2
    # per element: of exp(m_old - m_new) and exp(x - m_new) one is exp(0) = 1 and the
    # other exp(-|x - m_old|). A lane in the empty state (-inf, 0) meeting -inf (padding
    # or data) stays (-inf, 0): the `where` keeps the undefined -inf - -inf out of d.
    # A NaN element makes d NaN for good; +inf makes m +inf (see the lane merge).
    p = tl.exp2(-tl.abs(x - m) * LOG2E)
    p = tl.where(x == -float("inf"), 0.0, p)
    d = tl.where(x > m, d * p + 1.0, d + p)
    m = tl.maximum(m, x)
    return m, d


@triton.jit
def _online_output(x, row_max, inv_sum, log_sum, LOG_SOFTMAX: tl.constexpr):
    shifted = x - row_max
    if LOG_SOFTMAX:
        y = shifted - log_sum
    else:
        y = tl.exp2(shifted * LOG2E) * inv_sum
    return y


@triton.jit
def _softmax_online_kernel(x_ptr, y_ptr, n_rows, n_cols, x_row_stride, y_row_stride,
                           LOG_SOFTMAX: tl.constexpr, TILE: tl.constexpr, ALIGN: tl.constexpr,
                           NUM_STAGES: tl.constexpr, INTERPRETER: tl.constexpr):
    # Grid: persistent; program p takes rows p, p + nprog, ... one at a time.
    # Per row: pass 1 reads n_cols elements (kept in L2), pass 2 reads them again and
    # writes n_cols: DRAM sees one read and one write when pass 2 hits L2.
    # Both passes handle two tiles per iteration: both loads are issued before either
    # is used, doubling the bytes in flight without widening the per-lane accumulators.
    # INTERPRETER: Triton's CPU interpreter (bf16 rounded in the fp32 bits, downcast.py).
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_cols, x_row_stride, y_row_stride = softmax_rows.aligned_sizes(n_cols, x_row_stride, y_row_stride, ALIGN)
    lanes = tl.arange(0, TILE)
    n_pairs = tl.cdiv(n_cols, 2 * TILE)
    for row in tl.range(pid, n_rows, nprog):
        x_row = x_ptr + tl.cast(row, tl.int64) * x_row_stride
        y_row = y_ptr + tl.cast(row, tl.int64) * y_row_stride
        # Pass 1. Lanes past the end (a whole second tile, at the end of a row with an
        # odd number of tiles) load -inf and cost no memory traffic. evict_last keeps
        # the row in L2 until pass 2 reads it back.
        m = tl.full([TILE], -float("inf"), tl.float32)
        d = tl.zeros([TILE], tl.float32)
        for t in tl.range(0, n_pairs, num_stages=NUM_STAGES):
            start = tl.cast(t, tl.int64) * (2 * TILE)
            x0 = tl.load(x_row + start + lanes, mask=lanes < n_cols - start,
                         other=-float("inf"), eviction_policy="evict_last").to(tl.float32)
            x1 = tl.load(x_row + start + TILE + lanes, mask=lanes < n_cols - start - TILE,
                         other=-float("inf"), eviction_policy="evict_last").to(tl.float32)
            m, d = _online_update(m, d, x0)
            m, d = _online_update(m, d, x1)
        # Merge the lanes once: rescale each lane's sum to the row max. A lane that saw
        # only -inf adds 0 * exp(-inf - row_max) = 0. Where this makes NaN, torch wants
        # NaN: a row of -inf (row_max = -inf: -inf - -inf), a lane holding +inf (its
        # max is +inf = row_max: inf - inf), a NaN element (its lane's sum is NaN).
        row_max = tl.max(m, axis=0)
        row_sum = tl.sum(d * tl.exp2((m - row_max) * LOG2E), axis=0)
        inv_sum = 1.0 / row_sum
        log_sum = tl.log2(row_sum) * LN2
        # Pass 2, last pair first: the tiles pass 1 read most recently are the
        # likeliest to be still in L2. Both loads come before both stores (the compiler
        # cannot move a load above a store that may alias it). Plain loads and stores:
        # evict-first and streaming (.cs) hints measured slower in `fused` on an H200.
        for t in tl.range(0, n_pairs, num_stages=NUM_STAGES):
            start = tl.cast(n_pairs - 1 - t, tl.int64) * (2 * TILE)
            mask0 = lanes < n_cols - start
            mask1 = lanes < n_cols - start - TILE
            x0 = tl.load(x_row + start + lanes, mask=mask0, other=-float("inf")).to(tl.float32)
            x1 = tl.load(x_row + start + TILE + lanes, mask=mask1, other=-float("inf")).to(tl.float32)
            y0 = _online_output(x0, row_max, inv_sum, log_sum, LOG_SOFTMAX)
            y1 = _online_output(x1, row_max, inv_sum, log_sum, LOG_SOFTMAX)
            tl.store(y_row + start + lanes, downcast.rounded(y0, y_ptr.dtype.element_ty, INTERPRETER),
                     mask=mask0)
            tl.store(y_row + start + TILE + lanes, downcast.rounded(y1, y_ptr.dtype.element_ty, INTERPRETER),
                     mask=mask1)



# -- backward: `tiled` -------------------------------------------------------------------------

# `tiled` tiles: TILED_TILE_BYTES of y and as many of dy per iteration, the bytes in
# flight of the forward's two fp32 tiles: 8192 fp32 values (16 of each tensor per thread
# at 16 warps: 97-102 registers on sm_90) or 16384 16-bit values (32 per thread at 16
# warps: 86-96 registers). 8192-wide 16-bit tiles at 16 warps take fewer values but
# spill: ptxas holds them to 64 registers and spills 12 bytes (log-softmax). Odd rows
# (an address per value): TILED_TILE_ODD values of any dtype, TILED_ODD_VALUES_PER_THREAD
# of each tensor per thread (16 warps). 16 per thread (8 warps) took 124-128 registers
# under Triton 3.9's ptxas but 255 and 22-28 bytes of spills under 3.6's (softmax
# backward, H100 run of 2026-11-23).
TILED_TILE_BYTES = 32 * 1024
TILED_TILE_ODD = ONLINE_TILE_ODD
TILED_VALUES_PER_THREAD = ONLINE_VALUES_PER_THREAD
TILED_ODD_VALUES_PER_THREAD = 8
TILED_MAX_WARPS = ONLINE_MAX_WARPS


@triton.jit
def _softmax_tiled_backward_kernel(y_ptr, dy_ptr, dx_ptr, n_rows, n_cols, y_row_stride, dy_row_stride,
                                   dx_row_stride, LOG_SOFTMAX: tl.constexpr, TILE: tl.constexpr,
                                   ALIGN: tl.constexpr, NUM_STAGES: tl.constexpr, INTERPRETER: tl.constexpr):
    # Grid: persistent; program p takes rows p, p + nprog, ... one at a time.
    # Per row: pass 1 reads dy and y (log-softmax: dy only) and keeps them in L2; pass 2
    # reads y and dy again and writes dx: DRAM sees each read once when pass 2 hits L2.
    # The sum is per lane in fp32 (softmax_rows.grad_term), merged once per row.
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_cols, y_row_stride, dy_row_stride, dx_row_stride = softmax_rows.backward_sizes(
        n_cols, y_row_stride, dy_row_stride, dx_row_stride, ALIGN)
    lanes = tl.arange(0, TILE)
    n_tiles = tl.cdiv(n_cols, TILE)
    for row in tl.range(pid, n_rows, nprog):
        y_row = y_ptr + tl.cast(row, tl.int64) * y_row_stride
        dy_row = dy_ptr + tl.cast(row, tl.int64) * dy_row_stride
        dx_row = dx_ptr + tl.cast(row, tl.int64) * dx_row_stride
        # Pass 1: masked lanes load +0 (nothing to the sum, no memory traffic).
        acc = tl.zeros([TILE], tl.float32)
        for t in tl.range(0, n_tiles, num_stages=NUM_STAGES):
            start = tl.cast(t, tl.int64) * TILE
            mask = lanes < n_cols - start
            g = tl.load(dy_row + start + lanes, mask=mask, other=0.0, eviction_policy="evict_last").to(tl.float32)
            if LOG_SOFTMAX:
                acc += g
            else:
                y = tl.load(y_row + start + lanes, mask=mask, other=0.0,
                            eviction_policy="evict_last").to(tl.float32)
                acc += softmax_rows.grad_term(y, g, LOG_SOFTMAX)
        s = tl.sum(acc, axis=0)
        # Pass 2, last tile first: the tiles pass 1 read most recently are the likeliest
        # to be still in L2. Both loads before the store.
        for t in tl.range(0, n_tiles, num_stages=NUM_STAGES):
            start = tl.cast(n_tiles - 1 - t, tl.int64) * TILE
            mask = lanes < n_cols - start
            y = tl.load(y_row + start + lanes, mask=mask, other=0.0).to(tl.float32)
            g = tl.load(dy_row + start + lanes, mask=mask, other=0.0).to(tl.float32)
            dx = softmax_rows.grad_out(y, g, s, LOG_SOFTMAX)
            tl.store(dx_row + start + lanes, downcast.rounded(dx, dx_ptr.dtype.element_ty, INTERPRETER), mask=mask)


# -- launch parameters -------------------------------------------------------------------------

def why_unsupported(x: torch.Tensor) -> str | None:
    """Always None: `online` streams rows of any width in tiles."""
    return None


def launch_params(x: torch.Tensor, limits: launch.DeviceLimits | None,
                  op: str) -> tuple[dict, int, None, int]:
    """(constexprs, num_warps, register cap (none), rows) of `online` on the (rows, cols)
    tensor `x`: TILE, NUM_STAGES and ALIGN; `limits` (the GPU's) None under the interpreter."""
    sm_count = launch.sm_count(limits)
    rows, cols = x.shape
    align = softmax_rows.row_align(x)
    if sm_count is None:
        cap = INTERPRET_ONLINE_TILE
    else:
        cap = ONLINE_TILE if align > 1 else ONLINE_TILE_ODD
    tile = min(triton.next_power_of_2(cols), cap)
    warps = max(1, min(ONLINE_MAX_WARPS, tile // (32 * ONLINE_VALUES_PER_THREAD)))
    return {"TILE": tile, "NUM_STAGES": ONLINE_NUM_STAGES, "ALIGN": align}, warps, None, rows


def grid(units: int, row_bytes: int, constexprs: dict, limits: launch.DeviceLimits | None = None,
         programs_per_sm: int = 1) -> tuple[int, int]:
    """(programs, programs per SM) of the persistent grid over `units` rows of `row_bytes`
    each; under the interpreter (`limits` None) one program per row."""
    if limits is None:
        return max(1, units), programs_per_sm
    # Every program keeps one row live between its two passes: limit the programs so
    # those rows fit in the L2 budget, but never below one per SM (an idle SM costs
    # more than re-reading from DRAM).
    budget = int(limits.l2_bytes * ONLINE_L2_FRACTION)
    per_sm = max(1, min(programs_per_sm, budget // max(1, row_bytes * limits.sm_count)))
    return launch.persistent_grid(units, per_sm, limits.sm_count), per_sm


def backward_why_unsupported(y: torch.Tensor, dy: torch.Tensor) -> str | None:
    """Always None: `tiled` streams rows of any width in tiles."""
    return None


def backward_launch_params(y: torch.Tensor, dy: torch.Tensor, limits: launch.DeviceLimits | None,
                           op: str) -> tuple[dict, int, None, int]:
    """(constexprs, num_warps, register cap (none), rows) of `tiled` on the (rows, cols)
    tensors y and dy: TILE, NUM_STAGES and ALIGN; `limits` (the GPU's) None under the interpreter."""
    sm_count = launch.sm_count(limits)
    rows, cols = y.shape
    align = softmax_rows.row_align(y, dy)
    if sm_count is None:
        cap = INTERPRET_ONLINE_TILE
    else:
        cap = TILED_TILE_BYTES // y.element_size() if align > 1 else TILED_TILE_ODD
    tile = min(triton.next_power_of_2(cols), cap)
    per_thread = TILED_VALUES_PER_THREAD if align > 1 else TILED_ODD_VALUES_PER_THREAD
    warps = max(1, min(TILED_MAX_WARPS, tile // (32 * per_thread)))
    return {"TILE": tile, "NUM_STAGES": ONLINE_NUM_STAGES, "ALIGN": align}, warps, None, rows


def backward_compile_args(y: torch.Tensor, dy: torch.Tensor) -> tuple:
    """The `tiled` launch's arguments with a stand-in dx, for `launch.resources`."""
    return softmax_rows.backward_kernel_args(y, dy, launch.stand_in(y.dtype, y.device))


def backward_launch_plan(y: torch.Tensor, dy: torch.Tensor, dx: torch.Tensor, p: dict) -> None:
    """Launch `tiled` as planned (`p` from softmax.plan): dx from y and dy."""
    launch.launch(_softmax_tiled_backward_kernel, (p["grid"],), softmax_rows.backward_kernel_args(y, dy, dx), p,
                  p["num_warps"], {}, p["constexprs"])


# -- launch ------------------------------------------------------------------------------------

KERNEL = _softmax_online_kernel


def compile_args(x: torch.Tensor) -> tuple:
    """The launch's arguments with a stand-in output, for `launch.resources`."""
    return softmax_rows.kernel_args(x, launch.stand_in(x.dtype, x.device))


def launch_plan(x: torch.Tensor, y: torch.Tensor, p: dict) -> None:
    """Launch `online` as planned (`p` from softmax.plan) from `x` into `y`."""
    launch.launch(_softmax_online_kernel, (p["grid"],), softmax_rows.kernel_args(x, y), p, p["num_warps"], {},
                  p["constexprs"])


# `grid` serves `tiled` as it is: softmax.plan passes the bytes of a row that pass 2
# re-reads (y and dy; log-softmax's pass 1 reads dy alone).
BACKWARD = launch.Family(KERNEL=_softmax_tiled_backward_kernel, why_unsupported=backward_why_unsupported,
                         launch_params=backward_launch_params, grid=grid, compile_args=backward_compile_args,
                         launch_plan=backward_launch_plan)
