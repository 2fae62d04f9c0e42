"""Which softmax family `auto` runs: `fused` while a row fits in registers, `split`
beyond while the GPU holds a group's programs (and for few wide rows, all of whose
programs fit one per SM), `online` past that; aligned rows (fp32, and 16-bit ones held as
pairs) past 8-32K columns, of many programs, take `split_oneshot` ahead of both
(`oneshot_rows`).
The backward's `auto` (`auto_backward_kernel`) follows the same order with `tiled` last.

The widths where `fused` stops being the better choice are measured (below); the limits
of what each family can hold at all live with the family (softmax_fused.FUSED_MAX_COLS*,
softmax_split.fits).
"""
from __future__ import annotations

import torch
import triton

from . import launch, softmax_fused, softmax_oneshot, softmax_rows, softmax_split

# Measurements quoted below: NVIDIA H200, 1 GiB inputs, % of the copy bandwidth, runs
# of benchmarks/tuning/h200_tuning_triton_pairs_2026-11-21.txt unless another file is named.

# `auto` uses `fused` up to this width (odd rows loaded a value at a time:
# FUSED_MAX_COLS_ODD; read as head, whole vectors and tail, as aligned ones) and `split`
# beyond: fp32 32768 98.0 (plain loads and stores; 89.8 with the evict-first loads and
# .cs stores used before); paired 16-bit 32768 97.9, and bf16 65536 93.6 (log-softmax
# 95.9) since the segmented tile (SEGMENTS; session 5 tuning log, run 2), against 83.9
# for `split` (fp16 pairs stop at 32768, FUSED_MAX_COLS_PAIRS). 16-bit rows that are
# not paired go to `split` past 16384 (widened 32768 at 32 warps: 73%).
AUTO_FUSED_MAX_COLS = {"fp32": 32768, "pairs": 65536, "16-bit": 16384}

# Few rows: where all the programs of `split` (16 KiB chunks: rows past
# softmax_split.SPLIT_WHOLE_ROW_BYTES) fit one per SM, `split` rather than `fused`'s
# program per row, which leaves most SMs idle and makes the call's time one SM streaming
# a whole row. H100, do_bench us per call (benchmarks/h100_2026-11-24/
# few_rows_experiment_*.csv): bf16 65536 1 / 4 / 16 rows 11.7 / 11.5 / 12.6 -> 7.5 / 8.6
# / 9.7, fp32 32768 4 / 16 rows 9.1 / 10.2 -> 7.9 / 9.2; with more programs than SMs
# no better (64 rows: 14.8 -> 14.2) or worse (128 rows: 19.8 -> 23.0). Rows of 64 KiB
# stay in fused: in 16 KiB chunks (softmax_split.SPLIT_FEW_ROWS_WHOLE_ROW_BYTES at 32
# KiB) the CUDA-graph time per call rose (fp32 16384, 1 / 4 rows: 3.55 / 3.59 -> 4.49 /
# 5.08 us; few_rows_min_row_m*.csv), where CUDA's clusters gained at the same width.
def few_rows_split(x: torch.Tensor, align: int, sm_count: int | None) -> bool:
    """Whether auto sends the few wide rows of `x` to `split` ahead of `fused`."""
    return softmax_split.few_rows(x.shape[0], x.shape[1], x.element_size(), align, sm_count)


