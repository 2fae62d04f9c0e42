"""Triton softmax and log-softmax over the rows of a canonical ``(rows, cols)`` tensor.

Three kernels, each for both ops (a constexpr flag) and fp32/fp16/bf16 in and out with
fp32 arithmetic; exp is ``exp2`` of arguments pre-scaled by log2(e):

* ``fused``  (`_softmax_fused_kernel`): a program holds a ``[ROWS, BLOCK]`` tile of
  whole rows in registers. Reads each element once, writes it once: the minimum
  traffic, the same as a device-to-device copy. Narrow rows are packed many to a tile
  so every program moves enough bytes; wide 16-bit rows are held two values per 32-bit
  word (pairs.py), half the registers of Triton's fp32 widening; the widest of those
  (one program per SM) are held as segments, reduced per thread first and stored
  segment by segment (`_fused_pairs_segments`). Rows up to FUSED_MAX_COLS wide
  (FUSED_MAX_COLS_PAIRS in pairs).
* ``online`` (`_softmax_online_kernel`): a program walks one row in TILE-wide tiles.
  Pass 1 keeps a running max and a rescaled running sum per lane; pass 2 re-reads the
  row and writes the output. Reads twice, writes once, any width; the grid is sized so
  that the rows in flight fit an L2 budget (never below one program per SM), so that
  pass 2's re-reads come from L2 and DRAM sees one read and one write.
* ``split``  (`_softmax_split_kernel`): a row too wide for one program's registers is
  cut into chunks, one per program; the programs of a row publish their chunk's
  (max, sum) as one 64-bit word in global memory and wait for each other's, so each
  element is still read once and written once. That wait needs every program resident
  at once: a persistent grid sized from the compiled kernel's occupancy. Each program
  loads its chunk of the next row before it waits. Rows up to one 16 KiB chunk per SM
  (540672 fp32 or 1081344 16-bit columns on a 132-SM GPU).
* ``auto``: `_auto_kernel` picks one from the width (and dtype and alignment).

Rows are loaded 16 bytes at a time where alignment allows: the launcher passes ALIGN,
the power of two dividing both width and row stride, which the kernels restate so that
Triton's alignment analysis sees it (it only knows integer arguments divisible by 16).

Loads and stores carry no cache hints (but `online`'s first pass, evict_last): evict-first
loads and streaming (.cs) stores measured up to 8 points slower on an H200 (see
AUTO_FUSED_MAX_COLS).

`fused` launches one program per row block (measured faster than a persistent loop);
`online` is persistent (as many programs as stay resident, each looping over rows, so
the rows in flight fit the L2 budget), and so is `split`. All honour the input's row
stride, offset rows in 64-bit, and follow
``torch.softmax`` on special values: a row containing NaN or +inf, or all -inf, comes
out all NaN; -inf elements of an otherwise finite row give 0 (log-softmax: -inf).

`plan` computes every launch parameter in one place; `run` launches what it returns.
Nothing compiles at import time: kernels compile on first use, and Triton keys its
cache on what changes the code (dtypes, constexprs, pointer and integer alignment).
"""
from __future__ import annotations

import contextlib
import math

import torch
import triton
import triton.language as tl

from . import launch, pairs
from .backend import interpreting

VARIANTS = {"softmax": ("fused", "online", "split"), "log_softmax": ("fused", "online", "split")}

# -- thresholds and launch constants ----------------------------------------------------
# Register and spill figures quoted below are ptxas's for sm_90 (Triton 3.6 and 3.9).

# Measurements quoted below: NVIDIA H200, 1 GiB inputs, % of the copy bandwidth, runs
# of benchmarks/h200_tuning_triton_pairs_2026-11-21.txt unless another file is named.

