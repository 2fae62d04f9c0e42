"""Softmax `split`: a row too wide for one program's registers, cut over programs that
wait for each other.

Each chunk of a row is held in one program's registers; the programs of a row publish
their chunk's (max, sum) as one 64-bit word in global memory and wait for each other's,
so each element is still read once and written once. That wait needs every program
resident at once: a persistent grid sized from the compiled kernel's occupancy (`grid`).
Each program loads its chunk of the next row before it waits; or, in the REREAD form
(log-softmax's backward from 64K 16-bit / 128K fp32 columns; softmax's 16-bit backward
from 64K columns on GPUs of more DRAM bandwidth per SM, from 512K on others; the fp32
forward at 256K-512K columns on the former: SPLIT_[BWD_]REREAD_VALUES), holds nothing
across the wait and reads its chunk again from L2 after it, so that more programs fit an
SM. Chunks are 16 KiB (8 KiB for many 16-bit forward rows of at most 32 of them), wider
(to 64 KiB: 16384 fp32 values, 32768 16-bit ones) where a row has more of them than the
GPU has SMs: rows up to a power of two of such chunks, at most one per SM (fp32 2097152
columns on a 132-SM GPU); `why_unsupported` says so past that. How many values a thread
holds (by element size) decides how many programs, and so how many bytes of chunks, an
SM keeps resident: the speed follows that.

Rows that start off a 16-byte boundary (odd widths) are read as head, whole 16-byte
vectors and tail where x's and the output's rows share their offsets (row_edges.py,
EDGES): the chunks cut the rows' bodies, the first program of a row takes its head and
tail, and the geometry is the aligned rows' (`load_align`).

The exchange words live in a buffer kept per device and stream (`exchange_words`), all
-1 between launches: the last program of each group to finish puts its group's words
back to -1, so a call launches one kernel and no fill (a fill was a second launch and
most of a few-row call's host time), and the plan's launch can be bound once (the
`direct` path of softmax.run).

The backward (`BACKWARD`) cuts rows of y and dy the same way: each program holds a
chunk of both, publishes its part of the row's sum (one fp32 in a 64-bit word) and waits
for its group's; chunks of each tensor are 16 KiB (fp32) or 8 KiB (16-bit), 32 values of
each per thread (rows up to 128 chunks of at most 8192 values, the largest power of two
at most the SM count: 1048576 columns on a 132-SM GPU).
"""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from . import downcast, launch, row_edges, softmax_rows
from .softmax_rows import LN2, LOG2E

# Register and spill figures quoted below are ptxas's for sm_90 (Triton 3.6 and 3.9).

# Measurements quoted below: NVIDIA H200, 1 GiB inputs, % of the copy bandwidth, runs
# of benchmarks/tuning/h200_tuning_triton_pairs_2026-11-21.txt unless another file is named.

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
# with evict-first loads (benchmarks/tuning/h200_tuning_split_tma_2026-11-21.txt), requesting two
# rows ahead instead of one measured lower too (bf16: 55-63, the extra chunk costs bf16
# its second program per SM).
SPLIT_WHOLE_ROW_BYTES = 64 * 1024
SPLIT_CHUNK_BYTES = {4: 16 * 1024, 2: 16 * 1024}
SPLIT_CHUNK_ODD = 4096
# Many 16-bit rows of at most SPLIT_NARROW_MAX_SPLIT chunks of SPLIT_NARROW_CHUNK_BYTES
# take those: 4096 values at 128 a thread, one warp, 8 programs per SM where 16 KiB
# chunks hold 4 (Triton 3.6). 1 GiB, % of copy, 16 KiB -> 8 KiB chunks (benchmarks/
# h100_2026-11-26b/, h200_2026-11-26b/split_geometry_fwd*_b34a853.txt): bf16 / fp16 65536
# H100 92.8 / 93.1 -> 95.3 / 95.4, H200 86.3 / 86.7 -> 92.0 / 92.4; 131072 H100 94.1 /
# 94.1 -> 95.8 / 95.9, H200 87.3 / 88.7 -> 91.0 / 92.2; at 262144 (64 chunks) bf16 tied
# and fp16 lost (H100 95.0 -> 93.5, H200 85.3 -> 82.6). fp32 lost at 8 KiB (H200 131072
# 90.8 -> 81.7). Few rows (`few_rows`) keep SPLIT_CHUNK_BYTES.
SPLIT_NARROW_CHUNK_BYTES = {4: None, 2: 8 * 1024}
SPLIT_NARROW_MAX_SPLIT = 32
# Values of a chunk per thread, by element size (warps = chunk / (32 x these)). What
# sets the speed is how many bytes of chunks an SM keeps resident (a chunk's bytes x
# programs per SM, the registers deciding the latter): 16-bit chunks of 16 KiB at 32
# values per thread (8 warps, 91 registers) kept 2 programs, 32 KiB, per SM; at 128 (2
# warps, 247 registers) 4 programs, 64 KiB, as fp32's 16 KiB chunks at 32 values do.
# H100, 1 GiB, % of copy, 131072 / 262144 / 524288 columns, 32 values -> 128
# (benchmarks/h100_2026-11-25/split_geometry_fwd_3fbefc9.txt): bf16 79.7 / 69.3 / 75.4
# -> 93.9 / 95.2 / 91.6, fp16 76.3 / 69.8 / 74.6 -> 94.0 / 94.7 / 91.5. In a run whose
# log was lost, 64 values (4 warps, 3 programs) came between (H100 90.4 / 90.4 / 82.0)
# and fp32 at 64 values (2 warps, 4 programs) measured the same as at 32.
SPLIT_VALUES_PER_THREAD = {4: 32, 2: 128}
# Odd rows (element by element, SPLIT_CHUNK_ODD-element chunks) at any element size.
SPLIT_VALUES_PER_THREAD_ODD = 32
# ptxas register cap per element size (None: none); a cap that spills is dropped
# (softmax.plan compiles the kernel uncapped then).
SPLIT_MAX_REGISTERS = {4: None, 2: None}
# 128 values per thread is near the 255 registers a thread may have, and how many
# ptxas needs depends on its version (Triton 3.6's spilled 2 bytes in one of the
# configurations above, bf16 524288, which still measured 91.2 against 82.0 at 64
# values; Triton 3.9's spills hundreds of bytes in all of them, compiled for sm_90
# without a GPU). So where the compiled kernel spills more than this, the plan spreads
# the chunk over twice the warps (half the values per thread) and compiles again
# (`respread`).
SPLIT_SPILL_BYTES_TOLERATED = 16
# Rows with more 16 KiB chunks than the GPU has SMs (fp32 past 540672 columns on 132 SMs)
# take wider chunks (more warps, the same values per thread), so that a group still fits
# one program per SM, instead of leaving `split` for `online` (a program per row: a few
# rows then use a few SMs; 1 x 1048576 fp32 took 196 us on the H100 against 9.1 us in 128
# chunks of 32 KiB; at 1 GiB 77.7 against online's 62.4, benchmarks/h100_2026-11-24/
# wide_{latency,fwd}_e88a101.md). Chunks of at most 64 KiB: fp32 at 16 warps (at 32,
# 16-bit chunks of 64 KiB at 32 values a thread, ptxas allowed 64 registers a thread
# and spilled 10-12 bytes: sm_90, that run's GPU tests), 16-bit at 8 (128 values a
# thread need about 250 registers: 8 warps is the most an SM's 64 Ki registers hold).
SPLIT_MAX_CHUNK_VALUES = {4: 16384, 2: 32768}
SPLIT_MAX_WARPS = 32
# How many of a row's SPLIT_CHUNK_BYTES chunks an SM may be given before the chunks
# widen: 1, a group over at most as many programs as SMs (fp32 1048576 columns: 128
# chunks of 32 KiB at 8 warps, 120 registers, 2 programs per SM). Past 1, rows keep
# narrower chunks over more programs than SMs (fp32 1048576: 256 of 16 KiB at 4 warps,
# 112-114 registers, 4 per SM, the geometry of 524288), which the plan keeps only where
# the compiled kernel holds a whole group (`regroup`: else the chunks widen again).
# Registers: Triton 3.6, sm_90 (benchmarks/tuning/triton_registers.py). Measured at 4
# (H100, 1 GiB, % of copy, 1 -> 4: benchmarks/h100_2026-11-25/split_fine_chunks_
# {softmax,log_softmax}_c370b77.txt): 1048576 softmax fp32 85.1-85.3 -> 86.7 (2 -> 4 per
# SM), log-softmax 83.2-83.6 -> 83.8, 16-bit 86.8-87.9 either way (already 4 per SM);
# 524288 the same plans. Within a point or two: the finer cut is not what the widest rows
# lack, and 1 stays.
SPLIT_CHUNKS_PER_SM = 1
# Few rows (all their SPLIT_CHUNK_BYTES chunks fit one program per SM): rows past this
# many bytes are cut into chunks, not held whole up to SPLIT_WHOLE_ROW_BYTES (`few_rows`).
SPLIT_FEW_ROWS_WHOLE_ROW_BYTES = 64 * 1024
# Where the forward's next-row loads go (NEXT_EARLY): before the chunk's (max, sum), or
# after it is published. Which form is faster follows what ptxas makes of it, so the plan
# compiles both (`forms`) and keeps the one that holds more programs per SM or, as many,
# spills less; at a tie, the late form for rows of at least this many chunks (by
# LOG_SOFTMAX). H100, 1 GiB, % of copy, early / late / as planned
# (benchmarks/h100_2026-11-25/split_forms_fwd_{softmax,log_softmax}_67dccc3.txt, registers
# and programs per SM beside each): softmax fp32 524288 / 1048576 88.0 / 77.9 -> 91.9 /
# 85.5 at equal residency, and 65536 / 131072 late at 5 programs per SM (96 registers)
# where early holds 4 (111); softmax 16-bit below 64 chunks even or early at a tie (fp16
# 262144 95.3 early, 92.8 late), and bf16's late form spilled there (184 bytes, spread
# over 4 warps: 3 programs per SM, 90.4 against 93.0). Log-softmax 16-bit gained late at
# any width at a tie: bf16 65536 / 131072 / 262144 88.5 / 89.3 / 87.0 -> 92.9 / 93.7 /
# 93.1 (fp16 alike), 1048576 84.3 -> 86.8; its fp32 262144 keeps early by residency (95
# registers, 5 per SM: 95.2 against 91.5 late at 4). As planned by this rule (split_forms_
# log_softmax_bf41ec6.txt): log-softmax fp32 262144 94.8, bf16 65536 / 131072 / 262144
# 92.9 / 93.8 / 93.2.
SPLIT_NEXT_LATE_MIN_SPLIT = {False: 64, True: 1}
# The REREAD form (both kernels): no chunk held across the exchange's wait, each read
# again after it from L2 (the rows in flight are far smaller than L2), so that a program
# needs fewer registers and an SM keeps more programs in flight: for rows of SPLIT x
# CHUNK values within SPLIT_REREAD_VALUES[LOG_SOFTMAX] (None: never), the only form the
# plan compiles there. SPLIT_REREAD: 2 keeps a chunk's first read in L2 until its second
# (evict_last, then evict_first); 1 reads both with the default policy. H100, 1 GiB, % of
# copy, the held form as planned against REREAD 2 / 1 (benchmarks/h100_2026-11-25/
# split_reread_*_8588272.txt, registers and programs per SM beside each): the forward
# loses at every width but log-softmax fp32 524288 (softmax fp32 131072-1048576 95.9 /
# 92.6 / 92.0 / 85.3 -> 91.1 / 89.9 / 91.7 / 82.3, bf16 1048576 87.9 -> 60.9; log-softmax
# fp32 524288 91.3 -> 92.2), so it holds; REREAD 1 lost to 2 nearly everywhere (fp32
# 131072 73.0 against 91.1). More programs in flight did not help the 1048576-column rows
# (6 per SM against 2: 82.3 against 85.3), which is why the held form stays there; nor in
# the plan's own chunks (split_reread_wide_{softmax,log_softmax}_h100_48a3f22.txt: softmax
# fp32 1048576 85.3 -> 80.1, 16-bit 87.6-87.9 -> 60.2-61.0; log-softmax alike).
# By element size, then LOG_SOFTMAX; SPLIT_REREAD_VALUES_FAST_SM on GPUs of
# SPLIT_FAST_SM_BANDWIDTH or more per SM (`fast_sm`), whose SMs need more bytes in flight
# to keep their share of the DRAM busy: there the REREAD form's extra programs per SM
# win for fp32 rows of 262144-524288 columns. H200 (37 GB/s per SM), 1 GiB, % of copy,
# held as planned -> REREAD (benchmarks/h200_2026-11-26b/split_geometry_fwd*_b34a853.txt):
# fp32 262144 / 524288 / 1048576 77.7 / 78.5 / 70.5 -> 85.2 / 82.2 / 68.1; the H100 (25
# GB/s per SM) the same call: 92.2 / 91.8 / 84.9 -> 89.8 / 91.7 / 80.1 (h100_2026-11-26b/).
SPLIT_REREAD_VALUES = {4: {False: None, True: None}, 2: {False: None, True: None}}
SPLIT_REREAD_VALUES_FAST_SM = {4: {False: (262144, 524288), True: None}, 2: {False: None, True: None}}
# Odd rows (ALIGN 1, element by element): never measured in the REREAD form.
SPLIT_REREAD_VALUES_ODD = {False: None, True: None}
SPLIT_REREAD = 2
# DRAM bandwidth per SM (bytes/s) from which a GPU takes the *_FAST_SM rules: between the
# H100's 25 GB/s (3.35 TB/s over 132 SMs) and the H200's 37 (4.8 TB/s), as the CUDA
# backend's kSplitGradFastSmBandwidth.
SPLIT_FAST_SM_BANDWIDTH = 30 * 10**9
# Under the interpreter programs run one after another, so a program waiting for a later
# one would wait forever: there every row is one chunk (SPLIT = 1, nothing exchanged;
# the tests force SPLIT > 1 with every word pre-published), on this many programs so
# that each loops over several rows and its next-row loads.
INTERPRET_SPLIT_PROGRAMS = 2