# Wide rows: `split_oneshot` (a program per chunk, by ticket) ahead of `fused` and `split`
# (a persistent group per row, every row a barrier over programs on every SM) for rows
# past AUTO_ONESHOT_ABOVE columns (by direction and dtype) to AUTO_ONESHOT_MAX_COLS, aligned
# rows (16-byte vectors from x's start: 16-bit rows are then held as pairs,
# softmax_oneshot.paired) of at least a wave of programs (AUTO_ONESHOT_MIN_PROGRAMS_PER_SM
# on every SM; fewer rows keep `fused` or `split`, tuned for their latency). 1 GiB, % of
# copy, softmax (log-softmax alike where measured), `split` -> `split_oneshot`
# (python -m comparison). fp32 (benchmarks/h100_2026-11-27d/final_*_3593c13.csv,
# benchmarks/h200_2026-11-27d/final_*_3593c13.csv), 65536 / 131072 / 262144 / 524288 / 1048576:
#   H100 forward  93.1 / 94.0 / 92.6 / 90.5 / 84.0 -> 98.3 / 98.3 / 98.3 / 97.8 / 94.0
#   H100 backward 97.7 / 98.7 / 99.6 / 95.1 / 87.2 -> 101.4 / 101.3 / 101.6 / 101.7 / 99.8
#   H200 forward  90.3 / 90.9 / 85.6 / 82.4 / 69.9 -> 95.3 / 93.2 / 91.1 / 87.7 / 79.3
#   H200 backward 97.8 / 97.1 / 94.1 / 82.7 / 74.8 -> 101.5 / 101.0 / 99.9 / 97.3 / 88.2
# 16-bit rows as pairs (benchmarks/h100_2026-11-27e/pairs_*_6198473.csv,
# benchmarks/h200_2026-11-27e/pairs_*_6198473.csv; bf16, fp16 alike unless named):
#   H100 forward  95.5 / 95.9 / 94.6 / 91.3 / 88.1 -> 98.8 / 98.9 / 98.0 / 96.8 / 95.5
#   H100 backward 96.3 / 92.3 / 95.7 / 93.4 / 87.7 -> 101.2 / 101.1 / 101.0 / 100.8 / 100.4
#                 (fp16 -> 101.0 / 100.8 / 100.4 / 98.9 / 90.2)
#   H200 forward  92.7 / 91.4 / 84.7 / 79.0 / 74.9 -> 88.0 / 89.3 / 87.1 / 85.5 / 82.5
#   H200 backward 91.2 / 88.2 / 90.0 / 82.9 / 85.7 -> 102.4 / 100.2 / 97.6 / 95.1 / 89.4
#                 fp16 91.7 / 88.4 / 90.7 / 82.2 / 86.0 -> 99.9 / 93.9 / 85.5 / 81.3 / 79.1
#   log-softmax: gains at every width on both (H200 forward bf16 89.0-74.1 -> 89.6-83.2,
#                backward 94.3-86.1 -> 103.3-99.7; H100 forward 96.2-87.0 -> 99.0-96.1).
# The forward since at 5 programs per SM (softmax_oneshot.ONESHOT_MAX_REGISTERS), `auto`
# against `split`, H200, 65536 / 131072 / 262144 / 524288 / 1048576 (benchmarks/
# h200_2026-11-27e/cap_fwd_h200_9dc0f9b.csv): fp16 96.3 / 95.3 / 93.6 / 90.6 / 87.5 against
# 92.5 / 91.6 / 85.4 / 79.9 / 75.0, bf16 - / 94.9 / 93.3 / 90.8 / 87.8 against 91.2-75.6;
# H100 bf16 131072-1048576 99.1-98.0 (cap96_geometry_*.txt).
# Below 65536 (benchmarks/h100_2026-11-27f/between_*_9b8ba3d.csv, h200_2026-11-27f/ alike):
# `auto` before (`fused` to its reach, `split` past it) -> `split_oneshot`, at 40960 /
# 49152 / 50304 (GPT-2's padded vocabulary) / 57344 columns, H100 | H200:
#   forward  fp32 91.0 / 93.6 / 93.7 / 94.0 -> 98.8-99.3 | 82.1 / 86.8 / 87.7 / 89.5 -> 96.0-97.0
#            bf16 81.4 / 91.2 / 92.2 / 98.6 -> 99.0-99.2 | 61.9 / 71.4 / 72.5 / 77.2 -> 92.7 / 97.3 / 90.0 / 94.3
#            fp16 94.6 / 95.8 / 95.9 / 94.9 -> 98.9-99.2 | 77.7 / 88.5 / 89.5 / 92.8 -> 94.1 / 97.4 / 91.9 / 95.3
#   backward fp32 97.1-97.9 -> 101.2-101.5 | 96.3-98.3 -> 101.1-101.8
#            bf16 82.5 / 89.3 / 89.8 / 94.3 -> 100.8-101.5 | 77.4 / 84.9 / 85.4 / 89.2 -> 98.6-102.2
#            fp16 86.1 / 93.9 / 94.8 / 97.9 -> 101.0-101.3 | 78.2 / 85.6 / 86.0 / 89.4 -> 95.4-100.0
# and bf16 65536 forward on the H200 93.7 -> 96.9 (`fused` there; H100 99.1 both). Where
# `fused` holds rows in registers it keeps them: fp32 forward to 32768 (24576 / 32000:
# H100 99.8 / 99.4 against 99.3 / 99.2, H200 96.0 / 98.0 against 96.4 / 96.9), bf16 to
# 32768 both ways (forward H200 95.5 / 97.9 against 89.8 / 97.0; backward 103.2 / 103.0
# against 97.2 / 102.1), fp32 backward to 16384; the fp16 forward goes from 16384 (its
# `fused` widens with HADD2.F32: 20480 / 24576 / 32000 H100 68.4 / 79.8 / 92.1 -> 98.2 /
# 99.5 / 99.1, H200 52.4 / 61.6 / 72.7 -> 82.1 / 92.0 / 97.7; fp16_20480_*.csv there too),
# the fp16 backward from `split` (24576 / 32000: H100 96.0 / 100.0 -> 101.6 / 101.1, H200
# 85.5 / 94.6 -> 96.5 / 101.4; from 8192, below), the fp32 backward from 16384 (24576 /
# 32000: H100 96.8 / 97.4 -> 101.4 / 101.5, H200 95.7 / 97.2 -> 101.5 / 101.7).
# On GPUs of softmax_split.SPLIT_FAST_SM_BANDWIDTH or more of DRAM bandwidth per SM
# (`fast_sm`: the H200's 36 GB/s, against the H100's 25), where what an SM computes per
# byte counts the more, two ranges differ (AUTO_ONESHOT_COLS_FAST_SM): the fp16 softmax
# backward (four fp16 -> fp32 conversions a value, HADD2.F32, where bf16 widens by a
# shift) keeps `split` above 524288 columns (131072 before its 4096-word chunks); the
# bf16 log-softmax backward (an exp a value) leaves `fused` past 16384, whose tile pads
# rows to a power of two (H200, 20480 / 24576 / 28672 / 32000: `fused` 77.4 / 87.5 / 94.8
# / 100.2 against 98.1 / 102.3 / 101.3 / 101.5; H100 97.2 / 102.4 / 102.2 / 102.1 against
# 101.2 / 101.2 / 100.5 / 100.9: benchmarks/h200_2026-11-27f/narrow_bwd_h200_771b9d7.csv,
# h100_2026-11-27f/ alike; the softmax backward keeps `fused` on both: H200 24576 102.7
# against 97.2). The fp16 backward leaves `split` from 8192, where `auto`'s `fused` stops
# for 16-bit rows that are not paired (10240 / 12288 / 14336 / 16384, `split` ->
# `split_oneshot`: softmax H100 98.0 / 96.5 / 95.8 / 96.4 -> 101.4 / 101.3 / 100.6 /
# 100.8, H200 94.7 / 99.4 / 98.5 / 97.6 -> 102.8 / 102.7 / 102.0 / 102.4; log-softmax
# H100 97.2-98.3 -> 100.8-101.3, H200 88.6-96.3 -> 102.2-103.3; fp16_bwd_*_086c151.csv;
# `fused` itself 103.0-103.1 on the H100's softmax at 14336-16384, below either
# elsewhere). Rows wider than these (measured to 1048576 columns: 128 chunks of
# ONESHOT_CHUNK units for fp32, 64 for 16-bit rows) keep `split`, `online` or `tiled`.
AUTO_ONESHOT_ABOVE = {("forward", torch.float32): 32768, ("forward", torch.bfloat16): 32768,
                      ("forward", torch.float16): 16384, ("backward", torch.float32): 16384,
                      ("backward", torch.bfloat16): 32768, ("backward", torch.float16): 8192}