# `fused` holds rows in registers as units: a unit is a value or, for 16-bit rows that
# are paired (_paired: even width and row stride, 4-byte aligned start, at least
# FUSED_PAIRS_MIN_COLS wide), a 32-bit word of two values (pairs.py), which halves the
# registers the row takes. Units each thread holds (num_warps = tile / (32 * this), 1 to
# 32): 32 fp32 values or 32 words (64 16-bit values) = eight 16-byte loads in flight per
# thread, and the widest row still fits the 64-register cap of a 1024-thread program.
FUSED_UNITS_PER_THREAD = 32
FUSED_MAX_WARPS = 32
# Widest row `fused` holds, 32 warps x 32 units (52-64 registers, no spills): 32768 fp32
# (and 16-bit rows that are not paired, which Triton widens to fp32), 65536 paired
# 16-bit values. Rows whose width or row stride is odd (ALIGN 1 below) load element by
# element, each value with its own address: fp32 spills at 32768 there, 16384 fits.
# fp16 pairs stop at 32768: widening fp16 takes a cvt and a temporary where bf16 takes
# a shift, and Triton 3.6's ptxas spills 8 registers at 65536 (bf16 fits).
FUSED_MAX_COLS = 32768
FUSED_MAX_COLS_PAIRS = {torch.bfloat16: 65536, torch.float16: 32768}
FUSED_MAX_COLS_ODD = 16384
# Pairs pay where registers bound the programs per SM: bf16 32768 paired (16 warps, 64
# registers, two programs per SM) 97.9%, against 73% widened (32 warps, one per SM).
# At 8192 and 16384 the two tie (96.8 / 97.1, 96.7 / 96.7); below, the multi-row paired
# tiles measured slower (4096: 93.5 vs 97.2, 512: 49 vs 99.8, 128: 87 vs 98.1).
FUSED_PAIRS_MIN_COLS = 16384
# Register cap of paired tiles (ptxas maxnreg). 32 words and the temporaries of one
# pass fit in 64; uncapped, ptxas spends up to 128 on scheduling freedom at 16 warps,
# which halves the programs an SM holds (bf16 32768 at 16 warps: 97.2% capped, 73%
# for the uncapped widened tile; run 2).
FUSED_PAIRS_MAX_REGISTERS = 64
# Paired rows at least this wide take the segmented tile (_fused_pairs_segments): at
# 65536 (32 warps, one program per SM, nothing else to overlap its compute) it reached
# 93.6% for bf16 softmax and 95.9% for log-softmax, against 84.1 / 89.0 for the
# two-pass tile, whose stores all wait for all its exps; at 16384 and 32768 (several
# programs per SM) the two tie (96.5 / 96.7, 97.5 / 97.4). fp16 pairs stop at 32768
# (FUSED_MAX_COLS_PAIRS), so only bf16 rows take it.
FUSED_THREAD_SUMS_MIN_COLS = 65536
# `auto` uses `fused` up to this width (odd rows: FUSED_MAX_COLS_ODD) and `split`
# beyond: fp32 32768 98.0 (plain loads and stores; 89.8 with the evict-first loads and
# .cs stores used before); paired 16-bit 32768 97.9, and bf16 65536 93.6 (log-softmax
# 95.9) since the segmented tile (SEGMENTS; session 5 tuning log, run 2), against 83.9
# for `split` (fp16 pairs stop at 32768, FUSED_MAX_COLS_PAIRS). 16-bit rows that are
# not paired go to `split` past 16384 (widened 32768 at 32 warps: 73%).
AUTO_FUSED_MAX_COLS = {"fp32": 32768, "pairs": 65536, "16-bit": 16384}
# Narrow rows are packed into a `fused` tile until it holds this many bytes: at width 128
# a one-row program moves 512 B per iteration, too little to cover DRAM latency with
# the programs an SM holds (a one-row-per-program kernel reaches 15-44% of copy
# bandwidth there); a 16 KiB tile at 64 registers per thread lets ~8 programs per SM
# keep ~128 KiB in flight.
FUSED_TILE_BYTES = 16 * 1024
# ...but at most this many rows: rows narrower than a 16-byte vector load element by
# element with a 64-bit address per value; 1024 rows of width 1 already need 110-128
# registers per thread and spill in fp16.
FUSED_MAX_TILE_ROWS = 512

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

# `split`: a row is cut into SPLIT chunks (SPLIT a power of two), each held in the
# registers of its own program; the SPLIT programs of a group exchange their chunk's
# (max, sum) through global memory and wait for each other, and each program requests
# the next row's chunk before that wait. Rows up to SPLIT_WHOLE_ROW_BYTES are one chunk
# (SPLIT 1: a persistent fused kernel with the next row in flight); wider rows take the
# fewest chunks of at most SPLIT_CHUNK_BYTES (odd rows, loaded element by element:
# SPLIT_CHUNK_ODD elements). 65536-wide rows, 32 values per thread, plain loads/stores:
#   fp32 chunks of 16 / 32 / 64 KiB: 89.8 / 89.0-89.1 / 86.8-87.5
#   bf16 chunks of  8 / 16 / 32 KiB: 84.8 / 83.7 / 67.3
# 16 values per thread (twice the warps) measured lower (fp32 32 KiB: 88.3-88.4). Held
# as pairs (pairs.py), bf16 chunks measured 49-68%: `split` does not pair. Earlier,
# with evict-first loads (benchmarks/h200_tuning_split_2026-11-21.txt), requesting two
# rows ahead instead of one measured lower too (bf16: 55-63, the extra chunk costs bf16
# its second program per SM).
SPLIT_WHOLE_ROW_BYTES = 64 * 1024
SPLIT_CHUNK_BYTES = {4: 16 * 1024, 2: 16 * 1024}
SPLIT_CHUNK_ODD = 4096
SPLIT_VALUES_PER_THREAD = 32
SPLIT_MAX_WARPS = 32
# Under the interpreter programs run one after another, so a program waiting for a later
# one would wait forever: there every row is one chunk (SPLIT = 1; the exchange then
# reads back the program's own slot), on this many programs so that each loops over
# several rows and its next-row loads.
INTERPRET_SPLIT_PROGRAMS = 2

# Largest ALIGN hint (elements): Triton already knows integers divisible by 16.
MAX_ALIGN = 16
# Launch grids stay within CUDA's grid.x limit; the kernels' row loops cover the rest.
MAX_GRID = 2 ** 31 - 1

# Under Triton's CPU interpreter every op is a numpy call per program: cap tiles so the
# tests stay quick, and small enough that the 1025/4099-wide test rows take several
# `online` tiles (masked tail, reversed pass 2) and 7-row inputs several `fused` tiles.
INTERPRET_ONLINE_TILE = 256
INTERPRET_FUSED_TILE_UNITS = 2048

