"""Softmax and log-softmax with the CUDA kernels of csrc/softmax.cu: the optimisation
ladder of SEEDS.md, one selectable variant per rung.

Canonical inputs (see `comparison.backend`): a 2-D ``(rows, cols)`` CUDA tensor with unit
column stride and any row stride; the result is a new contiguous tensor of the same
dtype (fp32, fp16 or bf16; arithmetic in fp32).

Where each decision lives:
  * which variant ``auto`` runs: `choose_variant` below, every threshold a named constant;
  * launch geometry (pack width from alignment, block size from occupancy, grid,
    cluster size): ``make_plan`` in csrc/softmax.cu; `plan` shows it.

Memory traffic per element (R read, W write): naive cols*2 R + W; smem_tree, coalesced,
warp_shuffle, block_uncached 3 R + W; online 2 R + W; warp_per_row, block_smem,
cluster_smem, cluster_regs, cluster_tma R + W (the copy-bandwidth floor).
"""
from __future__ import annotations

import functools

import torch

LADDER = (
    "naive",           # a thread per output element re-reads its row: quadratic traffic
    "smem_tree",       # block per row, contiguous chunk per thread (uncoalesced), smem tree
    "coalesced",       # ... consecutive threads on consecutive elements
    "warp_shuffle",    # ... block reduction through warp shuffles
    "warp_per_row",    # row in the registers of a 1-32 lane group (cols <= 1024)
    "block_smem",      # row cached in shared memory, max and sum fused (online pair)
    "block_uncached",  # vectorised, three passes over global memory, any width
    "online",          # max and sum in one pass, then the output pass, any width
    "cluster_smem",    # row split over a thread-block cluster's shared memory (sm_90+)
    "cluster_regs",    # row split over the registers of a block or a 2-16 CTA cluster (sm_90+)
    "cluster_tma",     # persistent clusters, the next row's slices arriving by TMA bulk copy (sm_90+)
)
VARIANTS = {"softmax": LADDER, "log_softmax": LADDER}

# Codes shared with csrc (tests/test_cuda_compile.py checks them against the enums).
VARIANT_CODES = {name: code for code, name in enumerate(LADDER)}      # enum Variant
DTYPE_CODES = {torch.float32: 0, torch.float16: 1, torch.bfloat16: 2}  # enum DType
PLAN_FIELDS = ("status", "pack", "threads", "blocks", "cluster_size", "smem_bytes", "smem_limit",
               "cols_per_thread", "group_width", "rows_per_access", "resident_per_sm",
               "active_clusters", "grid_y")                             # enum PlanField
PLAN_STATUS = ("ok", "too_wide_for_warp", "row_exceeds_smem", "needs_sm90", "row_exceeds_cluster",
               "cluster_not_resident", "row_exceeds_registers")         # enum PlanStatus

# -- thresholds --------------------------------------------------------------------------
# Tuned on an H200 (2026-11-21, 1 GiB inputs, % of device-to-device copy bandwidth; see
# kernels_cuda/README.md for the table).
#
# naive re-reads its row once per output element; beyond this width a 1 GiB input takes
# minutes, so the variant refuses (it exists to show why reductions matter).
NAIVE_MAX_COLS = 4096
# warp_per_row holds a row in one warp's registers: 32 lanes x 32 values (cols_per_thread
# <= 32, no spills). Up to this width a whole row is one read and one write with no
# shared memory and no barriers, the cheapest path there is (OneFlow's limit too).
# Must equal kWarpRowMaxCols in csrc/softmax.cu.
WARP_PER_ROW_MAX_COLS = 1024
# Wider rows: cluster_regs (row slices in registers, one read and one write, no shared
# memory row cache) while its plan splits a row over at most this many CTAs. One CTA
# holds up to 64 KB of a row (fp32 16384, fp16/bf16 32768 columns), a 2-CTA cluster
# 128 KB. Measured (H200, 2026-11-21): it ties with block_smem on fp32 rows up to 32 KB
# (2048/4096/8192: 96.5/95.8/96.5% vs 96.4/96.5/96.3%), beats it beyond (fp32 16384:
# 96.4% vs 93.9%) and on every bf16 width (2048: 98.0% vs 68.9%; 16384: 97.5% vs 86.4%;
# 32768: 96.8% vs 84.2%), and beats cluster_smem with 2-CTA clusters (fp32 32768: 90.4%
# vs 88.4%; bf16 65536: 88.6% vs 81.1%) but not with 4 (fp32 65536: 86.2% vs 86.8%):
# each CTA waits, registers held, for the slowest CTA of its cluster, which costs more
# as clusters grow.
CLUSTER_REGS_MAX_AUTO_CLUSTER = 2
# Rows past that: block_smem while at least this many blocks (each caching its row in
# shared memory) stay resident per SM: with one, the SM's memory pipe idles while the
# block reduces and writes; with two, one block's loads overlap the other's reduction.
# 228 KB per SM means rows up to ~112 KB, so on H100/H200 no row past cluster_regs' two
# CTAs (128 KB) qualifies; without clusters (older GPUs, cluster_regs up to 64 KB) it
# serves rows of 64-112 KB.
BLOCK_SMEM_MIN_RESIDENT_BLOCKS = 2
# Wider rows: cluster_smem (thread-block clusters need compute capability 9.0) keeps the
# one-read-one-write traffic by splitting the row over 2-16 CTAs' shared memory, up to
# 16 x 227 KB per row on H100; cluster_regs with larger clusters if cluster_smem cannot
# serve; online (two reads, one write; the second read often hits L2) rather than
# block_uncached (three reads) past all of them.
CLUSTER_MIN_CAPABILITY = (9, 0)