@triton.jit
def _pair_word(m, d):
    # (max, sum) of a chunk as one int64, so that one 64-bit store publishes both: d's
    # bits high, m's low. |d| clears the sign of a NaN sum (d is otherwise >= +0), so a
    # published word is never negative and the slots' initial -1 means "not yet".
    d_bits = tl.abs(d).to(tl.int32, bitcast=True).to(tl.int64)
    m_bits = m.to(tl.int32, bitcast=True).to(tl.int64) & 0xFFFFFFFF
    return (d_bits << 32) | m_bits


@triton.jit
def _word_pairs(words):
    # The (max, sum) pairs of published words, `_pair_word`'s inverse.
    return ((words & 0xFFFFFFFF).to(tl.int32).to(tl.float32, bitcast=True),
            (words >> 32).to(tl.int32).to(tl.float32, bitcast=True))


@triton.jit
def _merge_pairs(part_max, part_sum):
    # The row's (max, sum) from its chunks' pairs, in slot order (the same in every
    # program of the row): a chunk of only -inf adds 0 * exp(-inf) = 0; a row of only
    # -inf gets row_max = -inf and NaN from -inf - -inf, as torch; NaN sums stay NaN.
    row_max = tl.max(part_max, axis=0)
    return row_max, tl.sum(part_sum * tl.exp2((part_max - row_max) * LOG2E), axis=0)


@triton.jit
def _release_group_words(slot_ptr, group, n_groups, n_rows, SPLIT: tl.constexpr):
    # Called by every program of a group after its last row. The words are -1 between
    # launches: the last program of the group to arrive (its group's arrival word, after
    # the rows' words, counts from -1) puts the group's row words and the arrival word
    # back to -1. acq_rel: the others' reads of the words happen before its stores. Rows
    # RESET_ROWS at a time (a group's rows are n_groups apart): a few stores, not a loop
    # over every row, at the end of the kernel. At most 8192 words a step: their tile
    # sets the kernel's registers past 128 chunks (fp32 chunks of 4096 at SPLIT 256: 206
    # registers with 64 rows a step, 112-114 with 32; Triton 3.6, sm_90).
    RESET_ROWS: tl.constexpr = 64 if SPLIT <= 128 else 8192 // SPLIT
    arrival = slot_ptr + tl.cast(n_rows, tl.int64) * SPLIT + group
    if tl.atomic_add(arrival, 1, sem="acq_rel", scope="gpu") == SPLIT - 2:
        parts = tl.arange(0, SPLIT)
        ks = tl.arange(0, RESET_ROWS)
        for k0 in tl.range(0, tl.cdiv(n_rows - group, n_groups), RESET_ROWS):
            rows = group + (k0 + ks).to(tl.int64) * n_groups
            tl.store(slot_ptr + rows[:, None] * SPLIT + parts[None, :], tl.full((RESET_ROWS, SPLIT), -1, tl.int64),
                     mask=(rows < n_rows)[:, None])
        tl.atomic_xchg(arrival, -1, sem="relaxed", scope="gpu")


@triton.jit
def _row_part(row, n_cols, row_stride, ref_stride, EDGES: tl.constexpr):
    # (offset, width) of what a group's chunks of `row` cover in a tensor of `row_stride`:
    # the row; with EDGES its body of whole 16-byte vectors (row_edges.py), as the rows
    # of the tensor of `ref_stride` (x, or the backward's y) split it.
    if EDGES:
        body_start, _, body = row_edges.split_row(tl.cast(row, tl.int64) * ref_stride, n_cols, EDGES)
        return row_edges.moved(body_start, row, ref_stride, row_stride, EDGES), body
    else:
        return tl.cast(row, tl.int64) * row_stride, n_cols


