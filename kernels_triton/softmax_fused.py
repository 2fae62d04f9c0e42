"""Softmax `fused`: whole rows in registers, read once and written once.

A program holds a ``[ROWS, BLOCK]`` tile of whole rows in registers: the minimum
traffic, the same as a device-to-device copy. Narrow rows are packed many to a tile so
every program moves enough bytes (FUSED_TILE_BYTES; aligned rows of some widths take
tiles of other bytes and values a thread, measured per width: `_tile`,
FUSED_BWD_SMALL_TILE_*; aligned rows just past a power of two, as two parts of powers of
two, not one padded to the next: `plain_parts`); wide 16-bit rows are held two
values per 32-bit word (pairs.py), half the registers of Triton's fp32 widening
(`_fused_pairs_tile`); the widest of those (one program per SM) are held as segments,
reduced per thread first and stored segment by segment (`_fused_pairs_segments`). Rows
up to FUSED_MAX_COLS wide (FUSED_MAX_COLS_PAIRS in pairs, FUSED_MAX_COLS_ODD for odd
widths or row strides). Rows that start off a 16-byte boundary (odd widths) are read as
head, whole 16-byte vectors and tail where x's and the output's rows share their offsets
(row_edges.py, `_fused_edges_tile`; FUSED_EDGES_MIN_COLS); rows that fit the tile with
their head and tail vectors as whole vectors from the 16-byte boundary before them
(`_fused_window_tile`, `window`; backward: `backward_window`); on GPUs of fast SMs
narrow contiguous ones as segments of whole vectors, each vector two rows share loaded
and stored once (shared_vectors.py, `_shared_vectors`).

The grid is one-shot: one program per row block (`grid`), laid out on a second grid
dimension past CUDA's grid.x limit. `launch_params` derives every constexpr, the warps
and the register cap from the tensor; `why_unsupported` names the width limit.

The backward (`BACKWARD`, softmax_backward / log_softmax_backward) holds tiles of y and
dy the same way: the row sum, then dx, from registers; reads y and dy once, writes dx
once. Two rows per tile row take the registers one forward row takes, so every width
limit is half the forward's (FUSED_BWD_MAX_COLS*); wide bf16 rows are paired
(`_fused_backward_pairs_tile`).
"""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from . import downcast, launch, pairs, row_edges, shared_vectors, softmax_rows, softmax_split
from .softmax_rows import LN2, LOG2E

# Register and spill figures quoted below are ptxas's for sm_90 (Triton 3.6 and 3.9).

# Measurements quoted below: NVIDIA H200, 1 GiB inputs, % of the copy bandwidth, runs
# of benchmarks/tuning/h200_tuning_triton_pairs_2026-11-21.txt unless another file is named.