def choose_variant(x: torch.Tensor) -> tuple[str, str]:
    """The variant `auto` runs on `x`, and why. Alignment never changes the choice: it
    only narrows the pack width inside the chosen kernel."""
    return _choose(x.device.index, x.dtype, x.shape[1])


@functools.lru_cache(maxsize=4096)
def _choose(device: int, dtype: torch.dtype, cols: int) -> tuple[str, str]:
    if cols <= WARP_PER_ROW_MAX_COLS:
        return "warp_per_row", f"cols {cols} <= WARP_PER_ROW_MAX_COLS {WARP_PER_ROW_MAX_COLS}: row in registers"
    regs = _plan_values(device, dtype, cols, "cluster_regs")
    if regs["status"] == "ok" and regs["cluster_size"] <= CLUSTER_REGS_MAX_AUTO_CLUSTER:
        return "cluster_regs", (f"row slices in the registers of {regs['cluster_size']} <= "
                                f"CLUSTER_REGS_MAX_AUTO_CLUSTER {CLUSTER_REGS_MAX_AUTO_CLUSTER} CTAs of "
                                f"{regs['threads']} threads")
    smem = _plan_values(device, dtype, cols, "block_smem")
    if smem["status"] == "ok" and smem["resident_per_sm"] >= BLOCK_SMEM_MIN_RESIDENT_BLOCKS:
        return "block_smem", (f"row of {smem['smem_bytes']} B in shared memory keeps {smem['resident_per_sm']} "
                              f">= BLOCK_SMEM_MIN_RESIDENT_BLOCKS {BLOCK_SMEM_MIN_RESIDENT_BLOCKS} blocks per SM")
    if torch.cuda.get_device_capability(device) >= CLUSTER_MIN_CAPABILITY:
        cluster = _plan_values(device, dtype, cols, "cluster_smem")
        if cluster["status"] == "ok":
            return "cluster_smem", (f"row too wide for {BLOCK_SMEM_MIN_RESIDENT_BLOCKS} blocks per SM; split over "
                                    f"{cluster['cluster_size']} CTAs of {cluster['smem_bytes']} B")
    if regs["status"] == "ok":
        return "cluster_regs", f"row too wide for shared memory; slices in the registers of {regs['cluster_size']} CTAs"
    return "online", "row too wide for shared memory and registers on this GPU: two reads, one write"


def _plan_values(device: int, dtype: torch.dtype, cols: int, variant: str) -> dict:
    """Plan for a 16-byte aligned input of this width (what the auto choice depends on)."""
    from .build import extension

    raw = extension().softmax_plan(0, 2, cols, cols, DTYPE_CODES[dtype], VARIANT_CODES[variant], device)
    return _named(raw)


def _named(raw) -> dict:
    values = dict(zip(PLAN_FIELDS, raw))
    values["status"] = PLAN_STATUS[values["status"]]
    return values


def _kernel_name(variant: str, dtype: torch.dtype, p: dict) -> str:
    ctype = {torch.float32: "float", torch.float16: "__half", torch.bfloat16: "__nv_bfloat16"}[dtype]
    if variant == "naive":
        return f"softmax_naive_kernel<{ctype}>"
    if variant in ("smem_tree", "coalesced", "warp_shuffle"):
        coalesced, shuffle = variant != "smem_tree", variant == "warp_shuffle"
        return f"softmax_ladder_kernel<{ctype}, coalesced={coalesced}, shuffle={shuffle}>"
    if variant == "warp_per_row":
        return (f"softmax_warp_per_row_kernel<{ctype}, pack={p['pack']}, cols_per_thread={p['cols_per_thread']}, "
                f"rows_per_access={p['rows_per_access']}>")
    if variant == "cluster_regs":
        size = torch.tensor([], dtype=dtype).element_size()
        return f"softmax_cluster_regs_kernel<{ctype}, pack={p['pack']}, bytes_per_thread={p['cols_per_thread'] * size}>"
    return f"softmax_{variant}_kernel<{ctype}, pack={p['pack']}>"