@triton.jit
def _edge_part(row, n_rows, n_cols, row_stride, ref_stride, edge, part, EDGES: tl.constexpr):
    # (offsets, mask) of the head and tail values of `row` (row_edges.py) in a tensor
    # of `row_stride`: `edge` = 0 .. 2 EDGES - 1, the row's first program's alone (the
    # others' masks are empty: no edge values), none past the last row.
    _, head, body = row_edges.split_row(tl.cast(row, tl.int64) * ref_stride, n_cols, EDGES)
    count = tl.where((row < n_rows) & (part == 0), n_cols - body, 0)
    return tl.cast(row, tl.int64) * row_stride + row_edges.edge_columns(edge, head, body), edge < count


@triton.jit
def _load_chunk(x_ptr, row, n_rows, n_cols, x_row_stride, cols, EVICT: tl.constexpr, EDGES: tl.constexpr):
    # This program's chunk of `row` (EDGES: of its body); nothing (all -inf, no traffic)
    # past the last row: the mask bound is then 0 columns. EVICT: the L2 eviction policy
    # ("": default).
    start, width = _row_part(row, n_cols, x_row_stride, x_row_stride, EDGES)
    return tl.load(x_ptr + start + cols, mask=cols < tl.where(row < n_rows, width, 0), other=-float("inf"),
                   eviction_policy=EVICT)


@triton.jit
def _load_edges(x_ptr, row, n_rows, n_cols, x_row_stride, edge, part, EVICT: tl.constexpr, EDGES: tl.constexpr):
    # The head and tail values of `row` beside the chunks (`_edge_part`), -inf where none.
    offsets, mask = _edge_part(row, n_rows, n_cols, x_row_stride, x_row_stride, edge, part, EDGES)
    return tl.load(x_ptr + offsets, mask=mask, other=-float("inf"), eviction_policy=EVICT)


@triton.jit
def _load_row(x_ptr, row, n_rows, n_cols, x_row_stride, cols, part, EVICT: tl.constexpr, EDGES: tl.constexpr):
    # This program's chunk of `row` and, with EDGES, its head and tail values (the chunk
    # stands in for those without: never read then).
    x = _load_chunk(x_ptr, row, n_rows, n_cols, x_row_stride, cols, EVICT, EDGES)
    if EDGES:
        x_edges = _load_edges(x_ptr, row, n_rows, n_cols, x_row_stride, tl.arange(0, 2 * EDGES), part, EVICT, EDGES)
    else:
        x_edges = x
    return x, x_edges


@triton.jit
def _split_output(xf, e, m, row_max, row_sum, LOG_SOFTMAX: tl.constexpr, REREAD: tl.constexpr):
    # The output of values xf (their exps relative to the chunk's max m: e) given the
    # row's max and sum: log-softmax; softmax from the values read again (REREAD); or
    # from the exps held, exp(x - m) * exp(m - row_max) / row_sum (0 for a chunk of only
    # -inf). A row of only -inf gets NaN either way, as torch.
    if LOG_SOFTMAX:
        y = (xf - row_max) - tl.log2(row_sum) * LN2
    elif REREAD:
        y = tl.exp2((xf - row_max) * LOG2E) * (1.0 / row_sum)
    else:
        y = e * (tl.exp2((m - row_max) * LOG2E) / row_sum)
    return y


@triton.jit
def _softmax_split_kernel(x_ptr, y_ptr, slot_ptr, n_rows, n_cols, x_row_stride, y_row_stride,
                          LOG_SOFTMAX: tl.constexpr, SPLIT: tl.constexpr, CHUNK: tl.constexpr,
                          ALIGN: tl.constexpr, NEXT_EARLY: tl.constexpr, REREAD: tl.constexpr,
                          EDGES: tl.constexpr, INTERPRETER: tl.constexpr):
    # Grid: persistent, a multiple of SPLIT programs, ALL resident at once (the launcher
    # sizes it from the occupancy of the compiled kernel): program p is chunk p % SPLIT
    # of rows g, g + n_groups, ... with g = p // SPLIT, and waits for the other SPLIT - 1
    # programs of its group on every row (SPLIT 1: a whole row per program, no exchange).
    # slot_ptr: int64 [n_rows * SPLIT + n_groups], all -1 (`exchange_words`; left so).
    # Per row: each element read once and written once. INTERPRETER: Triton's CPU
    # interpreter (bf16 rounded in the fp32 bits, downcast.py).
    # REREAD 2: a chunk's first read is kept in L2 (evict_last) until its second, which
    # lets it go (evict_first); REREAD 1: the default policy for both.
    # EDGES > 0: rows off the 16-byte alignment (row_edges.py): the chunks cut the row's
    # body of whole vectors of EDGES values, loaded and stored 16 bytes at a time, and
    # the row's first program also takes its head and tail values (`x_edges`, -inf in
    # the others' masks), in its chunk's pair and its output.
    FIRST_READ: tl.constexpr = "evict_last" if REREAD == 2 else ""
    SECOND_READ: tl.constexpr = "evict_first" if REREAD == 2 else ""
    pid = tl.program_id(0)
    n_groups = tl.num_programs(0) // SPLIT
    group = pid // SPLIT
    part = pid % SPLIT
    n_cols, x_row_stride, y_row_stride = softmax_rows.aligned_sizes(n_cols, x_row_stride, y_row_stride, ALIGN)
    cols = part * CHUNK + tl.arange(0, CHUNK)
    parts = tl.arange(0, SPLIT)
    if EDGES:
        edge = tl.arange(0, 2 * EDGES)
    if not REREAD:
        x, x_edges = _load_row(x_ptr, group, n_rows, n_cols, x_row_stride, cols, part, "", EDGES)
    for row in tl.range(group, n_rows, n_groups):
        # The next row's chunk is requested before this row's exchange is waited for, so
        # that this program has loads in flight while it waits for its slowest partner:
        # before the chunk's (max, sum) (NEXT_EARLY), or after it is published
        # (SPLIT_NEXT_LATE_MIN_SPLIT, `forms`). REREAD (SPLIT_REREAD_VALUES): no
        # chunk is held across the wait; the chunk is read again after it, from L2, so
        # that fewer registers hold more programs, and rows, in flight on each SM.
        if REREAD:
            x, x_edges = _load_row(x_ptr, row, n_rows, n_cols, x_row_stride, cols, part, FIRST_READ, EDGES)
        if NEXT_EARLY:
            x_next, x_edges_next = _load_row(x_ptr, row + n_groups, n_rows, n_cols, x_row_stride, cols, part, "",
                                             EDGES)
        xf = x.to(tl.float32)
        # The chunk's pair, exponents relative to its own max (0 for a chunk of only -inf,
        # whose pair is then (-inf, 0)). NaN and +inf make d NaN, as in `fused`.
        m = tl.max(xf, axis=0)
        if EDGES:
            xf_edges = x_edges.to(tl.float32)
            m = tl.maximum(m, tl.max(xf_edges, axis=0))
        e = tl.exp2((xf - tl.where(m == -float("inf"), 0.0, m)) * LOG2E)
        d = tl.sum(e, axis=0)
        if EDGES:
            e_edges = tl.exp2((xf_edges - tl.where(m == -float("inf"), 0.0, m)) * LOG2E)
            d += tl.sum(e_edges, axis=0)
        if SPLIT > 1:
            row_slots = slot_ptr + tl.cast(row, tl.int64) * SPLIT
            tl.atomic_xchg(row_slots + part, _pair_word(m, d), sem="relaxed", scope="gpu")
        if not NEXT_EARLY and not REREAD:
            x_next, x_edges_next = _load_row(x_ptr, row + n_groups, n_rows, n_cols, x_row_stride, cols, part, "",
                                             EDGES)
        if SPLIT > 1:
            # Wait until every chunk of the row has published (volatile: not from L1).
            words = tl.load(row_slots + parts, volatile=True)
            while tl.min(words, axis=0) < 0:
                words = tl.load(row_slots + parts, volatile=True)
            part_max, part_sum = _word_pairs(words)
            row_max, row_sum = _merge_pairs(part_max, part_sum)
        else:
            row_max = m
            row_sum = d
        if REREAD:
            xr, xr_edges = _load_row(x_ptr, row, n_rows, n_cols, x_row_stride, cols, part, SECOND_READ, EDGES)
            xf = xr.to(tl.float32)
            if EDGES:
                xf_edges = xr_edges.to(tl.float32)
        y = _split_output(xf, e, m, row_max, row_sum, LOG_SOFTMAX, REREAD)
        y_start, y_width = _row_part(row, n_cols, y_row_stride, x_row_stride, EDGES)
        tl.store(y_ptr + y_start + cols, downcast.rounded(y, y_ptr.dtype.element_ty, INTERPRETER),
                 mask=cols < y_width)
        if EDGES:
            # The head and tail as the chunk (the first program's).
            y_edges = _split_output(xf_edges, e_edges, m, row_max, row_sum, LOG_SOFTMAX, REREAD)
            offsets, edge_mask = _edge_part(row, n_rows, n_cols, y_row_stride, x_row_stride, edge, part, EDGES)
            tl.store(y_ptr + offsets, downcast.rounded(y_edges, y_ptr.dtype.element_ty, INTERPRETER),
                     mask=edge_mask)
        if not REREAD:
            x = x_next
            if EDGES:
                x_edges = x_edges_next
    if SPLIT > 1:
        _release_group_words(slot_ptr, group, n_groups, n_rows, SPLIT)



