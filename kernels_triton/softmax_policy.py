"""Which softmax family `auto` runs: `fused` while a row fits in registers, `split`
beyond while the GPU holds a group's programs (and for few wide rows, all of whose
programs fit one per SM), `online` past that; wide fp32 rows of many programs take
`split_oneshot` ahead of `split` (`oneshot_rows`). The backward's `auto`
(`auto_backward_kernel`) follows the same order with `tiled` last.

The widths where `fused` stops being the better choice are measured (below); the limits
of what each family can hold at all live with the family (softmax_fused.FUSED_MAX_COLS*,
softmax_split.fits).
"""
from __future__ import annotations

import torch

from . import softmax_fused, softmax_oneshot, softmax_rows, softmax_split

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


# Wide fp32 rows: `split_oneshot` (a program per chunk, by ticket) ahead of `split` (a
# persistent group per row, every row a barrier over programs on every SM) from these
# widths, aligned rows (16-byte vectors from x's start) of at least a wave of programs
# (AUTO_ONESHOT_MIN_PROGRAMS_PER_SM on every SM; fewer rows keep `split`, tuned for
# their latency). 1 GiB, % of copy, 65536 / 131072 / 262144 / 524288 / 1048576, split ->
# split_oneshot (python -m comparison; benchmarks/h100_2026-11-27d/final_*_3593c13.csv,
# benchmarks/h200_2026-11-27d/final_*_3593c13.csv):
#   H100 forward  93.1 / 94.0 / 92.6 / 90.5 / 84.0 -> 98.3 / 98.3 / 98.3 / 97.8 / 94.0
#   H100 backward 97.7 / 98.7 / 99.6 / 95.1 / 87.2 -> 101.4 / 101.3 / 101.6 / 101.7 / 99.8
#   H200 forward  90.3 / 90.9 / 85.6 / 82.4 / 69.9 -> 95.3 / 93.2 / 91.1 / 87.7 / 79.3
#   H200 backward 97.8 / 97.1 / 94.1 / 82.7 / 74.8 -> 101.5 / 101.0 / 99.9 / 97.3 / 88.2
# (log-softmax alike). 16-bit rows keep `split`: the one-shot holds their values as fp32
# (forward bf16 92.7-83.8 on the H100 against 95.4-87.7, 81.5-68.2 on the H200 against
# 92.2-75.2; backward 95.2-83.4 against 97.1-89.7, 83.8-66.8 against 90.6-81.6;
# os_*_ef5eb58.csv in the same folders).
# Measured to 1048576 columns (128 chunks of ONESHOT_CHUNK); wider rows, whose chunks
# widen, keep what `auto` chose before (`split`, `online`, `tiled`) until measured.
AUTO_ONESHOT_MIN_COLS = {"forward": 65536, "backward": 65536}
AUTO_ONESHOT_MAX_COLS = 1048576
AUTO_ONESHOT_MIN_PROGRAMS_PER_SM = 4


def oneshot_rows(direction: str, sm_count: int | None, *tensors: torch.Tensor) -> bool:
    """Whether auto sends the rows of the (rows, cols) `tensors` (x; or y and dy) to
    `split_oneshot` (False where the SM count is unknown: the interpreter)."""
    x = tensors[0]
    rows, cols = x.shape
    if sm_count is None or x.element_size() != 4 or not AUTO_ONESHOT_MIN_COLS[direction] <= cols <= AUTO_ONESHOT_MAX_COLS:
        return False
    if softmax_rows.row_align(*tensors) * 4 < 16 or any(t.data_ptr() % 16 for t in tensors):
        return False
    _, k, _ = softmax_oneshot.geometry(softmax_oneshot.units(*tensors), *softmax_oneshot.GEOMETRY[direction](), False)
    return k <= min(softmax_oneshot.ONESHOT_MAX_PARTS, sm_count) and (
        rows * k >= AUTO_ONESHOT_MIN_PROGRAMS_PER_SM * sm_count)


def auto_kernel(x: torch.Tensor, sm_count: int | None) -> str:
    """The family `auto` runs on the (rows, cols) tensor `x`; `sm_count` None under the
    interpreter (where `split` takes any width)."""
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
    if cols <= limit and not few_rows_split(x, split_align, sm_count):
        return "fused"
    if oneshot_rows("forward", sm_count, x):
        return "split_oneshot"
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


def auto_backward_kernel(y: torch.Tensor, dy: torch.Tensor, sm_count: int | None) -> str:
    """The backward family `auto` runs on the (rows, cols) tensors y and dy; `sm_count`
    None under the interpreter (where `split` takes any width)."""
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
    if cols <= limit:
        return "fused"
    if oneshot_rows("backward", sm_count, y, dy):
        return "split_oneshot"
    # Backward `split` holds the widest rows it fits for any row count: its 8192-value chunks
    # (1048576 columns on 132 SMs) were sent to `tiled` for as many rows as SMs until the
    # next row's loads moved after the row's part is published (softmax_split, 7b1914e).
    # H100, 1 GiB, % of copy, 1048576 columns, split / tiled (benchmarks/h100_2026-11-25/
    # triton_bwd_7b1914e.md): softmax fp32 84.2 / 58.7, bf16 82.8 / 58.4, fp16 82.9 / 58.6;
    # log-softmax 83.5 / 73.3, 82.0 / 67.2, 81.9 / 67.2 (before the move: 51.9 for bf16).
    return "split" if softmax_split.backward_fits(cols, elem, softmax_split.load_align(y, dy), sm_count) else "tiled"