# `fused` holds rows in registers as units: a unit is a value or, for 16-bit rows that
# are paired (`paired`: even width and row stride, 4-byte aligned start, at least
# FUSED_PAIRS_MIN_COLS wide), a 32-bit word of two values (pairs.py), which halves the
# registers the row takes. Units each thread holds (num_warps = tile / (32 * this), 1 to
# 32): 32 fp32 values or 32 words (64 16-bit values) = eight 16-byte loads in flight per
# thread, and the widest row still fits the 64-register cap of a 1024-thread program.
FUSED_UNITS_PER_THREAD = 32
FUSED_MAX_WARPS = 32
# Widest row `fused` holds, 32 warps x 32 units (52-64 registers, no spills): 32768 fp32
# (and 16-bit rows that are not paired, which Triton widens to fp32), 65536 paired
# 16-bit values. Rows whose width or row stride is odd (ALIGN 1 below) load element by
# element, each value with its own address: fp32 spills at 32768 there, 16384 fits. Those
# read as head, whole vectors and tail (`edges`): FUSED_MAX_COLS_EDGES, by element size
# (fp32 32767 at 32 warps: 62-64 registers, no spills, Triton 3.6 and 3.9; 16-bit rows,
# widened to fp32, spilled 8 bytes there in log-softmax under Triton 3.6, 16383 fits).
# fp16 pairs stop at 32768: widening fp16 takes a cvt and a temporary where bf16 takes
# a shift, and Triton 3.6's ptxas spills 8 registers at 65536 (bf16 fits).
FUSED_MAX_COLS = 32768
FUSED_MAX_COLS_PAIRS = {torch.bfloat16: 65536, torch.float16: 32768}
FUSED_MAX_COLS_ODD = 16384
FUSED_MAX_COLS_EDGES = {4: FUSED_MAX_COLS, 2: FUSED_MAX_COLS_ODD}
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
# Rows that start off a 16-byte boundary (odd widths, ALIGN 1) are read as head, whole
# vectors and tail (row_edges.py, `_fused_edges_tile`) where their tensors allow it, from
# these widths. 16-bit rows from 32 columns (element by element they load 2 bytes an
# instruction: bf16 197 / 1025 / 3001 columns measured 25.2 / 46.3 / 48.3% of copy,
# benchmarks/h200_2026-11-26d/odd_widths_h200_f807507.csv); narrower ones, at most two
# vectors beside up to 14 edge values, 256 rows to a tile, took more registers than
# their element loads (sm_90, Triton 3.6, 17-31 columns: 117-128 against 100-112, fp16
# softmax spilling 8 bytes; 33-63: 104 against 176). fp32 rows from 1025 columns, where
# a tile holds at most two rows: narrower ones, 4 to 64 to a tile, took more registers
# than their 4-byte element loads (Triton 3.6, 197 / 301 columns: 159 / 112 against
# 48-80 / 48, 3 / 4 against 6-10 / 10 programs per SM; backward 197: 77 against 64), and
# measured 88-91% of copy that way already (the same file); on `fast_sm` GPUs the
# forward's fp32 rows from 64 columns in smaller tiles (FUSED_EDGES_FAST_*).
FUSED_EDGES_MIN_COLS = {4: 1025, 2: 32}
# Rows read with an edge tile (`_fused_edges_tile`: those that do not fit a window, 1025
# columns and up) take one row per program, not FUSED_TILE_BYTES of rows: the edge tile
# joined to the body's max costs registers for every row of the tile (bf16 1025, sm_90,
# Triton 3.6, softmax / log-softmax: 8 rows 94 / 128 registers, 2 programs of 8 warps per
# SM; 2 rows 72 / 80, 14 of 2 warps; 1 row 62 / 64, 16 of one warp). H200, 1 GiB, % of
# copy, softmax / log-softmax `auto` forward, 16 KiB tiles -> 2 rows -> 1
# (benchmarks/h200_2026-11-26g/er_*): bf16 1025 52.7 / 53.8 -> 88.1 / 82.1 -> 97.2 /
# 97.1, 2049 76.8 / 51.3 -> 87.2 / 80.8 -> 98.2 / 94.4, 4097 84.0 / 72.5 -> 84.0 / 72.5
# -> 97.0 / 91.3; fp32 1025 96.5 / 91.8 -> 96.2 / 97.2 -> 98.0 / 97.6, 2049 96.0 / 97.2
# -> 97.0 / 96.4, 4097 96.0 / 96.3 -> 96.1 / 96.3. The backward's edge tiles likewise
# (`backward_launch_params`), 16 KiB tiles -> 1 row (benchmarks/h200_2026-11-26g/be_*):
# bf16 1025 80.2 / 87.7 -> 94.4 / 101.1, 2049 82.3 / 94.7 -> 94.0 / 103.0, 4097 even
# (one row already), fp32 1025-4097 101.6-101.8 -> 101.7-102.0. H100, main before ->
# one row, forward / backward (benchmarks/h100_2026-11-26g/er_*): bf16 1025 67.3 / 92.4
# -> 98.7 / 101.1, 2049 91.6 / 93.9 -> 99.1 / 101.2, 4097 96.3 -> 99.6 forward,
# log-softmax forward 69.7 / 67.4 / 89.4 -> 98.8 / 99.6 / 99.9; fp32 even but its
# log-softmax forward at 1025 / 2049 (99.9 / 99.4 -> 98.4 / 98.8), which gained 5.8 on
# the H200.
FUSED_EDGES_TILE_ROWS = 1
# The window tile (`window`) is two tiles, a power of two and a tail (`window_parts`), only
# up to this block: the rows that then fill a 16 KiB tile 8 or more at a time. H200, 1
# GiB, % of copy, softmax / log-softmax forward, one tile -> two (benchmarks/
# h200_2026-11-26h/tail1_*): bf16 300 49.0 / 48.0 -> 59.2 / 59.4, 577 45.7 / 46.1 -> 55.9 /
# 55.3, 700 54.9 / 56.0 -> 62.1 / 61.5; past it, wider tiles of 2-4 rows lost at the same
# registers and programs per SM: 1500 77.2 / 74.9 -> 63.7 / 64.1, 3001 86.1 / 80.4 ->
# 71.0 / 64.8 (the two tiles' row maxima and sums meet through shared memory).
FUSED_WINDOW_TAIL_MAX_BLOCK = 1024
# A tile in two parts (a window, `window_parts`; aligned rows, `plain_parts`) runs over
# this many times fewer warps than one tile of its block: twice the
# values a thread (bf16 300: 95 registers against 69, 5 programs per SM against 3, Triton
# 3.6), which keeps more rows in flight per SM. H200, 1 GiB, softmax / log-softmax, bf16
# 300, 8 warps -> 4 (benchmarks/h200_2026-11-26h/rule_*): 59.2 / 59.4 -> 72.6 / 73.1.
FUSED_TAIL_WARPS_DIVISOR = 2
# Odd rows whose window spans more than FUSED_EDGE_ROWS_BYTES[0], in rows of less than
# FUSED_EDGE_ROWS_BYTES[1], take the edge tile, one row a program, rather than the window
# (`window`): one such row keeps a program's loads busy, where a window tile's masked
# columns and in-row tests cost registers and instructions; narrower rows one a program
# move too little. 1 GiB, % of copy, softmax / log-softmax forward, bf16, window -> edge
# tile (benchmarks/h200_2026-11-26h/tailx_*, rule_*; benchmarks/h100_2026-11-26h/rule2_*):
#   H200: 577 (1154 B) 55.8 / 55.2 -> 76.9 / 74.6, 700 62.0 / 61.5 -> 87.5 / 86.9, 1500
#     77.1 / 75.0 -> 90.5 / 86.6, 3001 (6 KB) 86.0 / 80.4 -> 89.0 / 82.9; 300 (600 B) 59.2
#     -> 46.5, 197 71.0 -> 30.6;
#   H100: 577 75.4 / 74.8 -> 90.3 / 90.0, 700 78.8 / 79.6 -> 96.3 / 96.2, 1500 95.7 / 95.0
#     -> 99.2 / 96.0, but 3001 99.9 / 96.5 -> 97.6 / 92.9, hence the upper bound; and a
#     window over 1024 columns for bf16 511 (512 + 8, its span 1036 B) lost 91.4 -> 78.1
#     against the edge tile, hence the bound on the span; 505 (a span of 1024 B, window
#     of 512) kept its window: 94.6 / 93.7 against the edge tile's 91.3 / 89.9 (H200: 77.4
#     / 75.1 against 77.9 / 77.7; benchmarks/h*_2026-11-26h/rule3_*).
# By element size: fp32 rows never take the edge tile (a row of less than 4 KiB cannot
# span more), and take a window of twice the block up to 4 KiB spans: on `fast_sm` GPUs
# they are read in three parts from FUSED_EDGES_FAST_MIN_COLS (fp32 511: a window of 512
# + 4, 98.6 / 99.0, FUSED_EDGES_FAST_* below); elsewhere only from 1025 columns
# (FUSED_EDGES_MIN_COLS), past both bounds.
FUSED_EDGE_ROWS_BYTES = {2: (1024, 4096), 4: (4096, 4096)}
# On `fast_sm` GPUs rows read in three parts whose window spans more than
# FUSED_EDGES_FAST_MIN_SPAN and at most FUSED_EDGES_FAST_MAX_SPAN bytes (16-bit: the
# windows past one tile of 128 values, not the edge tile's rows) take tiles of
# FUSED_EDGES_FAST_TILE_BYTES at FUSED_EDGES_FAST_UNITS_PER_THREAD (one or two warps a
# program, not 4-8 splitting each row: Triton staged the 16 KiB tile through shared
# memory with 9-19 barriers at bf16 263-457), and fp32 rows are read so from
# FUSED_EDGES_FAST_MIN_COLS (16-byte vectors, not 4-byte element loads in a padded
# block). H200, 1 GiB, % of copy, `auto` before -> after, softmax / log-softmax, two
# rounds within 0.4 (benchmarks/h200_2026-11-28/tri_fwd_edges_compare_h200_3036d40.txt,
# call 44): bf16 / fp16 131 52.2 / 56.1 -> 76.1 / 79.0, 197 71.2 / 72.5 -> 78.7 / 77.6,
# 263 51.4 / 57.7 -> 94.9 / 95.0, 333 60.9 / 60.7 -> 81.6 / 82.6, 457 71.9 / 72.9 -> 94.9
# / 96.0 (log-softmax 51.8-71.2 -> 67.7-94.5 at 131-457); fp32 65 / 97 / 131 / 193 / 263
# / 333 / 457 / 769 41.8 / 62.4 / 64.5 / 87.0 / 66.8 / 78.5 / 93.5 / 98.0 -> 97.0 / 97.0
# / 99.1 / 98.2 / 99.4 / 98.6 / 98.0 / 98.4 (log-softmax 31.4-97.7 -> 91.4-99.7 at
# 65-769). The 16-bit windows of one tile of 128 values or fewer lost or barely moved,
# hence FUSED_EDGES_FAST_MIN_SPAN: bf16 / fp16 97 66.0 / 65.8 -> 54.6 / 54.6, 65 41.8 ->
# 43.0, 33 32.3 -> 36.8. The tiles were chosen through tune.py (`fused`, one round,
# benchmarks/h200_2026-11-28/fused_fwd_edges{,2}_h200_*.txt, calls 42-43) among 2, 4, 8
# and 16 KiB at 64 a thread: bf16 at 2 KiB 83.9 / 77.1 at 201 and 92.3 / 90.4 at 401
# (4 KiB: 79.5 / 75.7, 89.4 / 84.9) but 78.9 / 77.3 at 263 (95.6 / 88.1); 8 KiB 51.2-89.4
# at 201-457; fp32 at 8 KiB 97.1-100.6, at 16 KiB 70.3 at 201. The edge tile's rows
# (bf16 511-4097) at 4 KiB: 1100 78.3 -> 83.3 but 3001 / 4097 87.0 / 97.4 -> 83.2 / 90.7,
# hence the span bound. Not measured on the H100 (25 GB/s per SM), which keeps the
# rules above.
# On `fast_sm` GPUs contiguous rows of odd width whose window spans at most
# FUSED_SHARED_MAX_SPAN bytes (by element size) take shared_vectors.py's tile (every
# 16-byte vector loaded and stored whole, once, though two rows share it) rather than the
# window tiles, the edge tile or element loads above; the module's docstring has the
# measurements: 16-bit rows to 761 columns (a window of 96 vectors, 6 segments on 16
# lanes), fp32 rows under FUSED_EDGES_FAST_MIN_COLS (63 + 3 values), which kept element
# loads. Wider ones lost or barely moved (call 49: bf16 769 / 1025 / 2049, 32-64 lanes a
# row, -1.0 / -7.6 / -44; fp32 97-1025 -1.7 to +0.7, log-softmax 97 +5.1). Not measured
# on the H100 (25 GB/s per SM), which keeps the rules above.
FUSED_SHARED_MAX_SPAN = {2: 1536, 4: 264}
FUSED_EDGES_FAST_MIN_COLS = {4: 64, 2: 32}
FUSED_EDGES_FAST_MIN_SPAN = {4: 0, 2: 256}
FUSED_EDGES_FAST_MAX_SPAN = {4: 4096, 2: 1024}
FUSED_EDGES_FAST_TILE_BYTES = 4 * 1024
FUSED_EDGES_FAST_UNITS_PER_THREAD = 64
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
# fp32 rows of 128 columns (512 B) at ALIGN 16 take 64 KiB tiles over 32 warps (16
# values a thread, 128 rows). 1 GiB, % of copy, 16 KiB / 32 -> 64 KiB / 16, 128 / 256 /
# 512 columns, twice each: H200 softmax 97.4 / 97.2 / 97.6 -> 100.1 / 97.9 / 97.9 (torch
# 100.2 / 100.1 / 98.0; benchmarks/h200_2026-11-27h/narrow_fp32_tiles_h200_805bf7a.txt);
# H100 (`auto`, benchmarks/h100_2026-11-27h/wide_tile_fwd_*.csv) softmax 99.2 / 99.8 /
# 98.9 -> 99.7 / 99.1 / 99.2, log-softmax 99.1 / 99.8 / 98.8 -> 99.2 / 97.6 / 97.6: wider
# rows stay in 16 KiB tiles. Narrower rows gained nothing on the H200 (32 / 64: 97.3 /
# 98.0 -> 97.7 / 98.0), rows padded to 128 lost (96: 96.2 -> 95.4), and 16-bit rows of
# 512 B too (bf16 256: 98.7 -> 98.2, narrow_tiles_fwd_h200_0448e41.txt). Measured, not
# modelled: the wide tile's programs are fewer (1-2 per SM, 64-128 KiB in flight against
# ~9 of 16 KiB), and why only 512-byte fp32 rows gain is not known.
FUSED_WIDE_TILE_FP32_COLS = 128
FUSED_WIDE_TILE_BYTES = 64 * 1024
FUSED_WIDE_TILE_UNITS_PER_THREAD = 16
# fp32 rows of 256-4096 columns, powers of two, at ALIGN 16 take 4 KiB tiles at 8 values
# a thread (32 bytes: two 16-byte loads; 4-16 warps, 1-4 rows). 1 GiB, % of copy, 16 KiB
# / 32 -> 4 KiB / 8, 256 / 512 / 1024 / 2048 / 4096 columns (`tuning/tune.py`, benchmarks/
# h200_2026-11-27i/fp32_tiles_fwd_h200_1ad8dab.txt, tiles_fwd_h200_d52c863.txt; benchmarks/
# h100_2026-11-27i/tiles_fwd_{,r2_}h100_*.txt, two rounds alike):
#   H200 96.7 / 97.7 / 97.9 / 97.4 / 97.2 -> 100.0 / 100.2 / 100.2 / 97.5 / 98.3
#   H100 99.7 / 98.7 / 98.9 / 99.5 / 99.6 -> 100.2 / 100.2 / 100.2 / 100.1 / 100.3
# Wider rows gain less on the H200 (8192 / 16384 / 32768: 96.9 / 97.9 / 98.4 -> 97.2 / 98.3
# / 98.3) and were not measured on the H100. 16-bit rows at 8 a thread (16 bytes) lose on
# the H200 (bf16 512-4096: 99.8-97.7 -> 91.1-78.5), and at 16 (a thread's 32 bytes) too
# (16 KiB, 512 / 1024: 99.8 / 99.9 -> 92.3 / 91.6): FUSED_SMALL_TILES_16BIT.
FUSED_SMALL_TILE_FP32_COLS = (256, 4096)
FUSED_SMALL_TILE_BYTES = 4 * 1024
FUSED_SMALL_TILE_UNITS_PER_THREAD = 8
# Aligned 16-bit rows, powers of two, on GPUs of less than
# softmax_split.SPLIT_FAST_SM_BANDWIDTH of DRAM bandwidth per SM (not `fast_sm`: the
# H100) take smaller tiles of fewer values a thread: (fewest columns, most, tile bytes,
# values a thread). 1 GiB, % of copy, 16 KiB / 32 -> these, bf16 (fp16 alike), two
# rounds alike (benchmarks/h100_2026-11-27i/tiles_fwd_{,r2_}h100_*.txt):
#   H100 128 / 256 99.4 / 99.4 -> 101.2 / 101.2 (8 KiB at 8), 512 / 1024 / 2048 100.2 /
#        100.2 / 100.0 -> 101.0 / 101.0 / 101.0 (16 KiB at 16); 4096 100.0 -> 100.2
#   H200 the same tiles 98.0 / 98.9 -> 94.0 / 94.2, 99.8 / 99.9 / 98.1 -> 92.3 / 91.6 /
#        91.0 (benchmarks/h200_2026-11-27i/tiles_fwd_h200_d52c863.txt)
# A GPU whose SMs each stream more of the DRAM's bandwidth needs more bytes in flight
# than 16-32 bytes a thread keep; the H200's 37 GB/s per SM does, the H100's 25 not.
FUSED_SMALL_TILES_16BIT = ((128, 256, 8 * 1024, 8), (512, 2048, 16 * 1024, 16))
# Aligned rows just past a power of two (bf16 264: 256 + 8) pad the tile to the next
# power of two (512). Where that block is one of these, by element size, the rows are
# held as two parts, half the block and the fewest columns past it (`plain_parts`), the
# rows a tile has over FUSED_TAIL_WARPS_DIVISOR times fewer warps (about 32 values a
# thread, as the padded tile's). 1 GiB, % of copy, Triton `fused`, padded -> two parts,
# softmax / log-softmax (`tuning/tune.py`; benchmarks/h200_2026-11-28/plain_tail3_*,
# benchmarks/h100_2026-11-28/plain_tail{,2}_*):
#   H200 bf16 136 / 264 / 520 / 4160 80.7 / 69.9 / 70.8 / 87.6 -> 96.8 / 99.4 / 79.9 /
#        98.4, log-softmax 73.1 / 63.5 / 64.2 / 77.2 -> 96.8 / 99.4 / 77.6 / 97.6 (fp16
#        alike); fp32 136 / 264 78.8 / 89.7 -> 99.7 / 97.0
#   H100 bf16 520 / 4160 89.4 / 99.8 -> 95.1 / 99.9, log-softmax 86.2 / 91.7 -> 94.3 / 99.8
# Other blocks lost: 16-bit 1040 / 1536 / 2080 (blocks of 2048 and 4096) H200 77.2 /
# 97.5 / 83.7 -> 75.7 / 94.7 / 80.9, H100 95.3 / 100.3 / 98.5 -> 89.1 / 95.5 / 97.3; fp32
# from 1040 0.3-1.5 on both. So did tails of half the half (`auto`, H200, benchmarks/
# h200_2026-11-28/tail_compare_*): softmax 384 (256 + 128) bf16 / fp32 89.8 / 97.1 ->
# 87.5 / 94.9 (fp32 log-softmax 92.6 -> 78.9), 768 (512 + 256) bf16 88.5 -> 87.2, 6144
# (4096 + 2048) 99.7 -> 99.3 (bf16 log-softmax 93.4 -> 99.2 the exception): the tail is
# at most a quarter of the half (FUSED_PLAIN_TAIL_MAX_PART). Tails of a quarter, `auto`,
# softmax, before -> after (benchmarks/h200_2026-11-28/quarter_compare_*,
# benchmarks/h100_2026-11-28/tail_compare_*): 320 / 640 / 5120 H200 bf16 80.7 / 79.4 /
# 94.8 -> 89.5 / 95.9 / 98.8, fp32 320 92.1 -> 98.8; H100 bf16 96.3 / 96.5 / 100.0 ->
# 99.4 / 99.9 / 99.4, fp32 320 100.0 -> 99.4 (the rule's only losses on either GPU, with
# fp32 136's log-softmax on the H100, 100.4 -> 99.2). Measured, not modelled: the
# two parts take more registers than the padded tile (bf16 1040, Triton 3.9: 96 against
# 52-63; a cap of 80 spills), and what makes some blocks and tails gain is not known.
FUSED_PLAIN_TAIL_BLOCKS = {2: (256, 512, 1024, 8192), 4: (256, 512)}
FUSED_PLAIN_TAIL_MAX_PART = 4
# Plain 16-bit rows of a width that is not a power of two (aligned to 16-byte vectors)
# take 8 KiB tiles where their block is padded (bf16 1040 in a block of 2048: 2 rows a
# tile over 4 warps, not 4 over 8), and 64 values a thread where they are held in two
# parts of a block and tail of FUSED_PADDED_16BIT_PARTS_MAX_TAIL (bf16 520 = 512 + 8: half
# the warps, twice the programs per SM at the same 95 registers). 1 GiB, % of copy, Triton
# `fused`, softmax / log-softmax, 16 KiB at 32 -> 8 KiB at 32 / 16 KiB at 64
# (`tuning/tune.py`, benchmarks/h200_2026-11-28/fused_tiles16_*_{49d6625,f6a1264}.txt):
#   H200 bf16 520 79.1 / 76.7 -> 88.5 / 80.6 | 97.7 / 97.7; 1040 76.9 / 65.8 -> 85.3 /
#        78.0 | 80.2 / 74.8; 2080 83.7 / 78.9 -> 90.5 / 86.1 | 83.5 / 81.7
#   H100 bf16 520 95.1 / 94.3 -> 100.4 / 97.2 | 99.4 / 99.3; 1040 95.4 / 87.2 -> 100.8 /
#        100.1 | 95.9 / 92.9; 2080 98.6 / 96.2 -> 100.5 / 100.7 | 98.0 / 96.5
# and `auto` before -> after through `python -m comparison`, H200, two rounds alike
# (benchmarks/h200_2026-11-28/tiles16_compare_h200_5190365.txt): 8 KiB tiles bf16 1040 /
# 1536 / 2080 / 2560 / 3000 77.0 / 96.9 / 81.7 / 92.9 / 98.3 -> 85.3 / 99.6 / 89.0 / 98.7
# / 99.2 (log-softmax 65.9 / 87.5 / 78.1 / 89.7 / 96.3 -> 77.7 / 100.3 / 84.7 / 97.9 /
# 99.3); 64 a thread 520 79.0 / 76.8 -> 97.8 / 97.9, but the other blocks of two parts
# lost: 136 / 264 / 4160 96.5 / 98.5 / 97.0 -> 93.3 / 96.7 / 91.6 (their registers rose
# to 108-157 from 55-64; on the H100 they were within 0.3), and so did a longer tail in
# the same block (call 19, benchmarks/h200_2026-11-28/final16_compare_h200_201c213.txt):
# 640 = 512 + 128 96.0 / 95.1 -> 86.9 / 85.0; hence the one block and tail (513-520
# columns), the only ones measured to gain. The powers of two (1024 / 2048) were within
# 0.3 on the H100. Blocks of 8192 and more hold one row a tile either way.
FUSED_PADDED_16BIT_TILE_BYTES = 8 * 1024
FUSED_PADDED_16BIT_PARTS_UNITS_PER_THREAD = 64
FUSED_PADDED_16BIT_PARTS_MAX_TAIL = {1024: 8}  # block: most columns past its half
# On `fast_sm` GPUs the padded rows of blocks of 1 KiB and more (512 columns: bf16 400
# four rows over 1 warp, not eight over 4; 1040 one row over 1 warp, not two over 4) take
# 4 KiB tiles at 64 values a thread: fewer, fuller threads, as the backward's padded
# tiles (FUSED_BWD_PADDED_16BIT_*). Blocks of 8 KiB and more already held one row a
# tile; there the 64 values are the change. 1 GiB,
# % of copy, `fused`, bf16 softmax / bf16 log-softmax / fp16 softmax, 8 KiB at 32 -> 4
# KiB at 32 | 8 KiB at 64 | 4 KiB at 64 (`tuning/tune.py`, H200,
# benchmarks/h200_2026-11-28/fused_fwd_padded16_h200_10cae19.txt):
#   1040 85.7 / 78.1 / 90.3 -> 91.6 / 88.3 / 94.4 | 84.8 / 82.4 / 89.0 | 95.7 / 95.4 / 99.1
#   2080 90.5 / 86.5 / 93.3 -> 90.5 / 86.4 / 93.1 | 88.4 / 91.9 / 97.1 | the same
#   2600 99.4 / 98.4 / 100.2 -> 99.4 / 98.4 / 100.2 | 97.2 / 99.8 / 100.5 | the same
#   6000 99.8 / 91.6 / 100.2 -> 99.9 / 91.5 / 100.2 | 99.4 / 100.5 / 100.3 | the same
# (1536 and 3000 within 0.8 of 100 in each); 16 KiB tiles at 64 or 32 lost 3-12 at
# 1040-2600 (fused_fwd_padded16_wide_h200_0d64572.txt). `auto` before -> after through
# `python -m comparison`, two rounds alike (tri_fwd_padded16_compare_h200_5a2d75b.txt),
# softmax / log-softmax: bf16 1040 / 2080 / 2600 / 6000 85.3 / 89.1 / 99.0 / 99.2 -> 95.4
# / 87.0 / 96.9 / 98.8, log-softmax 77.7 / 84.6 / 98.0 / 91.2 -> 95.3 / 90.5 / 99.1 /
# 98.9; fp16 1040 / 2080 90.2 / 91.8 -> 98.9 / 95.6, log-softmax 86.8 / 91.7 -> 98.9 /
# 93.9; 704 (outside), 1536, 3000 within 0.5: bf16 softmax's -2.1 at 2080 / 2600 is the
# rule's one loss. Not measured on the H100, which keeps the 8 KiB tile at 32 (100.8 /
# 100.1 at bf16 1040 there: FUSED_PADDED_16BIT_TILE_BYTES above). First taken from
# blocks of 4 KiB; then blocks of 1 and 2 KiB, bf16 softmax / log-softmax through
# tune.py, before -> after (benchmarks/h200_2026-11-28/fused_fwd_512blocks_h200_4690d11.txt,
# the 2 KiB blocks in device_calls.sh's call 39): 328 / 344 / 360 / 376 / 392 / 408 84.7
# / 88.0 / 90.4 / 93.4 / 94.8 / 97.3 -> 97.4 / 99.1 / 98.6 / 99.0 / 98.6 / 98.8
# (log-softmax 75.6 / 79.4 / 81.7 / 84.8 / 88.2 / 90.8 -> 92.1 / 95.1 / 96.0 / 98.0 / 99.0
# / 99.3); 704 / 800 / 1000 96.8 / 100.1 / 98.2 -> 99.1 / 98.9 / 97.6 (log-softmax 88.2 /
# 94.8 / 98.4 -> 99.9 / 99.5 / 97.3). At 32 values a thread the 1 KiB blocks' softmax
# reached 100.2-100.5 at 376-408 but log-softmax fell back to 84.5-98.3.
FUSED_PADDED_16BIT_FAST_MIN_BLOCK_BYTES = 1024
FUSED_PADDED_16BIT_FAST_TILE_BYTES = 4 * 1024
FUSED_PADDED_16BIT_FAST_UNITS_PER_THREAD = 64
# Under Triton's CPU interpreter every op is a numpy call per program: tiles of at most
# this many units keep the tests quick, and 7-row test inputs take several row blocks.
INTERPRET_FUSED_TILE_UNITS = 2048