AUTO_ONESHOT_MAX_COLS = 1048576
# The fp16 softmax backward's rows take `split_oneshot` from 8192 columns on GPUs of fast
# SMs. While its chunks there were of 4096 words and its sum a tree of products
# (softmax_oneshot.chunk_units, _grad_terms) they stopped at 524288 (H200, 131072 / 262144 /
# 524288 / 1048576: 96.8 / 93.6 / 88.5 / 80.4 against `split`'s - / 89.5 / 82.2 / 85.8,
# benchmarks/h200_2026-11-27g/pair_chunks_h200_9105f0d.txt); in 8192-word chunks of
# chained sums 1048576 joined them (90.1 against `split`'s 87.5,
# benchmarks/h200_2026-11-28/chain_compare_h200_ec733fb.txt).
AUTO_ONESHOT_COLS_FAST_SM = {("backward", "softmax", torch.float16): (8192, AUTO_ONESHOT_MAX_COLS),
                             ("backward", "log_softmax", torch.bfloat16): (16384, AUTO_ONESHOT_MAX_COLS)}
# On `fast_sm` GPUs `fused`'s fp32 forward slows with the lanes its tile (the width's
# next power of two) leaves empty: rows past 16384 columns that fill at most 3/4 of it
# take `split_oneshot` there too (H200, 1 GiB, softmax / log-softmax, 17408 / 20480 /
# 24576 / 28672 columns, tiles 53 / 62 / 75 / 88 % full: `fused` 81.6 / 88.9 / 96.0 /
# 98.2 and 79.9 / 86.7 / 94.5 / 97.5 against 96.9 / 96.3 / 96.5 / 96.7 and 96.3 / 96.3 /
# 96.6 / 96.8; H100 `fused` 99.4-100.0 against 97.7-98.7, benchmarks/h200_2026-11-27f/
# pow2_fwd_h200_7d965ad.csv, h100_2026-11-27f/ alike). bf16 rows join them since their
# chunks there are of 4096 words (softmax_oneshot.chunk_units): H200, 17408 / 20480 /
# 24576, forward `fused` 75.2 / 86.2 / 96.4 against 88.0 / 94.1 / 96.7, backward (rows
# filling at most 5/8 of the tile) 90.4 / 97.2 against 97.4 / 100.9, `fused` ahead at
# 24576 (104.0 against 102.8; benchmarks/h200_2026-11-27g/narrow_chunks_h200_3e26541.txt).
AUTO_ONESHOT_PADDED_FAST_SM = {("forward", torch.float32): (16384, 0.75), ("forward", torch.bfloat16): (16384, 0.75),
                               ("backward", torch.bfloat16): (16384, 0.625)}
