"""Which softmax family `auto` runs: `fused` while a row fits in registers, `split`
beyond while the GPU holds a group's programs, `online` past that.

The widths where `fused` stops being the better choice are measured (below); the limits
of what each family can hold at all live with the family (softmax_fused.FUSED_MAX_COLS*,
softmax_split.fits).
"""
from __future__ import annotations

import torch

from . import softmax_fused, softmax_rows, softmax_split

# Measurements quoted below: NVIDIA H200, 1 GiB inputs, % of the copy bandwidth, runs
# of benchmarks/h200_tuning_triton_pairs_2026-11-21.txt unless another file is named.

# `auto` uses `fused` up to this width (odd rows: FUSED_MAX_COLS_ODD) and `split`
# beyond: fp32 32768 98.0 (plain loads and stores; 89.8 with the evict-first loads and
# .cs stores used before); paired 16-bit 32768 97.9, and bf16 65536 93.6 (log-softmax
# 95.9) since the segmented tile (SEGMENTS; session 5 tuning log, run 2), against 83.9
# for `split` (fp16 pairs stop at 32768, FUSED_MAX_COLS_PAIRS). 16-bit rows that are
# not paired go to `split` past 16384 (widened 32768 at 32 warps: 73%).
AUTO_FUSED_MAX_COLS = {"fp32": 32768, "pairs": 65536, "16-bit": 16384}


def auto_kernel(x: torch.Tensor, sm_count: int | None) -> str:
    """The family `auto` runs on the (rows, cols) tensor `x`; `sm_count` None under the
    interpreter (where `split` takes any width)."""
    cols, elem = x.shape[1], x.element_size()
    align = softmax_rows.row_align(x)
    if align == 1:
        limit = softmax_fused.FUSED_MAX_COLS_ODD
    elif elem == 4:
        limit = AUTO_FUSED_MAX_COLS["fp32"]
    elif softmax_fused.paired(x, align):
        limit = min(AUTO_FUSED_MAX_COLS["pairs"], softmax_fused.FUSED_MAX_COLS_PAIRS[x.dtype])
    else:
        limit = AUTO_FUSED_MAX_COLS["16-bit"]
    if cols <= limit:
        return "fused"
    return "split" if softmax_split.fits(cols, elem, align, sm_count) else "online"