@triton.jit
def _softmax_fused_kernel(x_ptr, y_ptr, n_rows, n_cols, x_row_stride, y_row_stride,
                          LOG_SOFTMAX: tl.constexpr, ROWS: tl.constexpr, BLOCK: tl.constexpr,
                          ALIGN: tl.constexpr, PAIRS: tl.constexpr, BF16: tl.constexpr,
                          SEGMENTS: tl.constexpr, EDGES: tl.constexpr, EDGE_LANES: tl.constexpr,
                          WINDOW: tl.constexpr, TAIL: tl.constexpr, INTERPRETER: tl.constexpr):
    # Grid: (x, y), one program per block of ROWS rows, block y * grid_x + x (y > 1 only
    # past CUDA's 2^31 - 1 programs in x). No program loops: a program that looped would
    # wait on its own stores before loading its next block (see `grid`).
    # Per block: read ROWS x n_cols elements once, write ROWS x n_cols once. PAIRS: the
    # rows are 16-bit (BF16: bfloat16, else float16), held two values per word
    # (pairs.py); BLOCK counts words; SEGMENTS > 0: as that many segments. EDGES > 0:
    # rows off the 16-byte alignment read as head, whole vectors of EDGES values and
    # tail, the edges in EDGE_LANES lanes a row (row_edges.py); WINDOW: those rows read
    # as whole vectors from the boundary before their start (`window`; 2: all but x's
    # last row, which the program that holds it reads by value after its tile, a
    # register-light pass the tile's program has room for; 3: contiguous rows that share
    # their edge vectors, read as SEGMENTS segments of BLOCK columns, shared_vectors.py;
    # 4: the same but for x's last row, which the program that holds it reads by value
    # with the row before it, TAIL columns a row); TAIL > 0 (WINDOW < 3): the window, or the
    # plain tile, as two tiles, BLOCK columns and TAIL past them (`window_parts`,
    # `plain_parts`). INTERPRETER: Triton's
    # CPU interpreter (no inline PTX; bf16 rounded in the fp32 bits, downcast.py).
    block = tl.program_id(1).to(tl.int64) * tl.num_programs(0) + tl.program_id(0)
    rows = block * ROWS + tl.arange(0, ROWS)
    n_cols, x_row_stride, y_row_stride = softmax_rows.aligned_sizes(n_cols, x_row_stride, y_row_stride, ALIGN)
    if PAIRS and SEGMENTS:
        _fused_pairs_segments(x_ptr, y_ptr, rows, n_rows, n_cols // 2, x_row_stride // 2, y_row_stride // 2,
                              LOG_SOFTMAX, BLOCK, SEGMENTS, BF16, INTERPRETER)
    elif PAIRS:
        _fused_pairs_tile(x_ptr, y_ptr, rows, n_rows, n_cols // 2, x_row_stride // 2, y_row_stride // 2,
                          LOG_SOFTMAX, BLOCK, BF16, INTERPRETER)
    elif WINDOW == 3:
        shared_vectors.tile(x_ptr, y_ptr, block, n_rows, n_cols, LOG_SOFTMAX, ROWS, BLOCK, SEGMENTS, EDGES,
                            INTERPRETER)
    elif WINDOW == 4:
        shared_vectors.tile(x_ptr, y_ptr, block, n_rows - 1, n_cols, LOG_SOFTMAX, ROWS, BLOCK, SEGMENTS, EDGES,
                            INTERPRETER)
        if block * ROWS + ROWS >= n_rows:
            shared_vectors.last_rows(x_ptr, y_ptr, n_rows, n_cols, LOG_SOFTMAX, TAIL, EDGES, INTERPRETER)
    elif WINDOW == 1:
        _fused_window_tile(x_ptr, y_ptr, rows, n_rows, n_cols, x_row_stride, y_row_stride, LOG_SOFTMAX, BLOCK,
                           TAIL, EDGES, EDGE_LANES, INTERPRETER)
    elif WINDOW == 2:
        _fused_window_tile(x_ptr, y_ptr, rows, n_rows - 1, n_cols, x_row_stride, y_row_stride, LOG_SOFTMAX, BLOCK,
                           TAIL, EDGES, EDGE_LANES, INTERPRETER)
        if block * ROWS + ROWS >= n_rows:
            # The 1-D pass needs the whole row in one power of two: BLOCK + TAIL <= 2 BLOCK.
            _one_row(x_ptr, y_ptr, n_rows - 1, n_cols, x_row_stride, y_row_stride, LOG_SOFTMAX,
                     BLOCK * (2 if TAIL else 1), INTERPRETER)
    elif EDGES:
        _fused_edges_tile(x_ptr, y_ptr, rows, n_rows, n_cols, x_row_stride, y_row_stride, LOG_SOFTMAX, BLOCK,
                          EDGES, EDGE_LANES, INTERPRETER)
    else:
        live = (rows < n_rows)[:, None]
        cols = tl.arange(0, BLOCK)[None, :]
        mask = live & (cols < n_cols)
        # Plain loads and stores: evict-first loads (.L1::evict_first) and streaming
        # stores (.cs) both measured slower on an H200 (see softmax_policy.AUTO_FUSED_MAX_COLS).
        x = tl.load(x_ptr + rows[:, None] * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
        # Padding is -inf: it never wins the max and its exp is 0. A row of -inf has
        # m = -inf and x - m = NaN; +inf gives inf - inf = NaN; a NaN element makes its
        # exp and so the sum NaN: all three end up NaN across the row, like torch.
        m = tl.max(x, axis=1)
        if TAIL:
            # The row past BLOCK columns (`plain_parts`), loaded after the first part's
            # max as the window's tail is (`_fused_window_tile`).
            cols_t = BLOCK + tl.arange(0, TAIL)[None, :]
            mask_t = live & (cols_t < n_cols)
            x_t = tl.load(x_ptr + rows[:, None] * x_row_stride + cols_t, mask=mask_t,
                          other=-float("inf")).to(tl.float32)
            m = tl.maximum(m, tl.max(x_t, axis=1))
        shifted, e, d = _shifted_exps(x, m)
        if TAIL:
            shifted_t, e_t, d_t = _shifted_exps(x_t, m)
            d += d_t
        norm = softmax_rows.normaliser(d, LOG_SOFTMAX)
        y = _outputs(shifted, e, norm, LOG_SOFTMAX)
        tl.store(y_ptr + rows[:, None] * y_row_stride + cols,
                 downcast.rounded(y, y_ptr.dtype.element_ty, INTERPRETER), mask=mask)
        if TAIL:
            y_t = _outputs(shifted_t, e_t, norm, LOG_SOFTMAX)
            tl.store(y_ptr + rows[:, None] * y_row_stride + cols_t,
                     downcast.rounded(y_t, y_ptr.dtype.element_ty, INTERPRETER), mask=mask_t)


@triton.jit
def _fused_edges_tile(x_ptr, y_ptr, rows, n_rows, n_cols, x_row_stride, y_row_stride,
                      LOG_SOFTMAX: tl.constexpr, BLOCK: tl.constexpr, EDGES: tl.constexpr,
                      EDGE_LANES: tl.constexpr, INTERPRETER: tl.constexpr):
    # `fused` on rows that start off a 16-byte boundary (row_edges.py): each row's whole
    # vectors of EDGES values as the tile, loaded and stored 16 bytes at a time from the
    # row's first aligned address; its head and tail (at most 2 EDGES - 2 values) in a
    # [ROWS, EDGE_LANES] tile beside it, a value at a time.
    # How Triton lays the edge tile out decides its cost (`edge_lanes`): the edge tile is
    # loaded first, and reduced to its own (max, sum) before the body's pair joins it,
    # since Triton gives a value used by both tiles the layout that reaches it first, and
    # reaching it from the body's load keeps the body in its 16-byte layout (from the
    # edges' load, the body went through shared memory to the edges' layout: 8-16 KiB a
    # program at 33-301 columns, Triton 3.9).
    live = (rows < n_rows)[:, None]
    x_rows = rows * x_row_stride
    body_start, head, body = row_edges.split_row(x_rows, n_cols, EDGES)
    e = tl.arange(0, EDGE_LANES)[None, :]
    e_cols = row_edges.edge_columns(e, head[:, None], body[:, None])
    e_mask = live & (e < (n_cols - body)[:, None])
    xe = tl.load(x_ptr + x_rows[:, None] + e_cols, mask=e_mask, other=-float("inf")).to(tl.float32)
    cols = tl.arange(0, BLOCK)[None, :]
    mask = live & (cols < body[:, None])
    x = tl.load(x_ptr + body_start[:, None] + cols, mask=mask, other=-float("inf")).to(tl.float32)
    # The edges' exps relative to their own max (0 for edges of only -inf, or none:
    # their exps are then 0), rescaled to the row's max by a factor of at most 1 (0
    # where the edges are all -inf, so no inf can meet those zeros); special values
    # otherwise as in the plain tile (a NaN sum makes the edges NaN too).
    m_e = tl.max(xe, axis=1)
    ee = tl.exp2((xe - tl.where(m_e == -float("inf"), 0.0, m_e)[:, None]) * LOG2E)
    m = tl.maximum(tl.max(x, axis=1), m_e)
    rescale = tl.where(m_e == -float("inf"), 0.0, tl.exp2((m_e - m) * LOG2E))
    shifted = x - m[:, None]
    ex = tl.exp2(shifted * LOG2E)
    d = tl.sum(ex, axis=1) + tl.sum(ee, axis=1) * rescale
    if LOG_SOFTMAX:
        log_d = tl.log2(d) * LN2
        y = shifted - log_d[:, None]
        ye = (xe - m[:, None]) - log_d[:, None]
    else:
        y = ex * (1.0 / d)[:, None]
        ye = ee * (rescale * (1.0 / d))[:, None]
    y_body = row_edges.moved(body_start, rows, x_row_stride, y_row_stride, EDGES)
    tl.store(y_ptr + y_body[:, None] + cols, downcast.rounded(y, y_ptr.dtype.element_ty, INTERPRETER), mask=mask)
    tl.store(y_ptr + (rows * y_row_stride)[:, None] + e_cols,
             downcast.rounded(ye, y_ptr.dtype.element_ty, INTERPRETER), mask=e_mask)


@triton.jit
def _fused_window_tile(x_ptr, y_ptr, rows, n_rows, n_cols, x_row_stride, y_row_stride,
                       LOG_SOFTMAX: tl.constexpr, BLOCK: tl.constexpr, TAIL: tl.constexpr,
                       EDGES: tl.constexpr, EDGE_LANES: tl.constexpr, INTERPRETER: tl.constexpr):
    # `fused` on rows that start off a 16-byte boundary and fit the tile with their head
    # and tail vectors (`window`): each row as the BLOCK values from the 16-byte boundary
    # at or before its start, every vector that holds one of its values loaded whole (16
    # bytes), its neighbours' values in the head and tail vectors set to -inf. The row's
    # max and sum are then the plain tile's, in the body's one layout: a separate edge
    # tile joined to the body's max (`_fused_edges_tile`) made Triton 3.6 convert the
    # edges into the body's layout, replicated over the lanes (32 more values a thread:
    # bf16 577 94 registers against 576's 64). The head and tail vectors hold values of
    # the neighbouring rows (inside x: x ends on a vector, or its last row is not read
    # here, `window`; n_rows: the rows read so), so only whole vectors of the row are
    # stored 16 bytes at a time; the head's and tail's values are read again (L1/L2)
    # after the reductions, one a thread, and stored singly, so that the body's exps are
    # not kept live for them. TAIL > 0: the window is two tiles, its first BLOCK columns
    # and TAIL more (`window_parts`), each reduced on its own and joined by their rows'
    # (max, sum).
    live = (rows < n_rows)[:, None]
    x_rows = rows * x_row_stride
    x_base = row_edges.window_base(x_rows, EDGES)
    h, cols, end = row_edges.window(x_rows, x_base, n_cols, BLOCK)
    x = _window_values(x_ptr, x_base, live, cols, h, end, n_cols, EDGES)
    # Special values as in the plain tile: the -inf set above never wins the max and its
    # exp is 0.
    m = tl.max(x, axis=1)
    if TAIL:
        # Loaded after the first tile's max: before it (both tiles' loads in flight at
        # once) bf16 577 took 80 registers against 63 under Triton 3.6 and lost (H200,
        # 55.9 -> 48.3% of copy, benchmarks/h200_2026-11-26h/tail2_*).
        cols_t = BLOCK + tl.arange(0, TAIL)[None, :]
        x_t = _window_values(x_ptr, x_base, live, cols_t, h, end, n_cols, EDGES)
        m = tl.maximum(m, tl.max(x_t, axis=1))
    shifted, e, d = _shifted_exps(x, m)
    if TAIL:
        shifted_t, e_t, d_t = _shifted_exps(x_t, m)
        d += d_t
    norm = softmax_rows.normaliser(d, LOG_SOFTMAX)
    y = _outputs(shifted, e, norm, LOG_SOFTMAX)
    # y's row starts sit at x's offsets from 16 bytes (row_edges.edge_vector). Worked
    # out again from the row rather than from x_base (`moved`): kept live across the
    # reductions, the four rows' 64-bit bases and heads took 16 more registers.
    y_base = row_edges.window_base(rows * y_row_stride, EDGES)
    tl.store(y_ptr + y_base[:, None] + cols, downcast.rounded(y, y_ptr.dtype.element_ty, INTERPRETER),
             mask=row_edges.window_whole(live, cols, h, end, EDGES))
    if TAIL:
        y_t = _outputs(shifted_t, e_t, norm, LOG_SOFTMAX)
        tl.store(y_ptr + y_base[:, None] + cols_t, downcast.rounded(y_t, y_ptr.dtype.element_ty, INTERPRETER),
                 mask=row_edges.window_whole(live, cols_t, h, end, EDGES))
    e_cols, e_mask = row_edges.window_edges(live, tl.arange(0, EDGE_LANES)[None, :], h, end, EDGES)
    xe = tl.load(x_ptr + x_base[:, None] + e_cols, mask=e_mask, other=0.0).to(tl.float32)
    if LOG_SOFTMAX:
        ye = (xe - m[:, None]) - norm[:, None]
    else:
        ye = tl.exp2((xe - m[:, None]) * LOG2E) * norm[:, None]
    tl.store(y_ptr + y_base[:, None] + e_cols, downcast.rounded(ye, y_ptr.dtype.element_ty, INTERPRETER),
             mask=e_mask)


@triton.jit
def _shifted_exps(x, m):
    # A tile's x - max and exp(x - max) (exp2 of the shift times log2 e) for its rows'
    # maxima m, and each row's sum of the exps: one part of a tile, the first or its tail.
    shifted = x - m[:, None]
    e = tl.exp2(shifted * LOG2E)
    return shifted, e, tl.sum(e, axis=1)


@triton.jit
def _outputs(shifted, e, norm, LOG_SOFTMAX: tl.constexpr):
    # A part's outputs from `_shifted_exps` and `softmax_rows.normaliser`: x - max - log d, or e / d.
    return shifted - norm[:, None] if LOG_SOFTMAX else e * norm[:, None]


@triton.jit
def _window_values(x_ptr, x_base, live, cols, h, end, n_cols, EDGES: tl.constexpr):
    # The window columns `cols` of live rows as fp32: every vector that holds a value of
    # the row loaded whole, the neighbouring rows' values in them set to -inf.
    x = tl.load(x_ptr + x_base[:, None] + cols, mask=row_edges.window_read(live, cols, end, EDGES),
                other=-float("inf"))
    return tl.where(row_edges.in_window_row(cols, h, n_cols, EDGES), x.to(tl.float32), -float("inf"))


@triton.jit
def _one_row(x_ptr, y_ptr, row, n_cols, x_row_stride, y_row_stride, LOG_SOFTMAX: tl.constexpr,
             BLOCK: tl.constexpr, INTERPRETER: tl.constexpr):
    # Softmax of x's row `row` (at most BLOCK values) read and written by value, as a
    # 1-D tile over the program's threads: a few values a thread, so it takes no more
    # registers than the 2-D tile before it. Special values as in the plain tile.
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    row = tl.cast(row, tl.int64)  # n_rows - 1: an int where Triton specialises n_rows (1)
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    shifted = x - m
    e = tl.exp2(shifted * LOG2E)
    d = tl.sum(e, axis=0)
    if LOG_SOFTMAX:
        y = shifted - tl.log2(d) * LN2
    else:
        y = e * (1.0 / d)
    tl.store(y_ptr + row * y_row_stride + cols, downcast.rounded(y, y_ptr.dtype.element_ty, INTERPRETER), mask=mask)


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
                      INTERPRETER: tl.constexpr):
    # `fused` on 16-bit rows as uint32 words (pairs.py): a thread keeps its words, not
    # their fp32 widening, live between the passes. The three passes (max; sum of exps;
    # output) widen the words each in their own form, so the compiler cannot merge them.
    words = tl.arange(0, BLOCK)
    mask = (rows < n_rows)[:, None] & (words < n_words)[None, :]
    w = tl.load(x_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + rows[:, None] * x_row_words
                + words[None, :], mask=mask, other=pairs.neg_inf_pair(BF16))
    # Special values as in the plain tile: padding pairs are two -inf.
    m = tl.max(pairs.maxima(w, BF16, INTERPRETER), axis=1)[:, None]
    d = tl.sum(pairs.exps(w, m, BF16, INTERPRETER), axis=1)[:, None]
    y = pairs.output(w, m, d, LOG_SOFTMAX, BF16, INTERPRETER)
    tl.store(y_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + rows[:, None] * y_row_words
             + words[None, :], y, mask=mask)