# -- backward ----------------------------------------------------------------------------------

# The backward's chunks, of y and of dy: 32 values of each per thread at 4 warps (fp32
# chunks of 16 KiB, 16-bit of 8 KiB), where they were 16 values at 8 KiB chunks (fp32 4
# warps, 16-bit 8): as in the forward, the bytes an SM keeps resident decide (16-bit at
# 16 values: 2 programs of 8 warps per SM; at 32 values 3-4 of 4 warps). H100, 1 GiB, %
# of copy, softmax's backward, 65536 / 131072 / 262144 / 524288 columns, 16 values ->
# 32 (benchmarks/h100_2026-11-25/split_geometry_bwd_3fbefc9.txt): fp32 97.8 / 98.8 /
# 95.4 / 75.9 -> 97.6 / 98.9 / 99.2 / 95.0, fp16 76.6 / 72.8 / 77.2 / 69.3 -> 97.9 /
# 92.0 / 94.7 / 91.1, bf16 82.2 / 72.4 / 76.7 / 69.9 -> 78.6 / 76.2 / 95.1 / 91.4. bf16
# stayed low below 262144 columns: with the next row's loads issued before the row's
# sum, Triton 3.6's ptxas took 189 registers (2 programs per SM) where fp16's took 157;
# issued after the row's part is published (the kernel above), 160 (3 per SM): bf16
# 96.2 / 91.9 / 95.7 / 91.7, fp16 87.6 / 90.4 / 95.7 / 91.5 (fp16 lost 65536 and
# 131072 at the same occupancy), log-softmax gained everywhere (triton_bwd_*.md).
# 64 values of each (2 warps) spilled 102 bytes (bf16) below 262144 columns.
SPLIT_BWD_WHOLE_ROW_BYTES = SPLIT_WHOLE_ROW_BYTES // 2
SPLIT_BWD_CHUNK_BYTES = {4: 16 * 1024, 2: 8 * 1024}
SPLIT_BWD_CHUNK_ODD = SPLIT_CHUNK_ODD // 2
SPLIT_BWD_VALUES_PER_THREAD = {4: 32, 2: 32}
SPLIT_BWD_VALUES_PER_THREAD_ODD = SPLIT_VALUES_PER_THREAD_ODD // 2
SPLIT_BWD_MAX_REGISTERS = {4: None, 2: None}
# Widened chunks: at most 8192 values (8 warps at 32 values of each tensor a thread).
SPLIT_BWD_MAX_CHUNK_VALUES = {4: 8192, 2: 8192}
# As SPLIT_CHUNKS_PER_SM, for the backward: fp32 1048576 columns at 1 are 128 chunks of
# 8192 values at 8 warps, 174 registers, 1 program per SM (64 KiB of y and dy resident
# per SM); 256 of 4096 at 4 warps take 165-167, 3 per SM (96 KiB), the geometry that
# reaches 96% at 524288 (H100, triton_wide_auto_7257302.md) where 1048576 has 84.
# Measured at 4 (split_fine_chunks_{softmax,log_softmax}_backward_c370b77.txt): softmax
# fp32 84.0-84.6 -> 84.4 (1 -> 3 programs per SM), 16-bit 82.8-83.1 -> 83.3-83.5;
# log-softmax fp32 83.9-84.2 -> 84.4, 16-bit 81.7-82.2 -> 83.2-83.5: within a point or
# two, so 1 stays.
SPLIT_BWD_CHUNKS_PER_SM = 1
# Whole rows of fp16 (32 KiB at 32 values a thread: 16 warps) stop there: at 32 warps
# Triton 3.6's ptxas spilled 16 bytes (the H100 run of 2026-11-23).
SPLIT_BWD_MAX_WARPS_FP16 = 16
# Where the next row's loads go (NEXT_EARLY). Issued before the row's sum, they overlap
# its reduction; issued after the row's part is published, that part reaches the other
# programs sooner and ptxas holds fewer values across the sum (Triton 3.6, 16-bit chunks
# of 4096 values at 4 warps: 189 -> 160-161 registers, 2 -> 3 programs per SM; 8192 at
# 8 warps 136 -> 128, 1 -> 2; benchmarks/tuning/triton_registers.py). H100, 1 GiB, % of
# copy, early -> late (benchmarks/h100_2026-11-25/triton_bwd_{3fbefc9,7b1914e}.md): rows
# of 64 chunks and more gain late (softmax fp32 262144 / 524288 / 1048576 98.9 / 94.9 /
# 72.6 -> 99.4 / 96.1 / 84.2, fp16 1048576 75.1 -> 82.9, bf16 51.9 -> 82.8); fewer
# chunks lose it at equal occupancy (fp16 65536 / 131072 99.0 / 94.2 -> 87.6 / 90.4, fp32
# even), so they stay early unless that costs a program per SM or spills, the plan
# compiling both (`backward_forms`): bf16 65536 77.7 -> 96.2 (2 -> 3 programs),
# log-softmax fp16 94.2 -> 96.0 (16 bytes spilled early). As chosen (triton_bwd_forms_
# 58df80a.md, with each plan's form in triton_bwd_forms_plans_58df80a.txt): softmax fp16
# 65536 / 131072 98.7 / 93.8, bf16 96.7 / 92.5. Log-softmax, as its forward, gains late
# at a tie at any width (bf16 65536 at 3 programs per SM either way: early 91.3, late
# 95.6; fp32 even), so it prefers late everywhere (by LOG_SOFTMAX; each form forced, H100:
# benchmarks/h100_2026-11-25/split_forms_{softmax,log_softmax}_backward_bf41ec6.txt).
SPLIT_BWD_NEXT_LATE_MIN_SPLIT = {False: 64, True: 1}
# The backward's REREAD form, as the forward's (SPLIT_REREAD): y and dy read again after
# the wait; log-softmax's first read takes dy alone (its sum's only term), so a program
# holds half the bytes before the wait. Rows of SPLIT_BWD_REREAD_VALUES[LOG_SOFTMAX]
# values. H100, 1 GiB, % of copy, held as planned -> REREAD 2 (split_reread_*_8588272.txt):
# log-softmax bf16 131072 / 262144 / 524288 / 1048576 91.3 / 94.9 / 92.4 / 82.8 -> 96.6 /
# 97.2 / 97.0 / 74.5, fp32 99.0 / 99.2 / 96.2 / 83.7 -> 98.3 / 99.5 / 97.8 / 80.9; softmax
# (y and dy in both reads) gained bf16 131072 and 524288 (92.1 -> 95.1, 91.5 -> 93.5) but
# lost 262144 (95.9 -> 90.7) and fp32 everywhere (99.5 -> 89.3 at 262144), so it holds.
# Log-softmax again, three dtypes, as planned / held / REREAD at every width
# (split_reread_log_softmax_backward_h100_e19dace.txt): 65536 even or lower (fp32 97.9 /
# 97.9 / 97.0, fp16 96.3 / 96.2 / 95.2), so it holds there; 1048576 in the plan's own
# chunks of 8192 values (3 programs per SM against 1-2) gained (fp32 83.4-84.7 -> 86.2,
# bf16 82.2-82.7 -> 84.2, fp16 82.2-82.3 -> 84.4), where 4096-value chunks had lost. In
# the plan's own chunks softmax's backward at 524288 / 1048576 (split_reread_wide_
# softmax_backward_h100_48a3f22.txt): fp32 96.2 / 83.9 -> 93.0 / 85.4, 16-bit 91.7-92.9
# / 82.9-83.2 -> 93.6-93.7 / 71.7-72.0: mixed, so softmax's backward held then.
# 16-bit REREAD chunks at 64 values of each tensor a thread (SPLIT_BWD_REREAD_VALUES_PER_
# THREAD; half the warps, so more programs per SM) changed that, 1 GiB, % of copy, held
# as planned -> REREAD at 64 values (benchmarks/h100_2026-11-26b/, h200_2026-11-26b/
# split_geometry_*bwd*_b34a853.txt; REREAD at 32 values where 64 would leave fewer
# threads than chunks, see backward_forms):
#   log-softmax bf16 65536 / 131072 / 262144 / 524288 / 1048576: H100 95.3 / 96.8 / 97.1
#     / 97.6 / 82.2 -> 95.6 / 97.5 / 98.4 / 97.3 / 99.6, H200 82.7 / 90.8 / 88.6 / 81.8 /
#     73.5 -> 93.3 / 94.5 / 96.6 / 82.3 / 88.2 (fp16 alike): from 65536 on every GPU;
#   softmax bf16, same widths: H100 97.2 / 92.2 / 95.4 / 91.5 / 83.0 -> 95.1 / 95.5 / 86.0
#     / 93.1 / 89.9, H200 85.0 / 78.3 / 83.4 / 78.4 / 66.7 -> 90.4 / 87.8 / 89.6 / 81.9 /
#     85.2 (fp16 alike): from 65536 on GPUs of SPLIT_FAST_SM_BANDWIDTH per SM, from
#     524288 on others (the H100 also gains at 131072, but loses at 65536 and 262144);
#   softmax fp32 lost on the H200 (98.3 / 96.1 / 92.8 -> 89.6 / 91.0 / 90.7 at 65536-262144).
# By element size, then LOG_SOFTMAX.
SPLIT_BWD_REREAD_VALUES = {4: {False: None, True: (131072, 1 << 20)},
                           2: {False: (524288, 1 << 20), True: (65536, 1 << 20)}}