LOG2E = tl.constexpr(1.4426950408889634)
LN2 = tl.constexpr(0.6931471805599453)


# -- kernels ------------------------------------------------------------------------------

@triton.jit
def _multiple_of(n, ALIGN: tl.constexpr):
    # n is a multiple of ALIGN (the launcher checked). Triton's alignment analysis only
    # knows integer arguments divisible by 16; written as (n // ALIGN) * ALIGN it sees
    # the factor, so rows of e.g. 1000 fp32 (ALIGN 8) still load 16 bytes at a time.
    return (n // ALIGN) * ALIGN


@triton.jit
def _aligned_sizes(n_cols, x_row_stride, y_row_stride, ALIGN: tl.constexpr):
    # The width and both row strides, each restated as a multiple of ALIGN.
    return (_multiple_of(n_cols, ALIGN), _multiple_of(x_row_stride, ALIGN),
            _multiple_of(y_row_stride, ALIGN))


@triton.jit
def _softmax_fused_kernel(x_ptr, y_ptr, n_rows, n_cols, x_row_stride, y_row_stride,
                          LOG_SOFTMAX: tl.constexpr, ROWS: tl.constexpr, BLOCK: tl.constexpr,
                          ALIGN: tl.constexpr, PAIRS: tl.constexpr, BF16: tl.constexpr,
                          SEGMENTS: tl.constexpr, ASM: tl.constexpr):
    # Grid: (x, y), one program per block of ROWS rows, block y * grid_x + x (y > 1 only
    # past CUDA's 2^31 - 1 programs in x). No program loops: a program that looped would
    # wait on its own stores before loading its next block (see _persistent_grid).
    # Per block: read ROWS x n_cols elements once, write ROWS x n_cols once. PAIRS: the
    # rows are 16-bit (BF16: bfloat16, else float16), held two values per word
    # (pairs.py); BLOCK counts words; SEGMENTS > 0: as that many segments.
    block = tl.program_id(1).to(tl.int64) * tl.num_programs(0) + tl.program_id(0)
    rows = block * ROWS + tl.arange(0, ROWS)
    n_cols, x_row_stride, y_row_stride = _aligned_sizes(n_cols, x_row_stride, y_row_stride, ALIGN)
    if PAIRS and SEGMENTS:
        _fused_pairs_segments(x_ptr, y_ptr, rows, n_rows, n_cols // 2, x_row_stride // 2, y_row_stride // 2,
                              LOG_SOFTMAX, BLOCK, SEGMENTS, BF16, ASM)
    elif PAIRS:
        _fused_pairs_tile(x_ptr, y_ptr, rows, n_rows, n_cols // 2, x_row_stride // 2, y_row_stride // 2,
                          LOG_SOFTMAX, BLOCK, BF16, ASM)
    else:
        cols = tl.arange(0, BLOCK)
        mask = (rows < n_rows)[:, None] & (cols < n_cols)[None, :]
        # Plain loads and stores: evict-first loads (.L1::evict_first) and streaming
        # stores (.cs) both measured slower on an H200 (see AUTO_FUSED_MAX_COLS).
        x = tl.load(x_ptr + rows[:, None] * x_row_stride + cols[None, :], mask=mask,
                    other=-float("inf")).to(tl.float32)
        # Padding is -inf: it never wins the max and its exp is 0. A row of -inf has
        # m = -inf and x - m = NaN; +inf gives inf - inf = NaN; a NaN element makes its
        # exp and so the sum NaN: all three end up NaN across the row, like torch.
        m = tl.max(x, axis=1)
        shifted = x - m[:, None]
        e = tl.exp2(shifted * LOG2E)
        d = tl.sum(e, axis=1)
        if LOG_SOFTMAX:
            y = shifted - (tl.log2(d) * LN2)[:, None]
        else:
            y = e * (1.0 / d)[:, None]
        tl.store(y_ptr + rows[:, None] * y_row_stride + cols[None, :], y.to(y_ptr.dtype.element_ty),
                 mask=mask)


@triton.jit
def _merge_max_sum(m1, d1, m2, d2):
    # Two (max, sum of exp(x - max)) pairs into one, with one exp2: exp(-|m1 - m2|)
    # rescales the sum of the smaller max (1 where the maxima are equal, which also
    # covers two -inf maxima, whose sums are 0). A NaN sum stays NaN: a NaN or +inf
    # element made its thread's sum NaN, as the two-pass sum.
    p = tl.where(m1 == m2, 1.0, tl.exp2(-tl.abs(m1 - m2) * LOG2E))
    d = tl.where(m1 > m2, d1 + d2 * p, d1 * p + d2)
    return tl.maximum(m1, m2), d


@triton.jit
def _fused_pairs_tile(x_ptr, y_ptr, rows, n_rows, n_words, x_row_words, y_row_words,
                      LOG_SOFTMAX: tl.constexpr, BLOCK: tl.constexpr, BF16: tl.constexpr,
                      ASM: tl.constexpr):
    # `fused` on 16-bit rows as uint32 words (pairs.py): a thread keeps its words, not
    # their fp32 widening, live between the passes. The three passes (max; sum of exps;
    # output) widen the words each in their own form, so the compiler cannot merge them.
    words = tl.arange(0, BLOCK)
    mask = (rows < n_rows)[:, None] & (words < n_words)[None, :]
    w = tl.load(x_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + rows[:, None] * x_row_words
                + words[None, :], mask=mask, other=pairs.neg_inf_pair(BF16))
    # Special values as in the plain tile: padding pairs are two -inf.
    m = tl.max(tl.maximum(pairs.low(w, BF16, 1, ASM), pairs.high(w, BF16, 1, ASM)), axis=1)[:, None]
    d = tl.sum(tl.exp2((pairs.low(w, BF16, 0, ASM) - m) * LOG2E)
               + tl.exp2((pairs.high(w, BF16, 0, ASM) - m) * LOG2E), axis=1)[:, None]
    y = _pairs_output(w, m, d, LOG_SOFTMAX, BF16, ASM)
    tl.store(y_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + rows[:, None] * y_row_words
             + words[None, :], y, mask=mask)


@triton.jit
def _pairs_output(w, m, d, LOG_SOFTMAX: tl.constexpr, BF16: tl.constexpr, ASM: tl.constexpr):
    # Output words of words `w`, row max m and sum d. Softmax puts the normaliser inside
    # the exponent, so that no exp can be computed before the sum's block reduction and
    # kept live across it (adds under 1e-6 relative error: far below 16-bit precision).
    if LOG_SOFTMAX:
        ln_d = tl.log2(d) * LN2
        y_lo = (pairs.low(w, BF16, 2, ASM) - m) - ln_d
        y_hi = (pairs.high(w, BF16, 2, ASM) - m) - ln_d
    else:
        log2_d = tl.log2(d)
        y_lo = tl.exp2((pairs.low(w, BF16, 2, ASM) - m) * LOG2E - log2_d)
        y_hi = tl.exp2((pairs.high(w, BF16, 2, ASM) - m) * LOG2E - log2_d)
    return pairs.pack(y_lo, y_hi, BF16, ASM)


@triton.jit
def _fused_pairs_segments(x_ptr, y_ptr, rows, n_rows, n_words, x_row_words, y_row_words,
                          LOG_SOFTMAX: tl.constexpr, BLOCK: tl.constexpr, SEGMENTS: tl.constexpr,
                          BF16: tl.constexpr, ASM: tl.constexpr):
    # The paired tile for the widest rows, where one program per SM is all that fits
    # and nothing overlaps its compute: the row is SEGMENTS tensors of SEGMENT words (a
    # tuple), each covered by the threads with one 16-byte load. Segment tensors share
    # a layout, so a thread holds the same lanes of each and combining them is
    # thread-local:
    # * max and sum per lane first (packed 16-bit maxima on the GPU), then ONE block
    #   reduction of the lanes' (max, sum) pairs (_merge_max_sum), not two;
    # * the output goes out segment by segment, each store issued as soon as its
    #   segment is computed, rather than all stores after all the exps.
    SEGMENT: tl.constexpr = BLOCK // SEGMENTS
    lanes = tl.arange(0, SEGMENT)[None, :]
    rows = rows[:, None]
    x_rows = x_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + rows * x_row_words
    ws = ()
    for s in tl.static_range(SEGMENTS):
        ws = ws + (tl.load(x_rows + s * SEGMENT + lanes, mask=(rows < n_rows) & (lanes < n_words - s * SEGMENT),
                           other=pairs.neg_inf_pair(BF16)),)
    if ASM:
        m_w = ws[0]
        for s in tl.static_range(1, SEGMENTS):
            m_w = pairs.max2(m_w, ws[s], BF16)
        m_t = tl.maximum(pairs.low(m_w, BF16, 1, ASM), pairs.high(m_w, BF16, 1, ASM))
    else:
        m_t = tl.maximum(pairs.low(ws[0], BF16, 1, ASM), pairs.high(ws[0], BF16, 1, ASM))
        for s in tl.static_range(1, SEGMENTS):
            m_t = tl.maximum(m_t, tl.maximum(pairs.low(ws[s], BF16, 1, ASM), pairs.high(ws[s], BF16, 1, ASM)))
    # A lane of only -inf (padding) takes exponents relative to 0: its sum is 0.
    shift = tl.where(m_t == -float("inf"), 0.0, m_t)
    d_t = tl.zeros_like(m_t)
    for s in tl.static_range(SEGMENTS):
        d_t += (tl.exp2((pairs.low(ws[s], BF16, 0, ASM) - shift) * LOG2E)
                + tl.exp2((pairs.high(ws[s], BF16, 0, ASM) - shift) * LOG2E))
    m, d = tl.reduce((m_t, d_t), 1, _merge_max_sum)
    m = m[:, None]
    d = d[:, None]
    y_rows = y_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + rows * y_row_words
    for s in tl.static_range(SEGMENTS):
        tl.store(y_rows + s * SEGMENT + lanes, _pairs_output(ws[s], m, d, LOG_SOFTMAX, BF16, ASM),
                 mask=(rows < n_rows) & (lanes < n_words - s * SEGMENT))


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
                           NUM_STAGES: tl.constexpr):
    # Grid: persistent; program p takes rows p, p + nprog, ... one at a time.
    # Per row: pass 1 reads n_cols elements (kept in L2), pass 2 reads them again and
    # writes n_cols: DRAM sees one read and one write when pass 2 hits L2.
    # Both passes handle two tiles per iteration: both loads are issued before either
    # is used, doubling the bytes in flight without widening the per-lane accumulators.
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_cols, x_row_stride, y_row_stride = _aligned_sizes(n_cols, x_row_stride, y_row_stride, ALIGN)
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
            tl.store(y_row + start + lanes, y0.to(y_ptr.dtype.element_ty), mask=mask0)
            tl.store(y_row + start + TILE + lanes, y1.to(y_ptr.dtype.element_ty), mask=mask1)