@triton.jit
def _fused_pairs_segments(x_ptr, y_ptr, rows, n_rows, n_words, x_row_words, y_row_words,
                          LOG_SOFTMAX: tl.constexpr, BLOCK: tl.constexpr, SEGMENTS: tl.constexpr,
                          BF16: tl.constexpr, INTERPRETER: tl.constexpr):
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
    if INTERPRETER:
        m_t = pairs.maxima(ws[0], BF16, INTERPRETER)
        for s in tl.static_range(1, SEGMENTS):
            m_t = tl.maximum(m_t, pairs.maxima(ws[s], BF16, INTERPRETER))
    else:
        m_w = ws[0]
        for s in tl.static_range(1, SEGMENTS):
            m_w = pairs.max2(m_w, ws[s], BF16)
        m_t = pairs.maxima(m_w, BF16, INTERPRETER)
    # A lane of only -inf (padding) takes exponents relative to 0: its sum is 0.
    shift = tl.where(m_t == -float("inf"), 0.0, m_t)
    d_t = tl.zeros_like(m_t)
    for s in tl.static_range(SEGMENTS):
        d_t += pairs.exps(ws[s], shift, BF16, INTERPRETER)
    m, d = tl.reduce((m_t, d_t), 1, _merge_max_sum)
    m = m[:, None]
    d = d[:, None]
    y_rows = y_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + rows * y_row_words
    for s in tl.static_range(SEGMENTS):
        tl.store(y_rows + s * SEGMENT + lanes, pairs.output(ws[s], m, d, LOG_SOFTMAX, BF16, INTERPRETER),
                 mask=(rows < n_rows) & (lanes < n_words - s * SEGMENT))

# -- backward ----------------------------------------------------------------------------------