# On every GPU the bf16 log-softmax backward's rows past 16384 that fill at most 5/8 of
# `fused`'s tile: H100, 16400 / 17408 / 18432 / 20480, `fused` 87.6 / 87.5 / 90.4 / 97.3
# against 101.8 / 102.4 / 102.4 / 101.5 (24576: 102.4 against 101.5; the softmax backward
# keeps `fused`, 101.9-103.0 against 101.0-101.6; benchmarks/h100_2026-11-27g/
# logbwd_h100_8d6af83.csv). Fast-SM GPUs take it from 16384 at any width (above).
AUTO_ONESHOT_PADDED = {("backward", "log_softmax", torch.bfloat16): (16384, 0.625)}
AUTO_ONESHOT_MIN_PROGRAMS_PER_SM = 4


def oneshot_rows(direction: str, op: str, limits: launch.DeviceLimits | None, *tensors: torch.Tensor) -> bool:
    """Whether auto sends the rows of the (rows, cols) `tensors` (x; or y and dy) of `op`
    ("softmax" or "log_softmax") to `split_oneshot` (False where the GPU is unknown: the
    interpreter)."""
    x = tensors[0]
    rows, cols = x.shape
    if limits is None:
        return False
    above = AUTO_ONESHOT_ABOVE.get((direction, x.dtype))
    if above is None:
        return False
    high = AUTO_ONESHOT_MAX_COLS
    padded = [AUTO_ONESHOT_PADDED.get((direction, op, x.dtype))]
    if softmax_split.fast_sm(limits):
        above, high = AUTO_ONESHOT_COLS_FAST_SM.get((direction, op, x.dtype), (above, high))
        padded.append(AUTO_ONESHOT_PADDED_FAST_SM.get((direction, x.dtype)))
    for bound, fill in filter(None, padded):
        if cols <= fill * triton.next_power_of_2(cols):  # `fused`'s BLOCK
            above = min(above, bound)
    if not above < cols <= high:
        return False
    if softmax_rows.row_align(*tensors) * x.element_size() < 16 or any(t.data_ptr() % 16 for t in tensors):
        return False
    _, k, _ = softmax_oneshot.plan_geometry(direction, limits, op, *tensors)
    return k <= min(softmax_oneshot.ONESHOT_MAX_PARTS, limits.sm_count) and (
        rows * k >= AUTO_ONESHOT_MIN_PROGRAMS_PER_SM * limits.sm_count)


