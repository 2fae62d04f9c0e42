"""Row and whole-tensor sum / max with the CUDA kernels of csrc/reduce.cu.

Canonical inputs (see `comparison.backend`): a 2-D ``(rows, cols)`` tensor with unit
column stride and any row stride, reduced to ``(rows,)``; or a contiguous 1-D tensor
reduced to a 0-dim tensor (``dim=None``). fp16/bf16 accumulate in fp32.

Variants name how threads combine their partial results and how they load:

* ``warp_xor``   scalar loads; warps reduce with a ``__shfl_xor_sync`` butterfly
                 (every lane ends with the result).
* ``warp_down``  scalar loads; ``__shfl_down_sync`` (lane 0 ends with the result).
* ``smem_tree``  scalar loads; a shared-memory tree, no shuffles at all.
* ``vectorized`` pack loads of up to 16 bytes feeding the xor butterfly; narrower packs
                 when the pointer, row stride or width is not a multiple of 16 bytes.
* ``auto``       ``vectorized``: with pack width 1 it is ``warp_xor``, so it is never
                 worse, and wide packs cut load instructions 4-8x.

Every variant serves both forms. Rows up to WARP_ROW_MAX_COLS wide get a warp each, or
a group of 1-16 lanes of one when they have fewer than 32 packs (several rows per
warp); wider rows get a block each; both grids are persistent. The
whole-tensor form runs a fixed grid of blocks that each write one fp32 partial, then
one block that reduces the partials in a fixed order: the same bits every run, no
floating-point atomics. `plan` holds every launch decision; the .cu launches what it
is told.
"""
from __future__ import annotations

import functools

import torch

VARIANTS = {
    "reduce_sum": ("warp_xor", "warp_down", "smem_tree", "vectorized"),
    "reduce_max": ("warp_xor", "warp_down", "smem_tree", "vectorized"),
}
# Codes shared with csrc/reduce.cu (enum ReduceVariant, ReduceOp, dtype codes).
VARIANT_CODES = {"warp_xor": 0, "warp_down": 1, "smem_tree": 2, "vectorized": 3}
OP_CODES = {"reduce_sum": 0, "reduce_max": 1}
DTYPE_CODES = {torch.float32: 0, torch.float16: 1, torch.bfloat16: 2}
LAYOUT_CODES = {"warp_per_row": 0, "block_per_row": 1}

# -- launch thresholds ----------------------------------------------------------------
# A warp per row up to this width (OneFlow's warp path ends at 1024 too): 32 fp32 values
# per lane at most, a single shuffle tree and no __syncthreads per row. Wider rows get a
# block each, so that more loads are in flight per row and the shuffle tree is amortised
# over more elements.
WARP_ROW_MAX_COLS = 1024
# Warp-per-row blocks: 4 warps, i.e. 4 rows (or 128 / group rows) per block per step.
WARP_ROW_THREADS = 128
# Block per row: about this many loads (packs) per thread per row; the block grows with
# the width from 128 to 1024 threads, so a wide row keeps 1024 threads busy.
BLOCK_ROW_PACKS_PER_THREAD = 4
BLOCK_ROW_MIN_THREADS = 128
MAX_THREADS = 1024
# Whole tensor, stage 1: 512-thread blocks, as many as stay resident (4 per SM: 2048
# threads). Stage 2 reduces the partials with one block of up to 1024 threads.
WHOLE_THREADS = 512
MAX_THREADS_PER_SM = 2048
PACK_BYTES = 16


@functools.lru_cache(maxsize=None)
def _sm_count(device_index: int) -> int:
    return torch.cuda.get_device_properties(device_index).multi_processor_count


def _next_pow2(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def _pack_width(x: torch.Tensor, variant: str) -> int:
    """Elements per load: 16 bytes' worth for `vectorized` when the data allow, else the
    widest power of two dividing the pointer offset, row stride and width (in elements)."""
    if variant != "vectorized":
        return 1
    size = x.element_size()
    pack = PACK_BYTES // size
    while pack > 1:
        aligned = x.data_ptr() % (pack * size) == 0
        if x.dim() == 2:
            aligned = aligned and x.shape[1] % pack == 0 and (x.shape[0] == 1 or x.stride(0) % pack == 0)
        if aligned:
            break
        pack //= 2
    return pack


def resolve_variant(variant: str) -> str:
    return "vectorized" if variant == "auto" else variant


def why_unsupported(x: torch.Tensor, op: str, variant: str) -> str | None:
    return None  # every variant serves both forms, any width and any row stride


def plan(x: torch.Tensor, op: str, variant: str = "auto") -> dict:
    """Which kernel runs on `x` and how: variant, layout, pack width, threads, grid."""
    variant = resolve_variant(variant)
    pack = _pack_width(x, variant)
    resident_threads = _sm_count(x.device.index) * MAX_THREADS_PER_SM
    if x.dim() == 2:
        rows, cols = x.shape
        if cols <= WARP_ROW_MAX_COLS:
            # One lane per pack up to a warp: rows narrower than 32 packs share a warp.
            group = min(32, _next_pow2(-(-cols // pack)))
            threads = WARP_ROW_THREADS
            units = -(-rows // (threads // group))     # rows one block takes per step
            layout = "warp_per_row"
        else:
            per_thread = pack * BLOCK_ROW_PACKS_PER_THREAD
            threads = min(MAX_THREADS, max(BLOCK_ROW_MIN_THREADS, _next_pow2(-(-cols // per_thread))))
            group = threads
            units = rows
            layout = "block_per_row"
        grid = max(1, min(units, resident_threads // threads))
        return {"variant": variant, "form": "rows", "layout": layout, "group": group, "pack": pack,
                "threads": threads, "grid": grid}
    n = x.numel()
    threads = WHOLE_THREADS
    grid = max(1, min(-(-n // (threads * pack)), resident_threads // threads))
    return {"variant": variant, "form": "whole", "layout": "grid_then_one_block", "pack": pack,
            "threads": threads, "grid": grid,
            "finish_threads": min(MAX_THREADS, max(32, _next_pow2(grid)))}


def run(x: torch.Tensor, op: str, variant: str = "auto", out: torch.Tensor | None = None) -> torch.Tensor:
    """`op` ("reduce_sum" / "reduce_max") of a canonical CUDA tensor with a CUDA variant.

    `out`, when given, is a contiguous tensor of the result's shape and dtype.
    """
    from .build import extension

    ext = extension()
    p = plan(x, op, variant)
    if out is None:
        out = torch.empty(x.shape[:1] if x.dim() == 2 else (), dtype=x.dtype, device=x.device)
    codes = (DTYPE_CODES[x.dtype], OP_CODES[op], VARIANT_CODES[p["variant"]])
    device = x.device.index
    stream = torch.cuda.current_stream(x.device).cuda_stream
    if p["form"] == "rows":
        ext.reduce_rows(x.data_ptr(), out.data_ptr(), x.shape[0], x.shape[1], x.stride(0), *codes,
                        LAYOUT_CODES[p["layout"]], p["group"], p["pack"], p["threads"], p["grid"],
                        device, stream)
    else:
        # Partials come from torch's caching allocator, on the stream the kernels run on.
        partials = torch.empty(p["grid"], dtype=torch.float32, device=x.device)
        ext.reduce_whole(x.data_ptr(), partials.data_ptr(), out.data_ptr(), x.numel(), *codes,
                         p["pack"], p["threads"], p["grid"], p["finish_threads"], device, stream)
    return out