# The backward holds two tensors, y and dy, where the forward holds one: it keeps the
# forward's registers per thread (FUSED_UNITS_PER_THREAD data registers) and bytes per
# tile by halving what each tensor gets: 16 units of each per thread, tiles of
# FUSED_TILE_BYTES / 2 of each, at most FUSED_MAX_TILE_ROWS / 2 rows (an address per
# value of two tensors below 16-byte rows), and rows up to half the forward's widths:
# 16384 (fp32, and 16-bit rows that are not paired) at 32 warps, 46-48 registers on
# sm_90; 8192 for odd widths or row strides loaded value by value, 52-58 registers at 16
# warps (read as head, whole vectors and tail: 16384, 54-58 registers at 32 warps for
# 16383 columns, Triton 3.6 and 3.9).
FUSED_BWD_UNITS_PER_THREAD = FUSED_UNITS_PER_THREAD // 2
FUSED_BWD_MAX_COLS = FUSED_MAX_COLS // 2
FUSED_BWD_MAX_COLS_ODD = FUSED_MAX_COLS_ODD // 2
FUSED_BWD_TILE_BYTES = FUSED_TILE_BYTES // 2
FUSED_BWD_MAX_TILE_ROWS = FUSED_MAX_TILE_ROWS // 2
# Paired rows (pairs.py), twice as wide: bf16 only. bf16 at 8192-32768 takes 60-63
# registers under the FUSED_PAIRS_MAX_REGISTERS cap. fp16 softmax rows spill 44-56 bytes
# at 64 registers whichever widening forms the two passes use (every form ends in the
# same fp16 -> fp32 conversion, which ptxas then computes once for both passes and
# keeps live across the sum's reduction); bf16 widens by a shift or a mask, which forms
# 0 and 2 spell differently.
FUSED_BWD_MAX_COLS_PAIRS = {torch.bfloat16: 2 * FUSED_BWD_MAX_COLS}
# 16-bit rows at least this wide are held as pairs. A first choice, to be tuned on the
# GPU: the forward pairs from FUSED_PAIRS_MIN_COLS, where a thread's share of the row
# reaches 32 words; the backward's two rows reach that at half the width.
FUSED_BWD_PAIRS_MIN_COLS = FUSED_PAIRS_MIN_COLS // 2
# 16-bit odd rows whose head and tail vectors fit the tile are read as whole vectors from
# the boundary before them (`backward_window`) only where they fill more than this much of
# it: two tensors' windows take more registers than their element loads where much of the
# tile is empty. H200, 1 GiB, % of copy, softmax / log-softmax backward, bf16, element
# loads -> window (benchmarks/h200_2026-11-26g/bwin_*; rows not a multiple of 8, then a
# multiple): 197 (204 of a 256-wide tile; 36-48 registers against 48) 61.3 / 58.9 ->
# 85.3 / 89.0, 90.2 / 84.4; 3001 (3008 of 4096) 89.2 / 89.2 -> 93.0 / 92.2, 100.3 /
# 98.2; 577 (584 of 1024; 61-72 against 48) 71.3 / 64.2 -> 67.8 / 57.1, 79.7 / 73.9 ->
# 67.3 / 58.9. fp16 alike.
FUSED_BWD_WINDOW_MIN_FILL = 2 / 3
# The forward's FUSED_EDGE_ROWS_BYTES for the backward's 16-bit rows, whose programs read
# two tensors a row, so the edge tile (one row a program) serves rows up to half the
# forward's bytes; narrower rows read in three parts take element loads in tiles of
# rows, where the edge tile took them one a program. H200, 1 GiB, % of copy, softmax /
# log-softmax backward, bf16, main -> both (benchmarks/h200_2026-11-26h/bA_*): edge tile
# 577 71.2 / 64.2 -> 74.4 / 85.3, 700 (a window before) 77.7 / 67.9 -> 85.1 / 91.2, but
# 1500 91.2 / 89.4 -> 87.3 / 97.8 (hence 2 KiB); element loads 33 / 130 / 260 7.8 / 30.5 /
# 60.7 -> 33.9 / 53.0 / 79.3 (log-softmax alike); 197, 300 and 3001 even. H100 (benchmarks/
# h100_2026-11-26h/bwdrule_*): edge tile 577 90.0 / 82.2 -> 87.0 / 92.8, 700 97.2 / 87.8 ->
# 92.9 / 99.0 (softmax's backward loses there, log-softmax's gains more); element loads 33
# / 130 / 260 10.9 / 43.0 / 84.8 -> 47.0 / 71.9 / 94.0 (log-softmax 34.8 / 68.3 / 92.3).
FUSED_BWD_EDGE_ROWS_BYTES = (1024, 2048)
# Aligned rows (ALIGN 16, not paired) of 128-2048 columns, powers of two, take tiles of
# 16 KiB of each tensor at 8 units of each a thread (`_backward_tile`). 1 GiB, % of copy,
# softmax backward, 8 KiB / 16 -> 16 KiB / 8, 128 / 256 / 512 / 1024 / 2048 columns (`tuning/tune.py`,
# benchmarks/h100_2026-11-27i/tiles_bwd_{,r2_}h100_*.txt, two rounds alike,
# benchmarks/h200_2026-11-27i/tiles_bwd_h200_d52c863.txt):
#   H100 fp32 100.2 / 101.4 / 101.0 / 101.3 / 101.3 -> 101.4 / 101.5 / 101.4 / 101.5 / 101.5
#        bf16 100.9 / 100.9 / 101.8 / 101.8 / 101.8 -> 102.4 / 102.4 / 102.6 / 102.6 / 102.5
#   H200 fp32 101.9 / 102.4 / 102.1 / 102.2 / 102.3 -> 102.1 / 102.6 / 102.4 / 102.5 / 102.4
#        bf16 102.6 at each -> 103.4 / 103.5 / 104.2 / 104.1 / 103.9 (fp16 alike)
# At 4096 the H200's 16-bit rows lose (bf16 102.6 -> 102.1, fp16 at 4096 / 8192 103.7 /
# 105.3 -> 102.7 / 102.8, wide_tiles_bwd_h200_1ad8dab.txt); fp32 ties. 32 KiB tiles,
# best on the H100 (fp32 +0.4-1.3), lose 6-10 points at the H200's 16-bit 512-4096.
FUSED_BWD_SMALL_TILE_COLS = (128, 2048)
FUSED_BWD_SMALL_TILE_BYTES = 16 * 1024
FUSED_BWD_SMALL_TILE_UNITS_PER_THREAD = 8
# The forward's two parts (FUSED_PLAIN_TAIL_BLOCKS) in the backward: 16-bit blocks of 1024
# and 8192, the ones that gain on the H200 and hold >= 100 on the H100. 1 GiB, % of copy,
# `fused`, padded -> two parts, softmax / log-softmax backward, bf16
# (benchmarks/h200_2026-11-28/bwd_tail_h200_6c360e3.txt, bwd_tail_h100_0da7396.txt):
#   H200 520 / 4160 / 5120 93.0 / 81.0 / 89.9 -> 103.5 / 94.8 / 103.1,
#        log-softmax 92.9 / 78.8 / 86.3 -> 103.5 / 102.8 / 102.9 (fp16 4160 69.2 -> 102.7)
#   H100 520 / 4160 / 5120 103.0 / 95.0 / 101.6 -> 102.0 / 102.8 / 101.9,
#        log-softmax 103.0 / 93.5 / 97.4 -> 101.8 / 101.3 / 101.7
# The H200's padded 16-bit tiles likely trail because its bandwidth is 1.4x the H100's for the
# same SMs: a tile half empty leaves too few bytes in flight there. Blocks of 256 / 512
# lose on the H100 (bf16 264 103.3 -> 100.7) and on the H200 in fp16 (264 93.7 -> 90.3);
# fp32 is flat on the H200 and loses on the H100 (136 101.5 -> 99.0).
FUSED_BWD_PLAIN_TAIL_BLOCKS = {2: (1024, 8192)}
# Plain 16-bit rows of a width that is not a power of two, padded in one block (16-byte
# vectors from a vector boundary, neither pairs nor two parts), on GPUs that are
# `fast_sm` take tiles of 4 KiB of each tensor, at 32 units of each a thread where the
# block is 2 KiB or more (1024 columns: bf16 1040 one row of 2048 over 2 warps, not two
# over 8); elsewhere the 8 KiB tile at 16. The H200's padded tiles leave too few bytes in
# flight per SM for its bandwidth, as the forward's (FUSED_PADDED_16BIT_*). 1 GiB, % of
# copy, `fused`, bf16 softmax / bf16 log-softmax / fp16 softmax backward, 8 KiB at 16
# -> 4 KiB at 16 | 4 KiB at 32 (`tuning/tune.py`, H200,
# benchmarks/h200_2026-11-28/fused_bwd_padded16_h200_ada645d.txt):
#   136 98.9 / 101.0 / 100.0 -> 100.6 / 102.5 / 101.4 | 88.2 / 95.8 / 89.0
#   264 92.2 / 92.7 / 93.3 -> 96.2 / 96.7 / 98.6 | 90.3 / 97.2 / 101.9
#   704 103.7 / 103.6 / 103.9 -> 103.2 / 102.3 / 103.2 | 103.0 / 102.7 / 102.9
#   1040 93.1 / 89.3 / 94.5 -> 99.7 / 102.9 / 100.8 | 102.8 / 100.1 / 103.3
#   2080 94.9 / 91.2 / 96.8 -> 94.9 / 91.2 / 96.8 | 102.0 / 100.0 / 102.9
#   6000 94.3 / 90.0 / 94.5 -> 94.4 / 90.1 / 94.5 | 102.8 / 100.0 / 102.8
# (400, 1536, 2600, 3000 within 0.5 of 103 at each but 2600's log-softmax 98.5 ->
# 98.5 | 103.5). The H100 (call 17, benchmarks/h200_2026-11-28/
# fused_bwd_tiles16_h100_c4079b4.txt) lost 0.7-1.0 with either (bf16 264 / 1040 / 2080
# 102.8 / 103.0 / 102.9 -> 4 KiB 102.0 / 102.0 / 102.9, 32 a thread 102.7 / 102.0 /
# 102.2): it keeps the 8 KiB tile at 16. The rule through `auto`, H200, two rounds alike
# (benchmarks/h200_2026-11-28/tri_bwd_padded16_compare_h200_48b09c7.txt): bf16 264 /
# 1040 / 2080 / 6000 92.9 / 93.5 / 94.6 / 94.9 -> 96.6 / 102.9 / 101.6 / 103.3; 520 / 704 /
# 3000 within 0.6.
FUSED_BWD_PADDED_16BIT_TILE_BYTES = 4 * 1024
FUSED_BWD_PADDED_16BIT_WIDE_BLOCK_BYTES = 2 * 1024
FUSED_BWD_PADDED_16BIT_WIDE_UNITS_PER_THREAD = 32
# Under the interpreter, tiles of at most this many units of each tensor.
INTERPRET_FUSED_BWD_TILE_UNITS = INTERPRET_FUSED_TILE_UNITS // 2