SPLIT_BWD_REREAD_VALUES_FAST_SM = {4: {False: None, True: (131072, 1 << 20)},
                                   2: {False: (65536, 1 << 20), True: (65536, 1 << 20)}}
SPLIT_BWD_REREAD_VALUES_PER_THREAD = {4: SPLIT_BWD_VALUES_PER_THREAD[4], 2: 64}
# Odd rows (ALIGN 1, element by element: SPLIT_BWD_CHUNK_ODD chunks) keep the ranges they
# had before the 16-bit ones widened (log-softmax's from 131072 values, any dtype): the
# runs above measured aligned rows only.
SPLIT_BWD_REREAD_VALUES_ODD = {False: None, True: (131072, 1 << 20)}
# REREAD counts on L2 holding every chunk between its two reads: at most the resident
# groups' rows (of x; of y and dy, of dy alone for log-softmax's backward). Where those
# would fill more than this share of the GPU's L2 (a GPU with a small L2 for its SMs),
# the plan takes the held forms instead (`held_forms`). The H100 plans above pend at most
# 15 MB of its 50 MB (log-softmax backward fp32 131072: 28 groups of 512 KiB of dy).
SPLIT_REREAD_L2_SHARE = 0.75


@triton.jit
def _sum_word(s):
    # A chunk's part of the row sum as one int64 (its fp32 bits, zero-extended): never
    # negative, so the slots' initial -1 means "not yet"; any float, NaN included.
    return s.to(tl.int32, bitcast=True).to(tl.int64) & 0xFFFFFFFF


@triton.jit
def _word_sums(words):
    # The parts of the row sum in published words, `_sum_word`'s inverse.
    return (words & 0xFFFFFFFF).to(tl.int32).to(tl.float32, bitcast=True)


@triton.jit
def _load_grad_chunk(ptr, row, n_rows, n_cols, row_stride, y_row_stride, cols, EVICT: tl.constexpr,
                     EDGES: tl.constexpr):
    # This program's chunk of `row` of y or dy (EDGES: of its body, as y's rows split
    # it); nothing (+0, no traffic) past the last row.
    start, width = _row_part(row, n_cols, row_stride, y_row_stride, EDGES)
    return tl.load(ptr + start + cols, mask=cols < tl.where(row < n_rows, width, 0), other=0.0,
                   eviction_policy=EVICT)


@triton.jit
def _load_grad_edges(ptr, row, n_rows, n_cols, row_stride, y_row_stride, edge, part, EVICT: tl.constexpr,
                     EDGES: tl.constexpr):
    # The head and tail values of `row` of y or dy beside the chunks (`_edge_part`), +0
    # where none.
    offsets, mask = _edge_part(row, n_rows, n_cols, row_stride, y_row_stride, edge, part, EDGES)
    return tl.load(ptr + offsets, mask=mask, other=0.0, eviction_policy=EVICT)


@triton.jit
def _load_grad_row(y_ptr, dy_ptr, row, n_rows, n_cols, y_row_stride, dy_row_stride, cols, part,
                   EDGES: tl.constexpr):
    # This program's chunks of `row` of y and dy and, with EDGES, their head and tail
    # values (the chunks stand in for those without: never read then).
    y = _load_grad_chunk(y_ptr, row, n_rows, n_cols, y_row_stride, y_row_stride, cols, "", EDGES)
    g = _load_grad_chunk(dy_ptr, row, n_rows, n_cols, dy_row_stride, y_row_stride, cols, "", EDGES)
    if EDGES:
        edge = tl.arange(0, 2 * EDGES)
        y_edges = _load_grad_edges(y_ptr, row, n_rows, n_cols, y_row_stride, y_row_stride, edge, part, "", EDGES)
        g_edges = _load_grad_edges(dy_ptr, row, n_rows, n_cols, dy_row_stride, y_row_stride, edge, part, "", EDGES)
    else:
        y_edges = y
        g_edges = g
    return y, g, y_edges, g_edges


@triton.jit
def _softmax_split_backward_kernel(y_ptr, dy_ptr, dx_ptr, slot_ptr, n_rows, n_cols, y_row_stride,
                                   dy_row_stride, dx_row_stride, LOG_SOFTMAX: tl.constexpr,
                                   SPLIT: tl.constexpr, CHUNK: tl.constexpr, ALIGN: tl.constexpr,
                                   NEXT_EARLY: tl.constexpr, REREAD: tl.constexpr, EDGES: tl.constexpr,
                                   INTERPRETER: tl.constexpr):
    # Grid: persistent, a multiple of SPLIT programs, ALL resident at once, as the
    # forward's: program p is chunk p % SPLIT of rows g, g + n_groups, ... (g = p //
    # SPLIT). slot_ptr: int64 [n_rows * SPLIT + n_groups], all -1 and left so, as the
    # forward's (SPLIT 1: unused, no exchange).
    # Per row: y and dy read once, dx written once; the parts of the sum are added in
    # slot order, so every program of a row gets the same sum.
    # REREAD 2: a chunk's first read is kept in L2 (evict_last) until its second, which
    # lets it go (evict_first); REREAD 1: the default policy for both.
    # EDGES > 0: rows off the 16-byte alignment, as the forward's: the chunks cut the
    # rows' bodies, the first program also takes the head and tail values.
    FIRST_READ: tl.constexpr = "evict_last" if REREAD == 2 else ""
    SECOND_READ: tl.constexpr = "evict_first" if REREAD == 2 else ""
    pid = tl.program_id(0)
    n_groups = tl.num_programs(0) // SPLIT
    group = pid // SPLIT
    part = pid % SPLIT
    n_cols, y_row_stride, dy_row_stride, dx_row_stride = softmax_rows.backward_sizes(
        n_cols, y_row_stride, dy_row_stride, dx_row_stride, ALIGN)
    cols = part * CHUNK + tl.arange(0, CHUNK)
    parts = tl.arange(0, SPLIT)
    if EDGES:
        edge = tl.arange(0, 2 * EDGES)
    if not REREAD:
        y, g, y_edges, g_edges = _load_grad_row(y_ptr, dy_ptr, group, n_rows, n_cols, y_row_stride, dy_row_stride,
                                                cols, part, EDGES)
    for row in tl.range(group, n_rows, n_groups):
        # The next row's chunks are requested before this row's exchange is waited for:
        # before its sum (NEXT_EARLY), or after its part is published
        # (SPLIT_BWD_NEXT_LATE_MIN_SPLIT, `backward_forms`). REREAD: nothing is held
        # across the wait, the chunks are read again after it (from L2), as the forward's;
        # log-softmax's sum needs dy alone, so its first read skips y.
        if REREAD:
            g = _load_grad_chunk(dy_ptr, row, n_rows, n_cols, dy_row_stride, y_row_stride, cols, FIRST_READ, EDGES)
            if EDGES:
                g_edges = _load_grad_edges(dy_ptr, row, n_rows, n_cols, dy_row_stride, y_row_stride, edge, part,
                                           FIRST_READ, EDGES)
            if LOG_SOFTMAX:
                y = g
                if EDGES:
                    y_edges = g_edges
            else:
                y = _load_grad_chunk(y_ptr, row, n_rows, n_cols, y_row_stride, y_row_stride, cols, FIRST_READ,
                                     EDGES)
                if EDGES:
                    y_edges = _load_grad_edges(y_ptr, row, n_rows, n_cols, y_row_stride, y_row_stride, edge, part,
                                               FIRST_READ, EDGES)
        if NEXT_EARLY:
            y_next, g_next, y_edges_next, g_edges_next = _load_grad_row(
                y_ptr, dy_ptr, row + n_groups, n_rows, n_cols, y_row_stride, dy_row_stride, cols, part, EDGES)
        yf = y.to(tl.float32)
        gf = g.to(tl.float32)
        s = tl.sum(softmax_rows.grad_term(yf, gf, LOG_SOFTMAX), axis=0)
        if EDGES:
            yf_edges = y_edges.to(tl.float32)
            gf_edges = g_edges.to(tl.float32)
            s += tl.sum(softmax_rows.grad_term(yf_edges, gf_edges, LOG_SOFTMAX), axis=0)
        if SPLIT > 1:
            row_slots = slot_ptr + tl.cast(row, tl.int64) * SPLIT
            tl.atomic_xchg(row_slots + part, _sum_word(s), sem="relaxed", scope="gpu")
        if not NEXT_EARLY and not REREAD:
            y_next, g_next, y_edges_next, g_edges_next = _load_grad_row(
                y_ptr, dy_ptr, row + n_groups, n_rows, n_cols, y_row_stride, dy_row_stride, cols, part, EDGES)
        if SPLIT > 1:
            # Wait until every chunk of the row has published (volatile: not from L1).
            words = tl.load(row_slots + parts, volatile=True)
            while tl.min(words, axis=0) < 0:
                words = tl.load(row_slots + parts, volatile=True)
            s = tl.sum(_word_sums(words), axis=0)
        if REREAD:
            yf = _load_grad_chunk(y_ptr, row, n_rows, n_cols, y_row_stride, y_row_stride, cols, SECOND_READ,
                                  EDGES).to(tl.float32)
            gf = _load_grad_chunk(dy_ptr, row, n_rows, n_cols, dy_row_stride, y_row_stride, cols, SECOND_READ,
                                  EDGES).to(tl.float32)
            if EDGES:
                yf_edges = _load_grad_edges(y_ptr, row, n_rows, n_cols, y_row_stride, y_row_stride, edge, part,
                                            SECOND_READ, EDGES).to(tl.float32)
                gf_edges = _load_grad_edges(dy_ptr, row, n_rows, n_cols, dy_row_stride, y_row_stride, edge, part,
                                            SECOND_READ, EDGES).to(tl.float32)
        dx = softmax_rows.grad_out(yf, gf, s, LOG_SOFTMAX)
        dx_start, dx_width = _row_part(row, n_cols, dx_row_stride, y_row_stride, EDGES)
        tl.store(dx_ptr + dx_start + cols, downcast.rounded(dx, dx_ptr.dtype.element_ty, INTERPRETER),
                 mask=cols < dx_width)
        if EDGES:
            offsets, edge_mask = _edge_part(row, n_rows, n_cols, dx_row_stride, y_row_stride, edge, part, EDGES)
            tl.store(dx_ptr + offsets, downcast.rounded(softmax_rows.grad_out(yf_edges, gf_edges, s, LOG_SOFTMAX),
                                                        dx_ptr.dtype.element_ty, INTERPRETER), mask=edge_mask)
        if not REREAD:
            y = y_next
            g = g_next
            if EDGES:
                y_edges = y_edges_next
                g_edges = g_edges_next
    if SPLIT > 1:
        _release_group_words(slot_ptr, group, n_groups, n_rows, SPLIT)