def plan(x: torch.Tensor, op: str = "softmax", variant: str = "auto") -> dict:
    """What `run` would launch on `x`: the variant (with the reason when `auto` chose it),
    the kernel instance, pack width, threads, blocks, cluster size, shared memory and
    occupancy, plus `status` ("ok" or why the variant cannot serve `x`)."""
    from .build import extension

    rows, cols = x.shape
    if variant == "auto":
        chosen, reason = choose_variant(x)
    else:
        chosen, reason = variant, "requested"
    raw = extension().softmax_plan(x.data_ptr(), rows, cols, x.stride(0), DTYPE_CODES[x.dtype],
                                   VARIANT_CODES[chosen], x.device.index)
    p = _named(raw)
    p.update(variant=chosen, reason=reason, op=op, kernel=_kernel_name(chosen, x.dtype, p),
             pack_bytes=p["pack"] * x.element_size())
    return p


def why_unsupported(x: torch.Tensor, op: str, variant: str) -> str | None:
    """None when `variant` can serve `x`; otherwise the reason (sizes and limits)."""
    if variant == "auto" or x.numel() == 0 or x.dim() != 2:
        return None  # auto serves everything; empty inputs launch nothing
    cols = x.shape[1]
    if variant == "naive" and cols > NAIVE_MAX_COLS:
        return (f"naive would re-read each row cols times: minutes per GiB at {cols} columns "
                f"(it serves up to NAIVE_MAX_COLS = {NAIVE_MAX_COLS})")
    if variant == "warp_per_row" and cols > WARP_PER_ROW_MAX_COLS:
        return (f"warp_per_row keeps a row in one warp's registers (32 lanes x 32 values): {cols} columns "
                f"exceed WARP_PER_ROW_MAX_COLS = {WARP_PER_ROW_MAX_COLS}")
    if variant not in ("block_smem", "cluster_smem", "cluster_regs", "cluster_tma"):
        return None
    p = plan(x, op, variant)
    status = p["status"]
    row_bytes = cols * x.element_size()
    if status == "ok":
        return None
    if status == "row_exceeds_registers":
        capacity = p["cluster_size"] * p["threads"] * p["cols_per_thread"]
        return (f"cluster_regs keeps the row in registers of at most {p['cluster_size']} CTAs x {p['threads']} "
                f"threads x {p['cols_per_thread']} values = {capacity} values on this GPU: {cols} columns exceed it")
    if variant == "cluster_regs":
        return (f"cluster_regs: no cluster of up to {p['cluster_size']} CTAs of up to {p['threads']} threads "
                f"can be resident on this GPU")
    if status == "row_exceeds_smem":
        return (f"block_smem caches the row in shared memory: {cols} x {x.element_size()} B = {row_bytes} B "
                f"exceed the {p['smem_limit']} B one block may use on this GPU")
    if status == "needs_sm90":
        major, minor = torch.cuda.get_device_capability(x.device)
        return (f"{variant} needs thread-block clusters (compute capability 9.0+)"
                f"{' and TMA' if variant == 'cluster_tma' else ''}; this GPU is sm_{major}{minor}")
    if status == "row_exceeds_cluster":
        return (f"{variant} splits the row over at most 16 CTAs: {row_bytes} B need {p['smem_bytes']} B per CTA, "
                f"more than the {p['smem_limit']} B one CTA may use on this GPU")
    return (f"{variant}: no cluster of up to 16 CTAs with {p['smem_bytes']} B of shared memory each can be "
            f"resident on this GPU")


def run(x: torch.Tensor, op: str, variant: str = "auto", out: torch.Tensor | None = None) -> torch.Tensor:
    """`op` ("softmax" / "log_softmax") of each row of a canonical CUDA tensor.

    `out`, when given, is a contiguous (rows, cols) tensor of x's dtype and device (tests
    pass a NaN-poisoned one to prove that every element is written).
    """
    if x.dim() != 2 or (x.shape[1] > 1 and x.stride(1) != 1):
        raise ValueError(f"expected a 2-D tensor with unit column stride, got shape {tuple(x.shape)} "
                         f"and strides {x.stride()}")
    rows, cols = x.shape
    if out is None:
        out = torch.empty((rows, cols), dtype=x.dtype, device=x.device)
    elif out.shape != x.shape or out.dtype != x.dtype or out.device != x.device or not out.is_contiguous():
        raise ValueError("out must be a contiguous tensor of the input's shape, dtype and device")
    if x.numel() == 0:
        return out
    chosen = choose_variant(x)[0] if variant == "auto" else variant
    if chosen in ("naive", "warp_per_row"):  # limits the launcher does not know about
        why = why_unsupported(x, op, chosen)
        if why is not None:
            raise ValueError(why)
    from .build import extension

    extension().softmax_forward(x.data_ptr(), out.data_ptr(), rows, cols, x.stride(0), DTYPE_CODES[x.dtype],
                                VARIANT_CODES[chosen], op == "log_softmax", x.device.index,
                                torch.cuda.current_stream(x.device).cuda_stream)
    return out