@triton.jit
def _softmax_fused_backward_kernel(y_ptr, dy_ptr, dx_ptr, n_rows, n_cols, y_row_stride, dy_row_stride,
                                   dx_row_stride, LOG_SOFTMAX: tl.constexpr, ROWS: tl.constexpr,
                                   BLOCK: tl.constexpr, ALIGN: tl.constexpr, PAIRS: tl.constexpr,
                                   BF16: tl.constexpr, EDGES: tl.constexpr, EDGE_LANES: tl.constexpr,
                                   WINDOW: tl.constexpr, TAIL: tl.constexpr, INTERPRETER: tl.constexpr):
    # Grid: (x, y), one program per block of ROWS rows, as the forward. Per block: read
    # ROWS x n_cols elements of y and of dy once, write ROWS x n_cols of dx once. PAIRS:
    # 16-bit rows held two values per word (BLOCK counts words). EDGES > 0: rows off the
    # 16-byte alignment read as head, whole vectors of EDGES values and tail, the edges
    # in EDGE_LANES lanes a row (row_edges.py); WINDOW: those rows read as whole vectors
    # from the boundary before their start, as the forward's (`backward_window`); TAIL >
    # 0: the plain tile as BLOCK columns and TAIL past them (`plain_parts`). The sum and
    # the output are fp32 (softmax_rows.grad_term / grad_out). INTERPRETER: Triton's CPU
    # interpreter.
    block = tl.program_id(1).to(tl.int64) * tl.num_programs(0) + tl.program_id(0)
    rows = block * ROWS + tl.arange(0, ROWS)
    n_cols, y_row_stride, dy_row_stride, dx_row_stride = softmax_rows.backward_sizes(
        n_cols, y_row_stride, dy_row_stride, dx_row_stride, ALIGN)
    if PAIRS:
        _fused_backward_pairs_tile(y_ptr, dy_ptr, dx_ptr, rows, n_rows, n_cols // 2, y_row_stride // 2,
                                   dy_row_stride // 2, dx_row_stride // 2, LOG_SOFTMAX, BLOCK, BF16, INTERPRETER)
    elif WINDOW == 1:
        _fused_backward_window_tile(y_ptr, dy_ptr, dx_ptr, rows, n_rows, n_cols, y_row_stride, dy_row_stride,
                                    dx_row_stride, LOG_SOFTMAX, BLOCK, EDGES, EDGE_LANES, INTERPRETER)
    elif WINDOW == 2:
        _fused_backward_window_tile(y_ptr, dy_ptr, dx_ptr, rows, n_rows - 1, n_cols, y_row_stride, dy_row_stride,
                                    dx_row_stride, LOG_SOFTMAX, BLOCK, EDGES, EDGE_LANES, INTERPRETER)
        if block * ROWS + ROWS >= n_rows:
            _one_row_backward(y_ptr, dy_ptr, dx_ptr, n_rows - 1, n_cols, y_row_stride, dy_row_stride, dx_row_stride,
                              LOG_SOFTMAX, BLOCK, INTERPRETER)
    elif EDGES:
        _fused_backward_edges_tile(y_ptr, dy_ptr, dx_ptr, rows, n_rows, n_cols, y_row_stride, dy_row_stride,
                                   dx_row_stride, LOG_SOFTMAX, BLOCK, EDGES, EDGE_LANES, INTERPRETER)
    else:
        live = (rows < n_rows)[:, None]
        cols = tl.arange(0, BLOCK)[None, :]
        mask = live & (cols < n_cols)
        # Padding is +0 in both: it adds nothing to either sum.
        y = tl.load(y_ptr + rows[:, None] * y_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
        g = tl.load(dy_ptr + rows[:, None] * dy_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
        s = tl.sum(softmax_rows.grad_term(y, g, LOG_SOFTMAX), axis=1)
        if TAIL:
            cols_t = BLOCK + tl.arange(0, TAIL)[None, :]
            mask_t = live & (cols_t < n_cols)
            y_t = tl.load(y_ptr + rows[:, None] * y_row_stride + cols_t, mask=mask_t, other=0.0).to(tl.float32)
            g_t = tl.load(dy_ptr + rows[:, None] * dy_row_stride + cols_t, mask=mask_t, other=0.0).to(tl.float32)
            s += tl.sum(softmax_rows.grad_term(y_t, g_t, LOG_SOFTMAX), axis=1)
        dx = softmax_rows.grad_out(y, g, s[:, None], LOG_SOFTMAX)
        tl.store(dx_ptr + rows[:, None] * dx_row_stride + cols,
                 downcast.rounded(dx, dx_ptr.dtype.element_ty, INTERPRETER), mask=mask)
        if TAIL:
            dx_t = softmax_rows.grad_out(y_t, g_t, s[:, None], LOG_SOFTMAX)
            tl.store(dx_ptr + rows[:, None] * dx_row_stride + cols_t,
                     downcast.rounded(dx_t, dx_ptr.dtype.element_ty, INTERPRETER), mask=mask_t)


@triton.jit
def _fused_backward_edges_tile(y_ptr, dy_ptr, dx_ptr, rows, n_rows, n_cols, y_row_stride, dy_row_stride,
                               dx_row_stride, LOG_SOFTMAX: tl.constexpr, BLOCK: tl.constexpr,
                               EDGES: tl.constexpr, EDGE_LANES: tl.constexpr, INTERPRETER: tl.constexpr):
    # The backward on rows that start off a 16-byte boundary, as `_fused_edges_tile`:
    # whole vectors of y, dy and dx 16 bytes at a time, the head and tail values beside
    # them in a [ROWS, EDGE_LANES] tile loaded first (so that the body keeps its layout).
    # Padding +0, as the plain tile.
    live = (rows < n_rows)[:, None]
    y_rows = rows * y_row_stride
    body_start, head, body = row_edges.split_row(y_rows, n_cols, EDGES)
    e = tl.arange(0, EDGE_LANES)[None, :]
    e_cols = row_edges.edge_columns(e, head[:, None], body[:, None])
    e_mask = live & (e < (n_cols - body)[:, None])
    ye = tl.load(y_ptr + y_rows[:, None] + e_cols, mask=e_mask, other=0.0).to(tl.float32)
    ge = tl.load(dy_ptr + (rows * dy_row_stride)[:, None] + e_cols, mask=e_mask, other=0.0).to(tl.float32)
    cols = tl.arange(0, BLOCK)[None, :]
    mask = live & (cols < body[:, None])
    dy_body = row_edges.moved(body_start, rows, y_row_stride, dy_row_stride, EDGES)
    y = tl.load(y_ptr + body_start[:, None] + cols, mask=mask, other=0.0).to(tl.float32)
    g = tl.load(dy_ptr + dy_body[:, None] + cols, mask=mask, other=0.0).to(tl.float32)
    s_e = tl.sum(softmax_rows.grad_term(ye, ge, LOG_SOFTMAX), axis=1)
    s = (tl.sum(softmax_rows.grad_term(y, g, LOG_SOFTMAX), axis=1) + s_e)[:, None]
    dx_body = row_edges.moved(body_start, rows, y_row_stride, dx_row_stride, EDGES)
    tl.store(dx_ptr + dx_body[:, None] + cols,
             downcast.rounded(softmax_rows.grad_out(y, g, s, LOG_SOFTMAX), dx_ptr.dtype.element_ty, INTERPRETER),
             mask=mask)
    tl.store(dx_ptr + (rows * dx_row_stride)[:, None] + e_cols,
             downcast.rounded(softmax_rows.grad_out(ye, ge, s, LOG_SOFTMAX), dx_ptr.dtype.element_ty, INTERPRETER),
             mask=e_mask)


@triton.jit
def _fused_backward_window_tile(y_ptr, dy_ptr, dx_ptr, rows, n_rows, n_cols, y_row_stride, dy_row_stride,
                                dx_row_stride, LOG_SOFTMAX: tl.constexpr, BLOCK: tl.constexpr,
                                EDGES: tl.constexpr, EDGE_LANES: tl.constexpr, INTERPRETER: tl.constexpr):
    # The backward on rows that start off a 16-byte boundary and fit the tile with their
    # head and tail vectors, as `_fused_window_tile`: y's and dy's rows as the BLOCK
    # values from the boundary at or before their start (at one offset from it in both:
    # row_edges.edge_vector), every vector loaded whole, the neighbours' values set to +0
    # (as the plain tile's padding: they add nothing to the sum); whole vectors of dx
    # stored 16 bytes at a time, the head's and tail's values read again after the sum
    # and stored singly. n_rows: the rows read so (all but x's last where it ends off a
    # boundary: `backward_window`).
    live = (rows < n_rows)[:, None]
    y_rows = rows * y_row_stride
    y_base = row_edges.window_base(y_rows, EDGES)
    dy_base = row_edges.window_base(rows * dy_row_stride, EDGES)
    h, cols, end = row_edges.window(y_rows, y_base, n_cols, BLOCK)
    read = row_edges.window_read(live, cols, end, EDGES)
    y = tl.load(y_ptr + y_base[:, None] + cols, mask=read, other=0.0)
    g = tl.load(dy_ptr + dy_base[:, None] + cols, mask=read, other=0.0)
    inside = row_edges.in_window_row(cols, h, n_cols, EDGES)
    y = tl.where(inside, y.to(tl.float32), 0.0)
    g = tl.where(inside, g.to(tl.float32), 0.0)
    s = tl.sum(softmax_rows.grad_term(y, g, LOG_SOFTMAX), axis=1)[:, None]
    dx_base = row_edges.window_base(rows * dx_row_stride, EDGES)
    tl.store(dx_ptr + dx_base[:, None] + cols,
             downcast.rounded(softmax_rows.grad_out(y, g, s, LOG_SOFTMAX), dx_ptr.dtype.element_ty, INTERPRETER),
             mask=row_edges.window_whole(live, cols, h, end, EDGES))
    e_cols, e_mask = row_edges.window_edges(live, tl.arange(0, EDGE_LANES)[None, :], h, end, EDGES)
    ye = tl.load(y_ptr + y_base[:, None] + e_cols, mask=e_mask, other=0.0).to(tl.float32)
    ge = tl.load(dy_ptr + dy_base[:, None] + e_cols, mask=e_mask, other=0.0).to(tl.float32)
    tl.store(dx_ptr + dx_base[:, None] + e_cols,
             downcast.rounded(softmax_rows.grad_out(ye, ge, s, LOG_SOFTMAX), dx_ptr.dtype.element_ty, INTERPRETER),
             mask=e_mask)


@triton.jit
def _one_row_backward(y_ptr, dy_ptr, dx_ptr, row, n_cols, y_row_stride, dy_row_stride, dx_row_stride,
                      LOG_SOFTMAX: tl.constexpr, BLOCK: tl.constexpr, INTERPRETER: tl.constexpr):
    # The backward of row `row` read and written by value, a 1-D tile as `_one_row`.
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    row = tl.cast(row, tl.int64)
    y = tl.load(y_ptr + row * y_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    g = tl.load(dy_ptr + row * dy_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    s = tl.sum(softmax_rows.grad_term(y, g, LOG_SOFTMAX), axis=0)
    tl.store(dx_ptr + row * dx_row_stride + cols,
             downcast.rounded(softmax_rows.grad_out(y, g, s, LOG_SOFTMAX), dx_ptr.dtype.element_ty, INTERPRETER),
             mask=mask)


@triton.jit
def _fused_backward_pairs_tile(y_ptr, dy_ptr, dx_ptr, rows, n_rows, n_words, y_row_words, dy_row_words,
                               dx_row_words, LOG_SOFTMAX: tl.constexpr, BLOCK: tl.constexpr,
                               BF16: tl.constexpr, INTERPRETER: tl.constexpr):
    # The backward on bf16 rows as uint32 words (pairs.py): a thread keeps its words of
    # y and dy, not their fp32 widening, live across the sum's block reduction. The sum
    # widens them in form 0, the output in form 2: form 1's shift and mask are the very
    # instructions form 0 compiles to, which ptxas merges (and then spills the widened
    # values: 52 bytes at 64 registers). Padding words are 0: two +0 halves.
    words = tl.arange(0, BLOCK)[None, :]
    rows = rows[:, None]
    mask = (rows < n_rows) & (words < n_words)
    wy = tl.load(y_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + rows * y_row_words + words,
                 mask=mask, other=0)
    wg = tl.load(dy_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + rows * dy_row_words + words,
                 mask=mask, other=0)
    s = tl.sum(pairs.grad_terms(wy, wg, LOG_SOFTMAX, BF16, INTERPRETER), axis=1)[:, None]
    lo, hi = pairs.grad_halves(wy, wg, s, LOG_SOFTMAX, BF16, INTERPRETER)
    tl.store(dx_ptr.to(tl.pointer_type(tl.uint32), bitcast=True) + rows * dx_row_words + words,
             pairs.pack(lo, hi, BF16, INTERPRETER), mask=mask)


# -- launch parameters -------------------------------------------------------------------------

def paired(x: torch.Tensor, align: int) -> bool:
    """Whether `fused` holds `x`'s rows as words of two 16-bit values (pairs.py): 16-bit
    rows of at least FUSED_PAIRS_MIN_COLS, an even width and row stride (ALIGN >= 2) and
    a 4-byte aligned start."""
    return (x.element_size() == 2 and x.shape[1] >= FUSED_PAIRS_MIN_COLS and align >= 2
            and x.data_ptr() % 4 == 0)


def loads_values(x: torch.Tensor, *more: torch.Tensor) -> bool:
    """Whether `fused` loads the rows of `x` (and `more`: the backward's dy) a value at a
    time: ALIGN 1 and not read as head, whole vectors and tail (`edges`). The forward's
    fp32 rows of 64-1024 columns count as element loads here on every GPU, though
    `fast_sm` ones read them in three parts (FUSED_EDGES_FAST_MIN_COLS): the width limits
    that this answer chooses between both hold such rows."""
    return softmax_rows.row_align(x, *more) == 1 and not edges(x, *more)


def max_cols(x: torch.Tensor) -> int:
    """Widest row of `x`'s dtype and alignment that `fused` holds in registers."""
    align = softmax_rows.row_align(x)
    if loads_values(x):
        return FUSED_MAX_COLS_ODD
    if paired(x, align):
        return FUSED_MAX_COLS_PAIRS[x.dtype]
    return FUSED_MAX_COLS_EDGES[x.element_size()] if align == 1 else FUSED_MAX_COLS


def why_unsupported(x: torch.Tensor) -> str | None:
    """None when `fused` holds the rows of `x` (2-D) in registers; else why not."""
    cols, limit = x.shape[1], max_cols(x)
    if cols <= limit:
        return None
    align = softmax_rows.row_align(x)
    if not loads_values(x):
        return (f"triton variant 'fused' keeps a whole row in registers, at most {limit} columns "
                f"of {x.dtype}{' held in pairs' if paired(x, align) else ''}; this row has {cols} "
                f"(use 'online' or 'auto')")
    return (f"triton variant 'fused' keeps a whole row in registers; rows with an odd width "
            f"or row stride load element by element and fit up to {FUSED_MAX_COLS_ODD} "
            f"columns; this row has {cols} (use 'online' or 'auto')")


def edges(x: torch.Tensor, *more: torch.Tensor, min_cols: dict[int, int] | None = None) -> int:
    """EDGES of `fused` on the (rows, cols) tensor `x` (backward: y, with dy in `more`):
    row_edges.edge_vector from `min_cols` columns (by element size; default
    FUSED_EDGES_MIN_COLS), else 0."""
    if x.shape[1] < (min_cols or FUSED_EDGES_MIN_COLS)[x.element_size()]:
        return 0
    return row_edges.edge_vector(x, *more)


def body_units(units: int, edges_: int) -> int:
    """The most columns a `fused` tile holds of a row of `units` columns: the row, or,
    read with EDGES = `edges_`, its longest body of whole vectors (the head and tail sit
    in the edge tile), so that a row just past a power of two (1025) takes a tile of
    half the width (1024), not twice it."""
    return units // edges_ * edges_ if edges_ else units


def edge_lanes(edges_: int, tile_rows: int, warps: int) -> int:
    """EDGE_LANES of a `fused` tile of `tile_rows` rows over `warps` warps whose rows are
    read with EDGES = `edges_` (0: none): a lane for each of a row's head and tail values
    (2 EDGES), or more, so that the edge tile has a value for every thread. Triton gives
    a load of fewer values than threads the layout of its users (the body's: every thread
    of a row holds, and loads, the row's edges again: Triton 3.6, bf16 1025 columns, 4
    rows over 8 warps, 33 value loads a thread and 101 registers at 16 lanes, 1 load and
    64 registers at 64)."""
    if not edges_:
        return 0
    return max(2 * edges_, 32 * warps // tile_rows)


def window(x: torch.Tensor, edges_: int, block: int, tile_rows: int) -> int:
    """WINDOW of a `fused` tile of `tile_rows` rows, `block` units wide, on `x` read with
    EDGES = `edges_`. Where each row, from the 16-byte boundary at or before its start,
    fits the tile (width + EDGES - 1 <= block: bf16 197, 577, 3001, not 1025),
    `_fused_window_tile` reads every vector of the rows whole:
    * 1 where x ends on a 16-byte boundary (`row_edges.ends_on_vector`: the last row's
      tail vector is x's own; bf16 odd rows in a multiple of 8);
    * else 2 where the tile holds two rows or more: every row but the last, which the
      program that holds it reads by value after its tile (`_one_row`: a 1-D tile of at
      most half the 2-D tile's values a thread);
    * else 0: the rows keep `_fused_edges_tile`. A one-row tile (fp32 3001, 5001) would
      hold the last row in as many registers as the tile.
    Rows whose window spans more than 1 KiB in rows of less than 4 KiB take the edge tile,
    one row a program, too (FUSED_EDGE_ROWS_BYTES: bf16 577, 1500).
    Registers, sm_90, softmax / log-softmax, Triton 3.6 (the H100's and H200's):
    * edge tile -> window 1, bf16 8192 rows: 197 74 / 80 -> 57 / 47, 577 94 / 128 -> 79 /
      79, 3001 61 / 80 -> 55 / 48;
    * window 2, bf16 8191 rows: 197 48 / 55, 577 77 / 80, 3001 48 / 60;
    * fp32 8191 rows, edge tile against window 2 (not taken): 3001 64 / 64 against
      72 / 64, 5001 63 / 64 against 64 / 64 (Triton 3.9: 80 / 87 and 84 / 93).
    About 1 GiB, % of copy, softmax / log-softmax forward, edge tile -> window:
    * window 1, H100, rows a multiple of 8 (benchmarks/h100_2026-11-26f/win8_*): bf16
      197 68.3 / 64.2 -> 88.0 / 85.4, 577 45.4 / 44.6 -> 67.7 / 64.6, 3001 89.7 / 77.4 ->
      98.1 / 100.4;
    * window 2, rows not a multiple of 8 (benchmarks/h100_2026-11-26g/win2_*,
      benchmarks/h200_2026-11-26g/win2_*): H100 bf16 197 68.3 / 64.3 -> 91.4 / 86.0, 577
      45.4 / 45.3 -> 63.1 / 63.8, 3001 89.5 / 77.4 -> 100.1 / 96.8; H200 197 50.8 / 47.1
      -> 71.2 / 65.5, 577 33.5 / 33.1 -> 45.7 / 46.1, 3001 73.6 / 58.5 -> 85.7 / 80.4;
      fp16 alike."""
    if (not edges_ or x.shape[1] + edges_ - 1 > block
            or _edge_tile_row(x, edges_, FUSED_EDGE_ROWS_BYTES[x.element_size()])):
        return 0
    if row_edges.ends_on_vector(x):
        return 1
    return 2 if tile_rows > 1 else 0


def window_parts(x: torch.Tensor, edges_: int, block: int) -> tuple[int, int]:
    """(BLOCK, TAIL) of a window tile `block` units wide on `x` read with EDGES =
    `edges_`: the window as one tile (block, 0), or, for blocks of up to
    FUSED_WINDOW_TAIL_MAX_BLOCK, as two: half the block and the fewest columns past it (a
    power of two) that hold the rest of the window, where those leave out a quarter of
    the block or more (bf16 577: 512 + 128, not 1024). Triton holds a tile's masked
    columns in registers too: at 577 one tile is 43% masked, two are 9%, and Triton 3.6
    takes 63 / 64 registers (softmax / log-softmax) against 77 / 80."""
    half = block // 2
    rest = x.shape[1] + edges_ - 1 - half
    if rest <= 0 or half < 2 * edges_ or block > FUSED_WINDOW_TAIL_MAX_BLOCK:
        return block, 0
    tail = max(edges_, triton.next_power_of_2(rest))
    return (half, tail) if tail <= half // 2 else (block, 0)


def plain_parts(cols: int, align: int, elem: int, block: int,
                blocks: dict[int, tuple[int, ...]]) -> tuple[int, int]:
    """(BLOCK, TAIL) of a plain tile `block` units wide on rows of `cols` values of `elem`
    bytes at ALIGN `align`: for rows of whole 16-byte vectors whose block is one of
    `blocks`[elem] (FUSED_PLAIN_TAIL_BLOCKS, FUSED_BWD_PLAIN_TAIL_BLOCKS), half the block
    and the fewest columns past it (a power of two) that hold the rest of the row, where
    those are at most 1 / FUSED_PLAIN_TAIL_MAX_PART of the half (bf16 264: 256 + 8; not
    384: 256 + 128); else (block, 0)."""
    half = block // 2
    if align * elem < row_edges.VECTOR_BYTES or block not in blocks.get(elem, ()) or cols <= half:
        return block, 0
    tail = triton.next_power_of_2(cols - half)
    return (half, tail) if tail <= half // FUSED_PLAIN_TAIL_MAX_PART else (block, 0)


def _pow2_at_most(n: int) -> int:
    return 1 << (max(1, n).bit_length() - 1)


def _tile_rows(block: int, unit: int, rows: int, sm_count: int | None, tile_bytes: int, max_rows: int,
               interpret_units: int) -> int:
    """Rows of a `fused` tile `block` units of `unit` bytes wide (forward or backward: the
    caller's tile bytes, row cap and interpreter cap): as many as fill `tile_bytes`, but
    few rows spread over the SMs rather than packed into a few programs."""
    tile_rows = min(max_rows, _pow2_at_most(tile_bytes // (block * unit)))
    tile_rows = min(tile_rows, triton.next_power_of_2(triton.cdiv(rows, sm_count) if sm_count else rows))
    if sm_count is None:
        tile_rows = min(tile_rows, _pow2_at_most(interpret_units // block))
    return tile_rows


def _span_bytes(x: torch.Tensor, edges_: int) -> int:
    """Bytes of a row of `x` read with EDGES = `edges_` from the 16-byte boundary at or
    before its start (its window's span)."""
    return (x.shape[1] + edges_ - 1) * x.element_size()


def _edge_tile_row(x: torch.Tensor, edges_: int, bounds: tuple[int, int]) -> bool:
    """Whether rows of `x` read with EDGES = `edges_` take the edge tile, one row a
    program, by `bounds` (FUSED_EDGE_ROWS_BYTES' of the element size,
    FUSED_BWD_EDGE_ROWS_BYTES): a span of more than bounds[0] in a row of less than
    bounds[1]."""
    return edges_ > 0 and _span_bytes(x, edges_) > bounds[0] and x.shape[1] * x.element_size() < bounds[1]


def launch_params(x: torch.Tensor, limits: launch.DeviceLimits | None,
                  op: str) -> tuple[dict, int, int | None, int]:
    """(constexprs, num_warps, register cap, row blocks) of `fused` on the (rows, cols)
    tensor `x`: ROWS, BLOCK (units), PAIRS, ALIGN, BF16 and SEGMENTS; `limits` (the GPU's) None
    under the interpreter."""
    sm_count = launch.sm_count(limits)
    rows, cols = x.shape
    elem, align = x.element_size(), softmax_rows.row_align(x)
    pairs_ = paired(x, align)
    # Paired rows have an even width: half as many units, each twice the bytes.
    units, unit = (cols // 2, 2 * elem) if pairs_ else (cols, elem)
    shared = None if pairs_ else _shared_vectors(x, limits)
    if shared:
        tile_rows, seg_width, segments, warps = shared
        last_rows = not row_edges.ends_on_vector(x)
        constexprs = {"ROWS": tile_rows, "BLOCK": seg_width, "PAIRS": False, "ALIGN": align,
                      "BF16": x.dtype == torch.bfloat16, "SEGMENTS": segments, "EDGES": row_edges.edge_vector(x),
                      "EDGE_LANES": 0, "WINDOW": 4 if last_rows else 3,
                      "TAIL": triton.next_power_of_2(cols) if last_rows else 0}
        return constexprs, warps, None, triton.cdiv(rows, tile_rows)
    edges_ = 0 if pairs_ else edges(x, min_cols=FUSED_EDGES_FAST_MIN_COLS if softmax_split.fast_sm(limits) else None)

    block = triton.next_power_of_2(body_units(units, edges_))
    # Rows held as whole vectors (neither pairs nor edges): one tile, or two parts.
    parts = None if edges_ or pairs_ else plain_parts(cols, align, elem, block, FUSED_PLAIN_TAIL_BLOCKS)
    vector_start = x.data_ptr() % row_edges.VECTOR_BYTES == 0
    span = _span_bytes(x, edges_) if edges_ else 0
    tile_bytes, per_thread = _tile(elem, cols, align, limits, parts if vector_start else None, span)

    def rows_of(block: int) -> int:
        return _tile_rows(block, unit, rows, sm_count, tile_bytes, FUSED_MAX_TILE_ROWS,
                          INTERPRET_FUSED_TILE_UNITS)

    tile_rows = rows_of(block)
    window_ = window(x, edges_, block, tile_rows)
    if (edges_ and not window_ and _span_bytes(x, edges_) <= FUSED_EDGE_ROWS_BYTES[elem][0]
            and window(x, edges_, 2 * block, rows_of(2 * block))):
        # A narrow row whose head and tail vectors spill past its body's power of two
        # (bf16 260: 267 columns from the boundary before it) in a window of twice that,
        # as two tiles (256 + 16), not the edge tile's one row a program, too few bytes
        # for a program. Wider rows (1025, 2049) keep the edge tile. 1 GiB, % of copy,
        # softmax / log-softmax, bf16, edge tile -> window (benchmarks/h*_2026-11-26h/
        # rule3_*): H200 33 / 58 / 130 / 250 / 260 5.2 / 9.1 / 20.4 / 39.1 / 40.6 -> 32.3
        # / 53.2 / 53.9 / 50.5 / 50.0; H100 7.3 / 12.8 / 28.7 / 55.1 / 57.3 -> 38.9 / 73.7
        # / 73.9 / 65.6 / 67.5.
        block, tile_rows = 2 * block, rows_of(2 * block)
        window_ = window(x, edges_, block, tile_rows)
    if edges_ and not window_:
        tile_rows = min(tile_rows, FUSED_EDGES_TILE_ROWS)
    warps = max(1, min(FUSED_MAX_WARPS, tile_rows * block // (32 * per_thread)))
    if window_:
        block, tail = window_parts(x, edges_, block)
    else:
        block, tail = parts or (block, 0)  # the window's doubled block is edges' alone
    if tail:
        warps = max(1, warps // FUSED_TAIL_WARPS_DIVISOR)
    maxnreg = FUSED_PAIRS_MAX_REGISTERS if pairs_ and sm_count is not None else None
    constexprs = {"ROWS": tile_rows, "BLOCK": block, "PAIRS": pairs_, "ALIGN": align,
                  "BF16": x.dtype == torch.bfloat16, "SEGMENTS": _segments(pairs_, block, cols),
                  "EDGES": edges_, "EDGE_LANES": edge_lanes(edges_, tile_rows, warps), "WINDOW": window_,
                  "TAIL": tail}
    return constexprs, warps, maxnreg, triton.cdiv(rows, tile_rows)


def _shared_vectors(x: torch.Tensor, limits: launch.DeviceLimits | None) -> tuple[int, int, int, int] | None:
    """shared_vectors.geometry (ROWS, SEGW, SEGS, warps) where `fused` takes the
    shared-vector tile on the (rows, cols) tensor `x` on the GPU of `limits`, else None:
    contiguous rows of a width off whole 16-byte vectors whose window spans at most
    FUSED_SHARED_MAX_SPAN bytes, on `fast_sm` GPUs (the output is always contiguous:
    softmax.launch_plan)."""
    vec = row_edges.edge_vector(x)
    if (not softmax_split.fast_sm(limits) or not shared_vectors.fits(x, vec)
            or _span_bytes(x, vec) > FUSED_SHARED_MAX_SPAN.get(x.element_size(), 0)):
        return None
    return shared_vectors.geometry(x, vec)


def _tile(elem: int, cols: int, align: int, limits: launch.DeviceLimits | None,
          parts: tuple[int, int] | None, span: int = 0) -> tuple[int, int]:
    """(bytes, units a thread) of the forward's tile on rows of `cols` values of `elem`
    bytes at ALIGN `align` on the GPU of `limits` (`parts`: the (BLOCK, TAIL) of
    `plain_parts` for rows held as whole vectors from a vector boundary, neither pairs nor
    edges; else None; `span`: the bytes of a row read in three parts from the 16-byte
    boundary before it, else 0): FUSED_EDGES_FAST_* for rows read so whose span is within
    FUSED_EDGES_FAST_MIN_SPAN / MAX_SPAN on `fast_sm` GPUs, FUSED_WIDE_TILE_* and
    FUSED_SMALL_TILE_* for aligned fp32 rows of their widths (`_fills_small_tile`),
    FUSED_PADDED_16BIT_* for plain 16-bit rows of a width that is not a power of two (the
    two parts' only within FUSED_PADDED_16BIT_PARTS_MAX_TAIL; FUSED_PADDED_16BIT_FAST_*
    for padded blocks of 1 KiB and more on `fast_sm` GPUs), FUSED_SMALL_TILES_16BIT for
    aligned 16-bit rows on GPUs that are not `fast_sm`, else FUSED_TILE_BYTES at
    FUSED_UNITS_PER_THREAD."""
    if (span and softmax_split.fast_sm(limits)
            and FUSED_EDGES_FAST_MIN_SPAN[elem] < span <= FUSED_EDGES_FAST_MAX_SPAN[elem]):
        return FUSED_EDGES_FAST_TILE_BYTES, FUSED_EDGES_FAST_UNITS_PER_THREAD
    if align == softmax_rows.MAX_ALIGN and elem == 4:
        if cols == FUSED_WIDE_TILE_FP32_COLS:
            return FUSED_WIDE_TILE_BYTES, FUSED_WIDE_TILE_UNITS_PER_THREAD
        if _fills_small_tile(cols, FUSED_SMALL_TILE_FP32_COLS):
            return FUSED_SMALL_TILE_BYTES, FUSED_SMALL_TILE_UNITS_PER_THREAD
    if _padded_block_bytes_on_fast_sm(elem, cols, align, parts, limits) >= FUSED_PADDED_16BIT_FAST_MIN_BLOCK_BYTES:
        return FUSED_PADDED_16BIT_FAST_TILE_BYTES, FUSED_PADDED_16BIT_FAST_UNITS_PER_THREAD
    if _plain_16bit_padded(elem, cols, align, parts):
        half, tail = parts
        if not tail:
            return FUSED_PADDED_16BIT_TILE_BYTES, FUSED_UNITS_PER_THREAD
        if tail <= FUSED_PADDED_16BIT_PARTS_MAX_TAIL.get(2 * half, 0):
            return FUSED_TILE_BYTES, FUSED_PADDED_16BIT_PARTS_UNITS_PER_THREAD
    if align == softmax_rows.MAX_ALIGN and elem == 2 and limits is not None and not softmax_split.fast_sm(limits):
        for low, high, tile_bytes, per_thread in FUSED_SMALL_TILES_16BIT:
            if _fills_small_tile(cols, (low, high)):
                return tile_bytes, per_thread
    return FUSED_TILE_BYTES, FUSED_UNITS_PER_THREAD


def _plain_16bit_padded(elem: int, cols: int, align: int, parts: tuple[int, int] | None) -> bool:
    """Whether rows with `plain_parts`' `parts` (None: not held as whole vectors from a
    vector boundary) are 16-bit rows of whole 16-byte vectors whose width is not a power
    of two: padded in one block (TAIL 0) or held in two parts. The forward's
    FUSED_PADDED_16BIT_* and the backward's FUSED_BWD_PADDED_16BIT_* take them."""
    return (parts is not None and elem == 2 and align * elem >= row_edges.VECTOR_BYTES
            and cols & (cols - 1) != 0)


def _padded_block_bytes_on_fast_sm(elem: int, cols: int, align: int, parts: tuple[int, int] | None,
                                   limits: launch.DeviceLimits | None) -> int:
    """Bytes of the one padded block of `_plain_16bit_padded` rows (TAIL 0) on a
    `fast_sm` GPU, else 0: the forward's FUSED_PADDED_16BIT_FAST_* and the backward's
    FUSED_BWD_PADDED_16BIT_* take such rows, by the block's bytes."""
    if not (_plain_16bit_padded(elem, cols, align, parts) and not parts[1] and softmax_split.fast_sm(limits)):
        return 0
    return parts[0] * elem


def _fills_small_tile(cols: int, bounds: tuple[int, int]) -> bool:
    """Whether rows of `cols` columns take a small tile of `bounds`
    (FUSED_SMALL_TILE_FP32_COLS, FUSED_SMALL_TILES_16BIT, FUSED_BWD_SMALL_TILE_COLS): a
    power of two within them. A padded row's masked half costs the small tile's many
    threads more than it saves (H200, fp32 1040 in a block of
    2048: 97.2 -> 88.2, benchmarks/h200_2026-11-27i/small_tiles_compare_h200_73478ad.txt)."""
    return bounds[0] <= cols <= bounds[1] and cols & (cols - 1) == 0


def _segments(pairs_: bool, block: int, cols: int) -> int:
    """SEGMENTS of `fused`: where a paired tile reduces per thread first, the 16-byte
    loads each thread makes (FUSED_UNITS_PER_THREAD words, four per load); else 0 (two
    block reductions)."""
    if not pairs_ or cols < FUSED_THREAD_SUMS_MIN_COLS:
        return 0
    return max(1, min(FUSED_UNITS_PER_THREAD, block) // 4)


def grid(units: int, row_bytes: int, constexprs: dict, limits: launch.DeviceLimits | None = None,
         programs_per_sm: int = 1) -> tuple[int, int]:
    """(programs, programs per SM) for `units` row blocks."""
    # One program per row block, not one resident wave that loops: measured on an
    # H200 (1 GiB inputs), the one-shot grid reaches 92-94% of copy bandwidth in fp32
    # and 95-99% in bf16 for widths 128-16384, against 86-92% for the persistent
    # loop, whose programs wait on their own stores before loading the next tile.
    # (`launch_plan` lays the programs out on a 2-D grid past launch.MAX_GRID.)
    return max(1, units), programs_per_sm


# -- backward launch parameters ----------------------------------------------------------------

def backward_paired(y: torch.Tensor, dy: torch.Tensor, align: int) -> bool:
    """Whether the backward holds the rows of y and dy as words of two 16-bit values:
    rows of a dtype in FUSED_BWD_MAX_COLS_PAIRS (bf16) of at least FUSED_BWD_PAIRS_MIN_COLS,
    ALIGN >= 2 (even width and both row strides) and both starts 4-byte aligned."""
    return (y.dtype in FUSED_BWD_MAX_COLS_PAIRS and y.shape[1] >= FUSED_BWD_PAIRS_MIN_COLS and align >= 2
            and y.data_ptr() % 4 == 0 and dy.data_ptr() % 4 == 0)


def backward_max_cols(y: torch.Tensor, dy: torch.Tensor) -> int:
    """Widest row of y's dtype and the alignment of y and dy that the backward holds."""
    align = softmax_rows.row_align(y, dy)
    if loads_values(y, dy):
        return FUSED_BWD_MAX_COLS_ODD
    return FUSED_BWD_MAX_COLS_PAIRS[y.dtype] if backward_paired(y, dy, align) else FUSED_BWD_MAX_COLS


def backward_why_unsupported(y: torch.Tensor, dy: torch.Tensor) -> str | None:
    """None when the backward holds the rows of y and dy (2-D) in registers; else why not."""
    cols, limit = y.shape[1], backward_max_cols(y, dy)
    if cols <= limit:
        return None
    align = softmax_rows.row_align(y, dy)
    if not loads_values(y, dy):
        held = " held in pairs" if backward_paired(y, dy, align) else ""
        return (f"triton variant 'fused' keeps the rows of y and dy in registers, at most {limit} "
                f"columns of {y.dtype}{held}; these rows have {cols} (use 'tiled' or 'auto')")
    return (f"triton variant 'fused' keeps the rows of y and dy in registers; rows whose width or "
            f"row stride (of y or dy) is odd load element by element and fit up to "
            f"{FUSED_BWD_MAX_COLS_ODD} columns; these rows have {cols} (use 'tiled' or 'auto')")


def backward_edges(y: torch.Tensor, dy: torch.Tensor) -> int:
    """EDGES of the backward on y and dy: `edges` for 16-bit rows of 1-2 KiB
    (FUSED_BWD_EDGE_ROWS_BYTES: the edge tile, one row a program), else only where the
    row spans more than 1 KiB and the body's tile is narrower than the row's
    (`body_units`: 1025, 2049, 4097 columns) or the row is past what element loads hold
    (FUSED_BWD_MAX_COLS_ODD); narrower rows take element loads in tiles of rows. Where both tiles are one width,
    three tensors' edge tiles cost the backward more than their 16-byte loads gain:
    H200, 1 GiB, % of copy, element loads / edges (benchmarks/h200_2026-11-26e/
    triton_fused_edges_*): bf16 577 70.8 / 57.5, 3001 88.7 / 75.6, 197 61.0 / 62.0,
    8191 80.7 / 81.5; where the tile halves, 1025 69.3 / 79.9, 2049 74.5 / 82.1, 4097
    63.4 / 87.3 (fp32 1025 / 2049 103.1 / 102.0 and 103.2 / 101.9, 4097 98.7 / 101.9).
    The forward's single tensor gains either way but at bf16 577 (43.7 / 33.6)."""
    edges_ = edges(y, dy)
    cols = y.shape[1]
    if not edges_:
        return 0
    if _bwd_edge_row(y, edges_):
        return edges_
    if _span_bytes(y, edges_) <= FUSED_BWD_EDGE_ROWS_BYTES[0]:
        return 0
    if (cols <= FUSED_BWD_MAX_COLS_ODD
            and triton.next_power_of_2(body_units(cols, edges_)) == triton.next_power_of_2(cols)):
        return 0
    return edges_


def _bwd_edge_row(y: torch.Tensor, edges_: int) -> bool:
    """Whether the backward reads 16-bit rows of y read with EDGES = `edges_` with the edge
    tile, one row a program (FUSED_BWD_EDGE_ROWS_BYTES)."""
    return y.element_size() == 2 and _edge_tile_row(y, edges_, FUSED_BWD_EDGE_ROWS_BYTES)


def backward_window(y: torch.Tensor, dy: torch.Tensor, edges_: int, block: int) -> int:
    """WINDOW of the backward on 16-bit y and dy, as the forward's `window` (dy must end
    on a 16-byte boundary too), where the rows also fill more than
    FUSED_BWD_WINDOW_MIN_FILL of the tile: `_fused_backward_window_tile` reads whole
    vectors of both, 1 where both end on a 16-byte boundary, else 2 (the last row by
    value, `_one_row_backward`) at any tile height: a one-row tile's last row takes no
    more registers than its element loads (sm_90, Triton 3.6, bf16 3001 and 5001, 8191
    rows: 64 either way), unlike the forward's. fp32 rows keep their element loads
    (FUSED_EDGES_MIN_COLS: from 1025 columns, which measured 101-103% of copy so, H200,
    benchmarks/h200_2026-11-26f/tri_edges_*_bwd_*)."""
    if y.element_size() != 2 or not edges_ or y.shape[1] + edges_ - 1 > block or _bwd_edge_row(y, edges_):
        return 0
    if y.shape[1] + edges_ - 1 <= FUSED_BWD_WINDOW_MIN_FILL * block:
        return 0
    return 1 if row_edges.ends_on_vector(y) and row_edges.ends_on_vector(dy) else 2


def backward_launch_params(y: torch.Tensor, dy: torch.Tensor, limits: launch.DeviceLimits | None,
                           op: str) -> tuple[dict, int, int | None, int]:
    """(constexprs, num_warps, register cap, row blocks) of the backward on the (rows,
    cols) tensors y and dy: ROWS, BLOCK (units), PAIRS, ALIGN and BF16, as the forward's
    `launch_params` with half of a tile's units for each tensor."""
    sm_count = launch.sm_count(limits)
    rows, cols = y.shape
    elem, align = y.element_size(), softmax_rows.row_align(y, dy)
    pairs_ = backward_paired(y, dy, align)
    units, unit = (cols // 2, 2 * elem) if pairs_ else (cols, elem)
    # The window reads rows that `backward_edges` gives element loads (both tiles one
    # width), in the same block.
    edges_ = 0 if pairs_ else edges(y, dy)
    block = triton.next_power_of_2(body_units(units, edges_))
    # Rows held as whole vectors (neither pairs nor edges), as the forward's: one tile or two parts.
    parts = None if edges_ or pairs_ else plain_parts(cols, align, elem, block, FUSED_BWD_PLAIN_TAIL_BLOCKS)
    vector_start = all(t.data_ptr() % row_edges.VECTOR_BYTES == 0 for t in (y, dy))
    tile_bytes, per_thread = _backward_tile(elem, cols, align, pairs_, limits, parts if vector_start else None)

    def rows_of(block: int) -> int:
        return _tile_rows(block, unit, rows, sm_count, tile_bytes, FUSED_BWD_MAX_TILE_ROWS,
                          INTERPRET_FUSED_BWD_TILE_UNITS)

    tile_rows = rows_of(block)
    window_ = backward_window(y, dy, edges_, block)
    if not window_ and not pairs_:
        edges_ = backward_edges(y, dy)
        if not edges_ and block < triton.next_power_of_2(units):
            # Element loads of a narrow row whose body's power of two is narrower than
            # the row's (bf16 260: 256): the row's own power of two.
            block = triton.next_power_of_2(units)
            tile_rows = rows_of(block)
    if edges_ and not window_:
        tile_rows = min(tile_rows, FUSED_EDGES_TILE_ROWS)
    warps = max(1, min(FUSED_MAX_WARPS, tile_rows * block // (32 * per_thread)))
    tail = 0
    if not (window_ or edges_ or pairs_):
        block, tail = plain_parts(cols, align, elem, block, FUSED_BWD_PLAIN_TAIL_BLOCKS)
        if tail:
            warps = max(1, warps // FUSED_TAIL_WARPS_DIVISOR)
    maxnreg = FUSED_PAIRS_MAX_REGISTERS if pairs_ and sm_count is not None else None
    constexprs = {"ROWS": tile_rows, "BLOCK": block, "PAIRS": pairs_, "ALIGN": align,
                  "BF16": y.dtype == torch.bfloat16, "EDGES": edges_,
                  "EDGE_LANES": edge_lanes(edges_, tile_rows, warps), "WINDOW": window_, "TAIL": tail}
    return constexprs, warps, maxnreg, triton.cdiv(rows, tile_rows)


def _backward_tile(elem: int, cols: int, align: int, pairs_: bool, limits: launch.DeviceLimits | None,
                   parts: tuple[int, int] | None) -> tuple[int, int]:
    """(bytes of each tensor, units of each a thread) of the backward's tile on rows of
    `cols` values of `elem` bytes at ALIGN `align`, held in pairs or not, on the GPU of
    `limits` (`parts` as for the forward's `_tile`): FUSED_BWD_SMALL_TILE_* for aligned
    rows of its widths that are not paired (`_fills_small_tile`), FUSED_BWD_PADDED_16BIT_*
    for plain 16-bit rows padded in one block on `fast_sm` GPUs, else FUSED_BWD_TILE_BYTES
    at FUSED_BWD_UNITS_PER_THREAD."""
    if align == softmax_rows.MAX_ALIGN and not pairs_ and _fills_small_tile(cols, FUSED_BWD_SMALL_TILE_COLS):
        return FUSED_BWD_SMALL_TILE_BYTES, FUSED_BWD_SMALL_TILE_UNITS_PER_THREAD
    if block_bytes := _padded_block_bytes_on_fast_sm(elem, cols, align, parts, limits):
        wide = block_bytes >= FUSED_BWD_PADDED_16BIT_WIDE_BLOCK_BYTES
        return (FUSED_BWD_PADDED_16BIT_TILE_BYTES,
                FUSED_BWD_PADDED_16BIT_WIDE_UNITS_PER_THREAD if wide else FUSED_BWD_UNITS_PER_THREAD)
    return FUSED_BWD_TILE_BYTES, FUSED_BWD_UNITS_PER_THREAD


def backward_compile_args(y: torch.Tensor, dy: torch.Tensor) -> tuple:
    """The backward launch's arguments with a stand-in dx, for `launch.resources`."""
    return softmax_rows.backward_kernel_args(y, dy, launch.stand_in(y.dtype, y.device))


def backward_launch_plan(y: torch.Tensor, dy: torch.Tensor, dx: torch.Tensor, p: dict) -> None:
    """Launch the backward as planned (`p` from softmax.plan): dx from y and dy."""
    launch.launch(_softmax_fused_backward_kernel, launch.grid_2d(p["grid"]),
                  softmax_rows.backward_kernel_args(y, dy, dx), p, p["num_warps"], launch.plan_options(p),
                  p["constexprs"])


# -- launch ------------------------------------------------------------------------------------

KERNEL = _softmax_fused_kernel


def compile_args(x: torch.Tensor) -> tuple:
    """The launch's arguments with a stand-in output, for `launch.resources`."""
    return softmax_rows.kernel_args(x, launch.stand_in(x.dtype, x.device))


def launch_plan(x: torch.Tensor, y: torch.Tensor, p: dict) -> None:
    """Launch `fused` as planned (`p` from softmax.plan) from `x` into `y`."""
    launch.launch(_softmax_fused_kernel, launch.grid_2d(p["grid"]), softmax_rows.kernel_args(x, y), p,
                  p["num_warps"], launch.plan_options(p), p["constexprs"])


BACKWARD = launch.Family(KERNEL=_softmax_fused_backward_kernel, why_unsupported=backward_why_unsupported,
                         launch_params=backward_launch_params, grid=grid, compile_args=backward_compile_args,
                         launch_plan=backward_launch_plan)