# -- launch parameters -------------------------------------------------------------------------

def _cut(cols: int, cap: int, widest: int, most: int | None) -> tuple[int, int]:
    """(SPLIT, CHUNK): SPLIT the smallest power of two whose chunks hold at most `cap`
    columns; where that makes more than `most` chunks (SMs x chunks per SM), chunks twice
    as wide, up to `widest` columns, so that a group still fits."""
    split = triton.next_power_of_2(triton.cdiv(cols, cap))
    while most is not None and split > most and cap < widest:
        cap *= 2
        split = triton.next_power_of_2(triton.cdiv(cols, cap))
    return split, triton.next_power_of_2(triton.cdiv(cols, split))


def load_align(x: torch.Tensor, *more: torch.Tensor) -> int:
    """The alignment (values) the geometry of `split` takes for the rows of the (rows,
    cols) tensor x (and `more`: the backward's dy): rows read as head, whole 16-byte
    vectors and tail (row_edges.edge_vector) load as aligned rows do, their vector's
    values; other rows their row_align."""
    return row_edges.edge_vector(x, *more) or softmax_rows.row_align(x, *more)


def _constexprs(split: int, chunk: int, x: torch.Tensor, *more: torch.Tensor) -> dict:
    """SPLIT, CHUNK, ALIGN (the rows' own: the kernels restate widths and strides by it)
    and EDGES (row_edges.edge_vector) of a plan."""
    return {"SPLIT": split, "CHUNK": chunk, "ALIGN": softmax_rows.row_align(x, *more),
            "EDGES": row_edges.edge_vector(x, *more)}