@triton.jit
def _pair_word(m, d):
    # (max, sum) of a chunk as one int64, so that one 64-bit store publishes both: d's
    # bits high, m's low. |d| clears the sign of a NaN sum (d is otherwise >= +0), so a
    # published word is never negative and the slots' initial -1 means "not yet".
    d_bits = tl.abs(d).to(tl.int32, bitcast=True).to(tl.int64)
    m_bits = m.to(tl.int32, bitcast=True).to(tl.int64) & 0xFFFFFFFF
    return (d_bits << 32) | m_bits


@triton.jit
def _load_chunk(x_ptr, row, n_rows, n_cols, x_row_stride, cols):
    # This program's chunk of `row`; nothing (all -inf, no traffic) past the last row:
    # the mask bound is then 0 columns.
    return tl.load(x_ptr + tl.cast(row, tl.int64) * x_row_stride + cols,
                   mask=cols < tl.where(row < n_rows, n_cols, 0), other=-float("inf"))


@triton.jit
def _softmax_split_kernel(x_ptr, y_ptr, slot_ptr, n_rows, n_cols, x_row_stride, y_row_stride,
                          LOG_SOFTMAX: tl.constexpr, SPLIT: tl.constexpr, CHUNK: tl.constexpr,
                          ALIGN: tl.constexpr):
    # Grid: persistent, a multiple of SPLIT programs, ALL resident at once (the launcher
    # sizes it from the occupancy of the compiled kernel): program p is chunk p % SPLIT
    # of rows g, g + n_groups, ... with g = p // SPLIT, and waits for the other SPLIT - 1
    # programs of its group on every row. slot_ptr: int64 [n_rows, SPLIT], all -1.
    # Per row: each element read once and written once.
    pid = tl.program_id(0)
    n_groups = tl.num_programs(0) // SPLIT
    group = pid // SPLIT
    part = pid % SPLIT
    n_cols, x_row_stride, y_row_stride = _aligned_sizes(n_cols, x_row_stride, y_row_stride, ALIGN)
    cols = part * CHUNK + tl.arange(0, CHUNK)
    col_mask = cols < n_cols
    parts = tl.arange(0, SPLIT)
    x = _load_chunk(x_ptr, group, n_rows, n_cols, x_row_stride, cols)
    for row in tl.range(group, n_rows, n_groups):
        # The next row's chunk is requested before this row's exchange, so that this
        # program has loads in flight while it waits for its slowest partner.
        x_next = _load_chunk(x_ptr, row + n_groups, n_rows, n_cols, x_row_stride, cols)
        xf = x.to(tl.float32)
        # The chunk's pair, exponents relative to its own max (0 for a chunk of only -inf,
        # whose pair is then (-inf, 0)). NaN and +inf make d NaN, as in `fused`.
        m = tl.max(xf, axis=0)
        e = tl.exp2((xf - tl.where(m == -float("inf"), 0.0, m)) * LOG2E)
        d = tl.sum(e, axis=0)
        row_slots = slot_ptr + tl.cast(row, tl.int64) * SPLIT
        tl.atomic_xchg(row_slots + part, _pair_word(m, d), sem="relaxed", scope="gpu")
        # Wait until every chunk of the row has published (volatile: not from L1).
        words = tl.load(row_slots + parts, volatile=True)
        while tl.min(words, axis=0) < 0:
            words = tl.load(row_slots + parts, volatile=True)
        part_max = (words & 0xFFFFFFFF).to(tl.int32).to(tl.float32, bitcast=True)
        part_sum = (words >> 32).to(tl.int32).to(tl.float32, bitcast=True)
        # Merge: a chunk of only -inf adds 0 * exp(-inf) = 0; a row of only -inf gets
        # row_max = -inf and NaN from -inf - -inf, as torch; NaN sums stay NaN.
        row_max = tl.max(part_max, axis=0)
        row_sum = tl.sum(part_sum * tl.exp2((part_max - row_max) * LOG2E), axis=0)
        if LOG_SOFTMAX:
            y = (xf - row_max) - tl.log2(row_sum) * LN2
        else:
            # exp(x - m) * exp(m - row_max) / row_sum; 0 for a chunk of only -inf.
            y = e * (tl.exp2((m - row_max) * LOG2E) / row_sum)
        tl.store(y_ptr + tl.cast(row, tl.int64) * y_row_stride + cols, y.to(y_ptr.dtype.element_ty),
                 mask=col_mask)
        x = x_next


