"""Which softmax family `auto` runs: `fused` while a row fits in registers, `split`
beyond while the GPU holds a group's programs (and for few wide rows, all of whose
programs fit one per SM), `online` past that. The backward's `auto`
(`auto_backward_kernel`) follows the same order with `tiled` last.

The widths where `fused` stops being the better choice are measured (below); the limits
of what each family can hold at all live with the family (softmax_fused.FUSED_MAX_COLS*,
softmax_split.fits).
"""
from __future__ import annotations

import torch

from . import softmax_fused, softmax_rows, softmax_split

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
    # Backward `split` holds the widest rows it fits for any row count: its 8192-value chunks
    # (1048576 columns on 132 SMs) were sent to `tiled` for as many rows as SMs until the
    # next row's loads moved after the row's part is published (softmax_split, 7b1914e).
    # H100, 1 GiB, % of copy, 1048576 columns, split / tiled (benchmarks/h100_2026-11-25/
    # triton_bwd_7b1914e.md): softmax fp32 84.2 / 58.7, bf16 82.8 / 58.4, fp16 82.9 / 58.6;
    # log-softmax 83.5 / 73.3, 82.0 / 67.2, 81.9 / 67.2 (before the move: 51.9 for bf16).
    return "split" if softmax_split.backward_fits(cols, elem, softmax_split.load_align(y, dy), sm_count) else "tiled"