def few_rows(rows: int, cols: int, elem: int, align: int, sm_count: int | None) -> bool:
    """Whether `rows` aligned rows past SPLIT_FEW_ROWS_WHOLE_ROW_BYTES are few enough that
    all their SPLIT_CHUNK_BYTES chunks fit one program per SM (False where the SM count is
    unknown: the interpreter)."""
    if sm_count is None or align == 1 or cols * elem <= SPLIT_FEW_ROWS_WHOLE_ROW_BYTES:
        return False
    return rows * _cut(cols, SPLIT_CHUNK_BYTES[elem] // elem, SPLIT_MAX_CHUNK_VALUES[elem], sm_count)[0] <= sm_count


def chunks(cols: int, elem: int, align: int, interpreted: bool, sm_count: int | None = None,
           rows: int | None = None, per_sm: int | None = None) -> tuple[int, int]:
    """(SPLIT, CHUNK) of `split` for rows of `cols` `elem`-byte values: one chunk up to
    SPLIT_WHOLE_ROW_BYTES (aligned rows; for `rows` that are `few_rows`, up to
    SPLIT_FEW_ROWS_WHOLE_ROW_BYTES) and under the interpreter; else SPLIT a power of two,
    the smallest whose chunks fit SPLIT_NARROW_CHUNK_BYTES where that makes at most
    SPLIT_NARROW_MAX_SPLIT of them (`rows` given, not few), or SPLIT_CHUNK_BYTES (odd
    rows: SPLIT_CHUNK_ODD), or,
    aligned rows with more such chunks than `per_sm` (default SPLIT_CHUNKS_PER_SM) on each
    of the `sm_count` SMs, up to SPLIT_MAX_CHUNK_VALUES. Rows of no columns plan as one
    column (nothing is launched for them)."""
    cols = max(cols, 1)
    whole = triton.next_power_of_2(cols)
    cut_few = rows is not None and few_rows(rows, cols, elem, align, sm_count)
    if interpreted or (align > 1 and whole * elem <= SPLIT_WHOLE_ROW_BYTES and not cut_few):
        return 1, whole
    if align == 1:
        return _cut(cols, SPLIT_CHUNK_ODD, SPLIT_CHUNK_ODD, None)
    narrow = SPLIT_NARROW_CHUNK_BYTES[elem]
    if narrow is not None and rows is not None and not cut_few:
        split, chunk = _cut(cols, narrow // elem, narrow // elem, None)
        if split <= SPLIT_NARROW_MAX_SPLIT:
            return split, chunk
    most = None if sm_count is None else sm_count * (SPLIT_CHUNKS_PER_SM if per_sm is None else per_sm)
    return _cut(cols, SPLIT_CHUNK_BYTES[elem] // elem, SPLIT_MAX_CHUNK_VALUES[elem], most)


def fits(cols: int, elem: int, align: int, sm_count: int | None) -> bool:
    """Whether a group of `split` programs can all be resident: at most one per SM is
    assumed here, the widest chunks (the plan then packs as many as the compiled kernel
    allows, and narrows them where SPLIT_CHUNKS_PER_SM says and the kernel holds a group)."""
    return sm_count is None or chunks(cols, elem, align, False, sm_count, per_sm=1)[0] <= sm_count


def why_unsupported(x: torch.Tensor) -> str | None:
    """None when a group of `split` programs holding a row of `x` (2-D) can all be
    resident on x's GPU (always under the interpreter); else why not."""
    if not launch.on_gpu(x):
        return None
    cols, align = x.shape[1], load_align(x)
    sm_count = launch.device_limits(x.device.index).sm_count
    if fits(cols, x.element_size(), align, sm_count):
        return None
    split, chunk = chunks(cols, x.element_size(), align, False, sm_count, per_sm=1)
    groups = 1 << (sm_count.bit_length() - 1)  # SPLIT is a power of two
    return (f"triton variant 'split' holds a row in {split} programs of {chunk} columns that "
            f"must all be resident at once; this GPU has {sm_count} SMs, so rows up to "
            f"{groups * chunk} columns; this row has {cols} (use 'online' or 'auto')")


def launch_params(x: torch.Tensor, limits: launch.DeviceLimits | None,
                  op: str) -> tuple[dict, int, None, int]:
    """(constexprs, num_warps, register cap (none), rows) of `split` on the (rows, cols)
    tensor `x`: SPLIT, CHUNK, ALIGN and EDGES; `limits` (the GPU's) None under the interpreter."""
    sm_count = launch.sm_count(limits)
    rows, cols = x.shape
    align = load_align(x)
    elem = x.element_size()
    split, chunk = chunks(cols, elem, align, sm_count is None, sm_count, rows)
    per_thread = SPLIT_VALUES_PER_THREAD[elem] if align > 1 else SPLIT_VALUES_PER_THREAD_ODD
    warps = max(1, min(SPLIT_MAX_WARPS, chunk // (32 * per_thread)))
    maxnreg = SPLIT_MAX_REGISTERS[elem] if sm_count is not None else None
    return _constexprs(split, chunk, x), warps, maxnreg, rows


def grid(units: int, row_bytes: int, constexprs: dict, limits: launch.DeviceLimits | None = None,
         programs_per_sm: int = 1) -> tuple[int, int]:
    """(programs, programs per SM) of the persistent grid over `units` rows, in groups of
    SPLIT programs; under the interpreter (`limits` None) INTERPRET_SPLIT_PROGRAMS."""
    if limits is None:
        return max(1, min(units, INTERPRET_SPLIT_PROGRAMS)), programs_per_sm
    # Every program of the grid must be resident at once (a group's programs wait for
    # each other): whole groups of SPLIT programs, as many as fit, at most one per row.
    programs = launch.persistent_grid(units, programs_per_sm, limits.sm_count, group=constexprs["SPLIT"])
    return programs, programs_per_sm


# -- backward launch parameters ----------------------------------------------------------------

def backward_chunks(cols: int, elem: int, align: int, interpreted: bool,
                    sm_count: int | None = None, per_sm: int | None = None) -> tuple[int, int]:
    """(SPLIT, CHUNK) of the backward for rows of `cols` `elem`-byte values: one chunk up
    to SPLIT_BWD_WHOLE_ROW_BYTES (aligned rows) and under the interpreter; else SPLIT a
    power of two, the smallest whose chunks fit SPLIT_BWD_CHUNK_BYTES (odd rows:
    SPLIT_BWD_CHUNK_ODD elements), or, aligned rows with more such chunks than `per_sm`
    (default SPLIT_BWD_CHUNKS_PER_SM) on each of the `sm_count` SMs, up to
    SPLIT_BWD_MAX_CHUNK_VALUES; rows of no columns as one column."""
    cols = max(cols, 1)
    whole = triton.next_power_of_2(cols)
    if interpreted or (align > 1 and whole * elem <= SPLIT_BWD_WHOLE_ROW_BYTES):
        return 1, whole
    if align == 1:
        return _cut(cols, SPLIT_BWD_CHUNK_ODD, SPLIT_BWD_CHUNK_ODD, None)
    most = None if sm_count is None else sm_count * (SPLIT_BWD_CHUNKS_PER_SM if per_sm is None else per_sm)
    return _cut(cols, SPLIT_BWD_CHUNK_BYTES[elem] // elem, SPLIT_BWD_MAX_CHUNK_VALUES[elem], most)


def backward_fits(cols: int, elem: int, align: int, sm_count: int | None) -> bool:
    """Whether a group of backward programs can all be resident (one per SM assumed, the
    widest chunks; see `fits`)."""
    return sm_count is None or backward_chunks(cols, elem, align, False, sm_count, per_sm=1)[0] <= sm_count


def backward_why_unsupported(y: torch.Tensor, dy: torch.Tensor) -> str | None:
    """None when a group of backward programs holding a row of y and dy (2-D) can all be
    resident on y's GPU (always under the interpreter); else why not."""
    if not launch.on_gpu(y):
        return None
    cols, align, elem = y.shape[1], load_align(y, dy), y.element_size()
    sm_count = launch.device_limits(y.device.index).sm_count
    if backward_fits(cols, elem, align, sm_count):
        return None
    cap = SPLIT_BWD_MAX_CHUNK_VALUES[elem] if align > 1 else SPLIT_BWD_CHUNK_ODD
    groups = 1 << (sm_count.bit_length() - 1)  # SPLIT is a power of two
    return (f"triton variant 'split' holds rows of y and dy in chunks of at most {cap} columns, "
            f"a power of two of them per row, all resident at once: at most {groups} on this GPU's "
            f"{sm_count} SMs, so rows up to {groups * cap} columns; these rows have {cols} "
            f"(use 'tiled' or 'auto')")


def backward_launch_params(y: torch.Tensor, dy: torch.Tensor, limits: launch.DeviceLimits | None,
                           op: str) -> tuple[dict, int, None, int]:
    """(constexprs, num_warps, register cap (none), rows) of the backward on the (rows,
    cols) tensors y and dy: SPLIT, CHUNK, ALIGN and EDGES; `limits` (the GPU's) None under the
    interpreter."""
    sm_count = launch.sm_count(limits)
    rows, cols = y.shape
    align = load_align(y, dy)
    elem = y.element_size()
    split, chunk = backward_chunks(cols, elem, align, sm_count is None, sm_count)
    most = SPLIT_BWD_MAX_WARPS_FP16 if y.dtype == torch.float16 else SPLIT_MAX_WARPS
    per_thread = SPLIT_BWD_VALUES_PER_THREAD[elem] if align > 1 else SPLIT_BWD_VALUES_PER_THREAD_ODD
    warps = max(1, min(most, chunk // (32 * per_thread)))
    maxnreg = SPLIT_BWD_MAX_REGISTERS[elem] if sm_count is not None else None
    return _constexprs(split, chunk, y, dy), warps, maxnreg, rows


def backward_compile_args(y: torch.Tensor, dy: torch.Tensor) -> tuple:
    """The backward launch's arguments with stand-ins for dx and the exchange slots."""
    return softmax_rows.backward_kernel_args(y, dy, launch.stand_in(y.dtype, y.device),
                                             launch.stand_in(torch.int64, y.device))


def exchange_size(rows: int, p: dict) -> int:
    """Words of the exchange buffer a launch of plan `p` over `rows` rows uses: SPLIT per
    row, then one arrival word per group (SPLIT 1: nothing is exchanged, one unused word)."""
    split = p["constexprs"]["SPLIT"]
    return rows * split + p["grid"] // split if split > 1 else 1


# The exchange buffers, one per (device, stream): int64 words, all -1 between launches
# (the kernels put them back). Per stream, since launches on one stream run one after
# another and launches on two streams may overlap. Grown, never shrunk: at most 1/1024 of
# the largest input `split` has run on (a word per chunk of 8 KiB or more, one per group).
_EXCHANGE: dict[tuple, torch.Tensor] = {}


def exchange_words(device: torch.device, words: int) -> torch.Tensor:
    """At least `words` exchange words on `device`, all -1, for a launch on the current
    stream. While a CUDA graph is being captured: a fresh buffer filled by a captured
    fill (a buffer kept past the capture would belong to the graph's memory pool, and its
    fill would run only on replay)."""
    if device.type == "cuda":
        if torch.cuda.is_current_stream_capturing():
            return torch.full((words,), -1, dtype=torch.int64, device=device)
        key = (device.index, launch.raw_stream(device.index))
    else:
        key = (device.type, None)
    buf = _EXCHANGE.get(key)
    if buf is None or buf.numel() < words:
        # Twice what is asked: a sweep over growing row counts reallocates a few times.
        size = words if buf is None else max(words, 2 * buf.numel())
        buf = _EXCHANGE[key] = torch.full((size,), -1, dtype=torch.int64, device=device)
    return buf


def backward_launch_plan(y: torch.Tensor, dy: torch.Tensor, dx: torch.Tensor, p: dict,
                         slots: torch.Tensor | None = None) -> None:
    """Launch the backward as planned (`p` from softmax.plan): dx from y and dy, exchanging
    through `slots` (default: `exchange_words`; a test's own words, laid out as
    `exchange_size` says, come back all -1)."""
    if slots is None:
        slots = exchange_words(y.device, exchange_size(y.shape[0], p))
    launch.launch(_softmax_split_backward_kernel, (p["grid"],), softmax_rows.backward_kernel_args(y, dy, dx, slots),
                  p, p["num_warps"], launch.plan_options(p), p["constexprs"])


# -- launch ------------------------------------------------------------------------------------

KERNEL = _softmax_split_kernel


def respread(warps: int, spills: int, constexprs: dict) -> int | None:
    """softmax.plan's second try where the kernel compiled at `warps` warps spilled
    `spills` bytes: twice the warps (the chunk's values spread over twice the threads),
    or None to keep it (spills tolerated, SPLIT_SPILL_BYTES_TOLERATED, or no more warps
    to spread over)."""
    if spills <= SPLIT_SPILL_BYTES_TOLERATED or warps >= SPLIT_MAX_WARPS or constexprs["CHUNK"] < 64 * warps:
        return None
    return 2 * warps


def rereads(constexprs: dict, reread_values: dict) -> bool:
    """Whether a `split` plan of these constexprs takes the REREAD form: rows cut into
    chunks whose SPLIT x CHUNK values lie in reread_values[LOG_SOFTMAX] (low, high)."""
    within = reread_values[constexprs["LOG_SOFTMAX"]]
    values = constexprs["SPLIT"] * constexprs["CHUNK"]
    return constexprs["SPLIT"] > 1 and within is not None and within[0] <= values <= within[1]


def fast_sm(limits: launch.DeviceLimits | None) -> bool:
    """Whether a GPU has SPLIT_FAST_SM_BANDWIDTH or more of DRAM bandwidth per SM (False
    where unknown: the interpreter, a driver that reports no memory clock)."""
    return limits is not None and limits.dram_bytes_per_s >= SPLIT_FAST_SM_BANDWIDTH * limits.sm_count


def _loads_vectors(constexprs: dict) -> bool:
    """Whether a plan's chunks load more than a value at a time: ALIGN > 1, or EDGES."""
    return constexprs["ALIGN"] > 1 or bool(constexprs.get("EDGES"))


def _reread_values(constexprs: dict, elem: int, limits: launch.DeviceLimits | None, by_elem: dict,
                   fast_by_elem: dict, odd: dict) -> dict:
    """The REREAD ranges (by LOG_SOFTMAX) of a plan of `elem`-byte values on the GPU of
    `limits`: `odd` for odd rows, else `fast_by_elem` on GPUs that are `fast_sm`, else
    `by_elem`, each keyed by element size (rows read as head, whole vectors and tail,
    EDGES, as aligned ones)."""
    if not _loads_vectors(constexprs):
        return odd
    return (fast_by_elem if fast_sm(limits) else by_elem)[elem]


def _forms(constexprs: dict, late_min_split: dict, reread_values: dict) -> list[dict]:
    """The forms of a `split` kernel to compile, the one kept at a tie first: the REREAD
    form alone where `rereads`; else both held forms (NEXT_EARLY), late first for rows
    of at least late_min_split[LOG_SOFTMAX] chunks."""
    split = constexprs["SPLIT"]
    if rereads(constexprs, reread_values):
        return [{**constexprs, "NEXT_EARLY": False, "REREAD": SPLIT_REREAD}]
    early = split < late_min_split[constexprs["LOG_SOFTMAX"]]
    return [{**constexprs, "NEXT_EARLY": early, "REREAD": 0}, {**constexprs, "NEXT_EARLY": not early, "REREAD": 0}]


def _held_forms(constexprs: dict, grid: int, limits: launch.DeviceLimits, elem: int, late_min_split: dict,
                pending_tensors: int) -> list[dict] | None:
    """The held forms to compile instead of a REREAD plan whose chunks between their two
    reads (`pending_tensors` chunks of CHUNK `elem`-byte values per program of the `grid`,
    all resident) would fill more than SPLIT_REREAD_L2_SHARE of the L2; None where the
    plan stands."""
    if not constexprs.get("REREAD"):
        return None
    pending = grid * constexprs["CHUNK"] * elem * pending_tensors
    if pending <= limits.l2_bytes * SPLIT_REREAD_L2_SHARE:
        return None
    return _forms(constexprs, late_min_split, {False: None, True: None})


def held_forms(constexprs: dict, grid: int, limits: launch.DeviceLimits, elem: int) -> list[dict] | None:
    """softmax.plan's fallback from the forward's REREAD form (`_held_forms`)."""
    return _held_forms(constexprs, grid, limits, elem, SPLIT_NEXT_LATE_MIN_SPLIT, 1)


def backward_held_forms(constexprs: dict, grid: int, limits: launch.DeviceLimits, elem: int) -> list[dict] | None:
    """softmax.plan's fallback from the backward's REREAD form: y and dy pending, dy alone
    for log-softmax (`_held_forms`)."""
    return _held_forms(constexprs, grid, limits, elem, SPLIT_BWD_NEXT_LATE_MIN_SPLIT,
                       1 if constexprs["LOG_SOFTMAX"] else 2)


def forms(constexprs: dict, elem: int, limits: launch.DeviceLimits | None) -> list[dict]:
    """softmax.plan's forms of the forward for `elem`-byte values on the GPU of `limits`
    (None: the interpreter) (SPLIT_NEXT_LATE_MIN_SPLIT, SPLIT_REREAD_VALUES[_FAST_SM,
    _ODD])."""
    reread = _reread_values(constexprs, elem, limits, SPLIT_REREAD_VALUES, SPLIT_REREAD_VALUES_FAST_SM,
                            SPLIT_REREAD_VALUES_ODD)
    return _forms(constexprs, SPLIT_NEXT_LATE_MIN_SPLIT, reread)


def backward_forms(constexprs: dict, elem: int, limits: launch.DeviceLimits | None) -> list[dict]:
    """softmax.plan's forms of the backward (SPLIT_BWD_NEXT_LATE_MIN_SPLIT,
    SPLIT_BWD_REREAD_VALUES[_FAST_SM], odd rows SPLIT_BWD_REREAD_VALUES_ODD). An aligned
    REREAD form names its own `num_warps`:
    SPLIT_BWD_REREAD_VALUES_PER_THREAD values of each tensor a thread, but at least one
    thread per chunk of the row (with fewer, each thread gathers several chunks' words
    and ptxas took 206-211 registers, 4 programs per SM: bf16 524288 at 2 warps measured
    58-72% of copy against 81-97 at 4)."""
    reread = _reread_values(constexprs, elem, limits, SPLIT_BWD_REREAD_VALUES, SPLIT_BWD_REREAD_VALUES_FAST_SM,
                            SPLIT_BWD_REREAD_VALUES_ODD)
    found = _forms(constexprs, SPLIT_BWD_NEXT_LATE_MIN_SPLIT, reread)
    if found[0]["REREAD"] and _loads_vectors(constexprs):
        per_thread = SPLIT_BWD_REREAD_VALUES_PER_THREAD[elem]
        warps = max(triton.cdiv(constexprs["SPLIT"], 32), constexprs["CHUNK"] // (32 * per_thread), 1)
        most = SPLIT_BWD_MAX_WARPS_FP16 if elem == 2 else SPLIT_MAX_WARPS  # (bf16 too: elem is all it sees)
        found = [{**form, "num_warps": min(warps, most)} for form in found]
    return found


def regroup(constexprs: dict, warps: int, resident: int) -> tuple[dict, int] | None:
    """softmax.plan's next geometry where a group of SPLIT programs cannot all be
    resident at once (`resident`: the compiled kernel's programs per SM x SMs): half the
    chunks, twice as wide, over twice the warps (the same values per thread); None where
    the group fits. Only rows cut finer than one chunk per SM (SPLIT_CHUNKS_PER_SM) can
    need it: `fits` holds rows at one widest chunk per SM."""
    split = constexprs["SPLIT"]
    if split <= resident or split == 1 or 2 * warps > SPLIT_MAX_WARPS:
        return None
    return {**constexprs, "SPLIT": split // 2, "CHUNK": 2 * constexprs["CHUNK"]}, 2 * warps


def compile_args(x: torch.Tensor) -> tuple:
    """The launch's arguments with stand-ins for the output and the exchange slots, for
    `launch.resources`."""
    return softmax_rows.kernel_args(x, launch.stand_in(x.dtype, x.device),
                                    launch.stand_in(torch.int64, x.device))


def launch_plan(x: torch.Tensor, y: torch.Tensor, p: dict, slots: torch.Tensor | None = None) -> None:
    """Launch `split` as planned (`p` from softmax.plan) from `x` into `y`, exchanging
    through `slots` (default: `exchange_words`)."""
    if slots is None:
        slots = exchange_words(x.device, exchange_size(x.shape[0], p))
    launch.launch(_softmax_split_kernel, (p["grid"],), softmax_rows.kernel_args(x, y, slots), p, p["num_warps"],
                  launch.plan_options(p), p["constexprs"])


def direct_launcher(p: dict, n_tensors: int):
    """softmax.run's `direct` launch of a plan that has launched (`n_tensors`: x, y or y,
    dy, dx): the bound kernel, given the exchange buffer of the moment; None where the
    plan's launch is not bound."""
    bound = launch.tensors_only_launcher(p, n_tensors + 1)
    if bound is None:
        return None
    device, words = torch.device("cuda", p["device"]), exchange_size(p["rows"], p)

    def launch_direct(*tensors: torch.Tensor) -> None:
        bound(*tensors, exchange_words(device, words))
    return launch_direct


BACKWARD = launch.Family(KERNEL=_softmax_split_backward_kernel, why_unsupported=backward_why_unsupported,
                         launch_params=backward_launch_params, grid=grid, compile_args=backward_compile_args,
                         launch_plan=backward_launch_plan, respread=respread,
                         forms=backward_forms, regroup=regroup, held_forms=backward_held_forms)