# -- launch plan ----------------------------------------------------------------------------

def _row_align(x: torch.Tensor) -> int:
    """ALIGN: the largest power of two (at most MAX_ALIGN) dividing both the width and
    the row stride, so every row start and row end is a multiple of it (in elements)."""
    g = math.gcd(x.shape[1], x.stride(0))
    return min(MAX_ALIGN, g & -g) if g else MAX_ALIGN


def _paired(x: torch.Tensor, align: int) -> bool:
    """Whether `fused` holds `x`'s rows as words of two 16-bit values (pairs.py): 16-bit
    rows of at least FUSED_PAIRS_MIN_COLS, an even width and row stride (ALIGN >= 2) and
    a 4-byte aligned start."""
    return (x.element_size() == 2 and x.shape[1] >= FUSED_PAIRS_MIN_COLS and align >= 2
            and x.data_ptr() % 4 == 0)


def _fused_max_cols(x: torch.Tensor) -> int:
    """Widest row of `x`'s dtype and alignment that `fused` holds in registers."""
    align = _row_align(x)
    if align == 1:
        return FUSED_MAX_COLS_ODD
    return FUSED_MAX_COLS_PAIRS[x.dtype] if _paired(x, align) else FUSED_MAX_COLS


def _auto_kernel(cols: int, dtype: torch.dtype, align: int, paired: bool,
                 sm_count: int | None) -> str:
    """The kernel `auto` runs: `fused` while a row fits in registers, `split` beyond while
    the GPU holds a group's programs, `online` past that."""
    elem = dtype.itemsize
    if align == 1:
        limit = FUSED_MAX_COLS_ODD
    elif elem == 4:
        limit = AUTO_FUSED_MAX_COLS["fp32"]
    elif paired:
        limit = min(AUTO_FUSED_MAX_COLS["pairs"], FUSED_MAX_COLS_PAIRS[dtype])
    else:
        limit = AUTO_FUSED_MAX_COLS["16-bit"]
    if cols <= limit:
        return "fused"
    return "split" if _split_fits(cols, elem, align, sm_count) else "online"