def auto_kernel(x: torch.Tensor, limits: launch.DeviceLimits | None, op: str = "softmax") -> str:
    """The family `auto` runs for `op` ("softmax" or "log_softmax") on the (rows, cols)
    tensor `x`; `limits` (the GPU's) None under the interpreter (where `split` takes any
    width)."""
    sm_count = launch.sm_count(limits)
    cols, elem = x.shape[1], x.element_size()
    align = softmax_rows.row_align(x)
    if softmax_fused.loads_values(x):
        limit = softmax_fused.FUSED_MAX_COLS_ODD
    elif elem == 4:
        limit = AUTO_FUSED_MAX_COLS["fp32"]
    elif softmax_fused.paired(x, align):
        limit = min(AUTO_FUSED_MAX_COLS["pairs"], softmax_fused.FUSED_MAX_COLS_PAIRS[x.dtype])
    else:
        limit = AUTO_FUSED_MAX_COLS["16-bit"]
    # `split` cuts the rows as its loads see them: rows read as head, whole vectors and
    # tail as aligned ones (softmax_split.load_align).
    split_align = softmax_split.load_align(x)
    if oneshot_rows("forward", op, limits, x):
        return "split_oneshot"
    if cols <= limit and not few_rows_split(x, split_align, sm_count):
        return "fused"
    return "split" if softmax_split.fits(cols, elem, split_align, sm_count) else "online"


# The backward's `auto`: `fused` up to these widths, then `split` while a group of its
# programs can be resident, then `tiled`. First choices, to be tuned on the GPU (no
# backward kernel has been timed yet): fp32 and paired bf16 rows stay in `fused` as long
# as it holds both rows (FUSED_BWD_MAX_COLS, FUSED_BWD_MAX_COLS_PAIRS: 16 units of each
# per thread at 32 warps, one program per SM at the widest, like the forward's widest
# fused rows); 16-bit rows that are not paired (fp16 always, bf16 views off a 4-byte
# word) leave at half that, as the forward's widened 16-bit rows do past
# AUTO_FUSED_MAX_COLS["16-bit"] (widened at 32 warps the forward measured 73%).
AUTO_BWD_FUSED_MAX_COLS = {"fp32": softmax_fused.FUSED_BWD_MAX_COLS,
                           "pairs": softmax_fused.FUSED_BWD_MAX_COLS_PAIRS[torch.bfloat16],
                           "16-bit": softmax_fused.FUSED_BWD_MAX_COLS // 2}


def auto_backward_kernel(y: torch.Tensor, dy: torch.Tensor, limits: launch.DeviceLimits | None,
                         op: str = "softmax") -> str:
    """The backward family `auto` runs for the backward of `op` ("softmax" or
    "log_softmax") on the (rows, cols) tensors y and dy; `limits` (the GPU's) None under
    the interpreter (where `split` takes any width)."""
    sm_count = launch.sm_count(limits)
    cols, elem = y.shape[1], y.element_size()
    align = softmax_rows.row_align(y, dy)
    if softmax_fused.loads_values(y, dy):
        limit = softmax_fused.FUSED_BWD_MAX_COLS_ODD
    elif elem == 4:
        limit = AUTO_BWD_FUSED_MAX_COLS["fp32"]
    elif softmax_fused.backward_paired(y, dy, align):
        limit = AUTO_BWD_FUSED_MAX_COLS["pairs"]
    else:
        limit = AUTO_BWD_FUSED_MAX_COLS["16-bit"]
    if oneshot_rows("backward", op, limits, y, dy):
        return "split_oneshot"
    if cols <= limit:
        return "fused"
    # Backward `split` holds the widest rows it fits for any row count: its 8192-value chunks
    # (1048576 columns on 132 SMs) were sent to `tiled` for as many rows as SMs until the
    # next row's loads moved after the row's part is published (softmax_split, 7b1914e).
    # H100, 1 GiB, % of copy, 1048576 columns, split / tiled (benchmarks/h100_2026-11-25/
    # triton_bwd_7b1914e.md): softmax fp32 84.2 / 58.7, bf16 82.8 / 58.4, fp16 82.9 / 58.6;
    # log-softmax 83.5 / 73.3, 82.0 / 67.2, 81.9 / 67.2 (before the move: 51.9 for bf16).
    return "split" if softmax_split.backward_fits(cols, elem, softmax_split.load_align(y, dy), sm_count) else "tiled"