def _pow2_at_most(n: int) -> int:
    return 1 << (max(1, n).bit_length() - 1)


def _fused_params(rows: int, cols: int, elem: int, paired: bool,
                  sm_count: int | None) -> tuple[dict, int, int | None]:
    """ROWS, BLOCK (units), PAIRS, num_warps and the register cap of `fused` for a
    (rows, cols) input of `elem`-byte elements; `sm_count` None under the interpreter."""
    # Paired rows have an even width: half as many units, each twice the bytes.
    units, unit = (cols // 2, 2 * elem) if paired else (cols, elem)
    block = triton.next_power_of_2(units)
    tile_rows = min(FUSED_MAX_TILE_ROWS, _pow2_at_most(FUSED_TILE_BYTES // (block * unit)))
    # Few rows: spread them over the SMs rather than packing them into a few programs.
    spread = triton.cdiv(rows, sm_count) if sm_count else rows
    tile_rows = min(tile_rows, triton.next_power_of_2(spread))
    if sm_count is None:
        tile_rows = min(tile_rows, _pow2_at_most(INTERPRET_FUSED_TILE_UNITS // block))
    warps = max(1, min(FUSED_MAX_WARPS, tile_rows * block // (32 * FUSED_UNITS_PER_THREAD)))
    maxnreg = FUSED_PAIRS_MAX_REGISTERS if paired and sm_count is not None else None
    return {"ROWS": tile_rows, "BLOCK": block, "PAIRS": paired}, warps, maxnreg


def _segments(constexprs: dict, cols: int) -> int:
    """SEGMENTS of `fused`: where a paired tile reduces per thread first, the 16-byte
    loads each thread makes (FUSED_UNITS_PER_THREAD words, four per load); else 0 (two
    block reductions)."""
    if not constexprs["PAIRS"] or cols < FUSED_THREAD_SUMS_MIN_COLS:
        return 0
    return max(1, min(FUSED_UNITS_PER_THREAD, constexprs["BLOCK"]) // 4)


def _split_chunks(cols: int, elem: int, align: int, interpreted: bool) -> tuple[int, int]:
    """(SPLIT, CHUNK) of `split` for rows of `cols` `elem`-byte values: one chunk up to
    SPLIT_WHOLE_ROW_BYTES (aligned rows) and under the interpreter; else SPLIT a power
    of two, the smallest whose chunks fit SPLIT_CHUNK_BYTES (odd rows: SPLIT_CHUNK_ODD)."""
    whole = triton.next_power_of_2(cols)
    if interpreted or (align > 1 and whole * elem <= SPLIT_WHOLE_ROW_BYTES):
        return 1, whole
    cap = SPLIT_CHUNK_BYTES[elem] // elem if align > 1 else SPLIT_CHUNK_ODD
    split = triton.next_power_of_2(triton.cdiv(cols, cap))
    return split, triton.next_power_of_2(triton.cdiv(cols, split))


def _split_fits(cols: int, elem: int, align: int, sm_count: int | None) -> bool:
    """Whether a group of `split` programs can all be resident: at most one per SM is
    assumed here (the plan then packs as many as the compiled kernel allows)."""
    return sm_count is None or _split_chunks(cols, elem, align, False)[0] <= sm_count


def _split_params(cols: int, elem: int, align: int, interpreted: bool) -> tuple[dict, int]:
    """SPLIT, CHUNK and num_warps of `split`."""
    split, chunk = _split_chunks(cols, elem, align, interpreted)
    warps = max(1, min(SPLIT_MAX_WARPS, chunk // (32 * SPLIT_VALUES_PER_THREAD)))
    return {"SPLIT": split, "CHUNK": chunk}, warps


def _online_params(cols: int, align: int, interpreted: bool) -> tuple[dict, int]:
    """TILE and num_warps of `online` for rows `cols` wide."""
    if interpreted:
        cap = INTERPRET_ONLINE_TILE
    else:
        cap = ONLINE_TILE if align > 1 else ONLINE_TILE_ODD
    tile = min(triton.next_power_of_2(cols), cap)
    warps = max(1, min(ONLINE_MAX_WARPS, tile // (32 * ONLINE_VALUES_PER_THREAD)))
    return {"TILE": tile, "NUM_STAGES": ONLINE_NUM_STAGES}, warps


_KERNELS = {"fused": _softmax_fused_kernel, "online": _softmax_online_kernel,
            "split": _softmax_split_kernel}
# launch.CompiledResources per compiled configuration: measured once per process.
_RESOURCES: dict[tuple, launch.CompiledResources] = {}


def _args(kernel_name: str, x: torch.Tensor, y: torch.Tensor, slots: torch.Tensor | None = None) -> tuple:
    rows, cols = x.shape
    if kernel_name == "split":  # slots: int64 (rows, SPLIT) exchange words, all -1
        return (x, y, slots, rows, cols, x.stride(0), cols)
    return (x, y, rows, cols, x.stride(0), cols)  # y is a new contiguous (rows, cols)


def _specialization(x: torch.Tensor) -> tuple:
    # What Triton specialises a binary on besides dtypes and constexprs: 16-byte pointer
    # alignment, and integers divisible by 16 or equal to 1. Unaligned rows compile to
    # scalar loads with more address registers: their occupancy is measured separately.
    ints = (*x.shape, x.stride(0))
    return (x.data_ptr() % 16 == 0, *(n % 16 == 0 for n in ints), *(n == 1 for n in ints))


def _resources(kernel_name: str, x: torch.Tensor, constexprs: dict, warps: int, maxnreg: int | None,
               limits: launch.DeviceLimits) -> launch.CompiledResources:
    key = (limits.index, kernel_name, x.dtype, _specialization(x),
           tuple(sorted(constexprs.items())), warps, maxnreg)
    res = _RESOURCES.get(key)
    if res is None:
        # Compile for x's own specialisation, so that the binary measured is the one the
        # launch will use; the output stand-in only needs the output's 16-byte alignment
        # (nothing is launched).
        y_stand_in = torch.empty(16, dtype=x.dtype, device=x.device)
        slots_stand_in = torch.empty(16, dtype=torch.int64, device=x.device)
        res = launch.compiled_resources(_KERNELS[kernel_name], _args(kernel_name, x, y_stand_in, slots_stand_in),
                                        num_warps=warps, maxnreg=maxnreg, limits=limits, **constexprs)
        _RESOURCES[key] = res
    return res


def plan(x: torch.Tensor, op: str, variant: str = "auto") -> dict:
    """The kernel and every launch parameter `run` uses for `op`/`variant` on `x`.

    On a GPU this compiles the kernel (once per configuration) to size the persistent
    grid from its register and shared-memory use; the dict then also reports n_regs,
    n_spills, shared (bytes), programs_per_sm and what limits it.
    """
    rows, cols = x.shape
    align = _row_align(x)
    paired = _paired(x, align)
    on_gpu = x.device.type == "cuda" and not interpreting()
    limits = launch.device_limits(x.device.index) if on_gpu else None
    sm_count = limits.sm_count if on_gpu else None
    kernel = (_auto_kernel(cols, x.dtype, align, paired, sm_count) if variant == "auto"
              else variant)
    why = why_unsupported(x, op, kernel)
    if why is not None:
        raise ValueError(why)
    maxnreg = None
    if kernel == "fused":
        constexprs, warps, maxnreg = _fused_params(rows, cols, x.element_size(), paired, sm_count)
        units = triton.cdiv(rows, constexprs["ROWS"])  # row blocks
    elif kernel == "split":
        constexprs, warps = _split_params(cols, x.element_size(), align, interpreted=not on_gpu)
        units = rows  # groups of SPLIT programs
    else:
        constexprs, warps = _online_params(cols, align, interpreted=not on_gpu)
        units = rows
    constexprs.update(ALIGN=align, LOG_SOFTMAX=op == "log_softmax")
    if kernel == "fused":  # pairs.py: inline PTX on the GPU, plain Triton when interpreted
        constexprs.update(BF16=x.dtype == torch.bfloat16, SEGMENTS=_segments(constexprs, cols),
                          ASM=on_gpu)
    out = {"op": op, "variant": variant, "kernel": kernel, "kernel_fn": f"_softmax_{kernel}_kernel",
           "rows": rows, "cols": cols, "dtype": x.dtype, "constexprs": constexprs,
           "num_warps": warps, "maxnreg": maxnreg}
    if not on_gpu:
        # Interpreter: no SMs to fill, one program per unit of work (`split`: a few, so
        # that each loops over rows; SPLIT is 1 there).
        out["grid"] = min(units, INTERPRET_SPLIT_PROGRAMS) if kernel == "split" else units
        return out
    with torch.cuda.device(limits.index):
        res = _resources(kernel, x, constexprs, warps, maxnreg, limits)
        if maxnreg and res.n_spills:
            # The cap is a bet on ptxas fitting the tile in it, which depends on its
            # version (Triton 3.6's spills fp16 32768 at 64): spilling is worse than the
            # residency the cap buys, so such a configuration runs uncapped.
            maxnreg = None
            out["maxnreg"] = None
            res = _resources(kernel, x, constexprs, warps, maxnreg, limits)
    grid, per_sm = _persistent_grid(kernel, units, cols * x.element_size(), res.programs_per_sm,
                                    limits, group=constexprs.get("SPLIT", 1))
    out.update(grid=grid, programs_per_sm=per_sm, occupancy_limited_by=res.limited_by,
               sm_count=limits.sm_count, n_regs=res.n_regs, n_spills=res.n_spills,
               shared=res.shared)
    return out


def _persistent_grid(kernel: str, units: int, row_bytes: int, resident_per_sm: int,
                     limits: launch.DeviceLimits, group: int = 1) -> tuple[int, int]:
    """(programs, programs per SM) for `units` row blocks (fused) or rows (online, split:
    in groups of `group` = SPLIT programs)."""
    per_sm = resident_per_sm
    if kernel == "fused":
        # One program per row block, not one resident wave that loops: measured on an
        # H200 (1 GiB inputs), the one-shot grid reaches 92-94% of copy bandwidth in fp32
        # and 95-99% in bf16 for widths 128-16384, against 86-92% for the persistent
        # loop, whose programs wait on their own stores before loading the next tile.
        # (_launch lays the programs out on a 2-D grid past MAX_GRID.)
        return max(1, units), per_sm
    if kernel == "split":
        # Every program of the grid must be resident at once (a group's programs wait for
        # each other): whole groups of SPLIT programs, as many as fit, at most one per row.
        groups = max(1, min(units, limits.sm_count * per_sm // group))
        return groups * group, per_sm
    if kernel == "online":
        # Every program keeps one row live between its two passes: limit the programs so
        # those rows fit in the L2 budget, but never below one per SM (an idle SM costs
        # more than re-reading from DRAM).
        budget = int(limits.l2_bytes * ONLINE_L2_FRACTION)
        per_sm = max(1, min(per_sm, budget // max(1, row_bytes * limits.sm_count)))
    return max(1, min(units, limits.sm_count * per_sm)), per_sm


# -- op-module interface ------------------------------------------------------------------

def why_unsupported(x: torch.Tensor, op: str, variant: str) -> str | None:
    """None when `variant` serves `x`; else why not. `online` and `auto` take any width."""
    cols, align = x.shape[1], _row_align(x)
    if variant == "split":
        if x.device.type != "cuda" or interpreting():
            return None
        sm_count = launch.device_limits(x.device.index).sm_count
        if _split_fits(cols, x.element_size(), align, sm_count):
            return None
        split, chunk = _split_chunks(cols, x.element_size(), align, False)
        return (f"triton variant 'split' holds a row in {split} programs of {chunk} columns that "
                f"must all be resident at once; this GPU has {sm_count} SMs, so rows up to "
                f"{sm_count * chunk} columns; this row has {cols} (use 'online' or 'auto')")
    if variant != "fused":
        return None
    limit = _fused_max_cols(x)
    if cols <= limit:
        return None
    if align > 1:
        return (f"triton variant 'fused' keeps a whole row in registers, at most {limit} columns "
                f"of {x.dtype}{' held in pairs' if _paired(x, align) else ''}; this row has {cols} "
                f"(use 'online' or 'auto')")
    return (f"triton variant 'fused' keeps a whole row in registers; rows with an odd width "
            f"or row stride load element by element and fit up to {FUSED_MAX_COLS_ODD} "
            f"columns; this row has {cols} (use 'online' or 'auto')")


def _launch(x: torch.Tensor, p: dict) -> torch.Tensor:
    """Launch the kernel `p` (from `plan`) on `x`; returns the new (rows, cols) output."""
    y = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    slots = None
    if p["kernel"] == "split":  # exchange words, fresh per call (-1: not yet published)
        slots = torch.full((x.shape[0], p["constexprs"]["SPLIT"]), -1, dtype=torch.int64, device=x.device)
    grid = (p["grid"],)
    if p["kernel"] == "fused" and p["grid"] > MAX_GRID:  # one-shot: a 2-D grid past CUDA's x limit
        grid = (MAX_GRID, triton.cdiv(p["grid"], MAX_GRID))
    options = {"num_warps": p["num_warps"]}
    if p.get("maxnreg"):
        options["maxnreg"] = p["maxnreg"]
    guard = torch.cuda.device(x.device) if x.device.type == "cuda" else contextlib.nullcontext()
    with guard:  # Triton launches on the current device and its current stream
        _KERNELS[p["kernel"]][grid](*_args(p["kernel"], x, y, slots), **options, **p["constexprs"])
    return y


def run(x: torch.Tensor, op: str, variant: str = "auto") -> torch.Tensor:
    """`op` ("softmax" / "log_softmax") of a canonical 2-D tensor: a new contiguous
    tensor of the same shape and dtype."""
    if x.numel() == 0:
        return torch.empty(x.shape, dtype=x.dtype, device=x.device)
    return _launch(x, plan(x, op, variant))
