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
cluster_smem, cluster_regs, cluster_tma, block_hybrid R + W (the copy-bandwidth floor).
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
    "block_hybrid",    # one CTA per row: part in registers, the rest in shared memory by TMA (sm_90+)
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
# Wider rows, in order (H200, 2026-11-21, 1 GiB inputs, % of copy bandwidth; the
# tuning logs in benchmarks/ hold the runs):
# 1. cluster_regs while ONE CTA holds the row in registers: 512 threads up to 64 KB, one
#    CTA of 1024 threads up to 128 KB (fp32 32768, bf16 65536). One read, one write, no
#    shared memory, no peers to wait for: fp32 2048-16384 96.5-96.8, fp32 32768 98.3 and
#    bf16 65536 95.2 (the same rows in 2-CTA clusters: 90.5 and 88.4).
# 2. block_hybrid (sm_90) while registers plus shared memory of one CTA hold it (about
#    290 KB: fp32 65536, bf16 131072): still one CTA per row, no cluster exchange.
# 3. cluster_regs over a 2-16 CTA cluster (sm_90, rows up to 1 MB): each CTA waits for
#    the slowest of its cluster, yet it beats cluster_smem at every width measured
#    (fp32 131072/262144: 84.1/74.5 vs 74.3/64.9; bf16 131072/262144: 85.3/84.0 vs
#    81.1/68.0).
# 4. cluster_smem (up to 16 x 227 KB per row), then block_smem (GPUs without clusters),
#    then online (two reads, one write; the second read often hits L2) rather than
#    block_uncached (three reads).
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
    if regs["status"] == "ok" and regs["cluster_size"] == 1:
        return "cluster_regs", f"row in the registers of one CTA of {regs['threads']} threads"
    hopper = torch.cuda.get_device_capability(device) >= CLUSTER_MIN_CAPABILITY
    if hopper:
        hybrid = _plan_values(device, dtype, cols, "block_hybrid")
        if hybrid["status"] == "ok":
            return "block_hybrid", (f"row in the registers and {hybrid['smem_bytes']} B of shared memory "
                                    f"of one CTA")
    if regs["status"] == "ok":
        return "cluster_regs", f"row in the registers of a cluster of {regs['cluster_size']} CTAs"
    if hopper:
        cluster = _plan_values(device, dtype, cols, "cluster_smem")
        if cluster["status"] == "ok":
            return "cluster_smem", (f"row too wide for registers; split over {cluster['cluster_size']} CTAs' "
                                    f"shared memory ({cluster['smem_bytes']} B each)")
    smem = _plan_values(device, dtype, cols, "block_smem")
    if smem["status"] == "ok":
        return "block_smem", f"row of {smem['smem_bytes']} B in one block's shared memory"
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
        bound = 1024 if p["threads"] > 512 else 512  # kRegsWideThreads / kRegsMaxThreads
        return (f"softmax_cluster_regs_kernel<{ctype}, pack={p['pack']}, "
                f"bytes_per_thread={p['cols_per_thread'] * size}, max_threads={bound}>")
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
    if variant not in ("block_smem", "cluster_smem", "cluster_regs", "cluster_tma", "block_hybrid"):
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
    if status == "row_exceeds_smem" and variant == "block_hybrid":
        in_registers = p["threads"] * p["cols_per_thread"]
        return (f"block_hybrid keeps {in_registers} values of the row in registers and the rest in shared memory: "
                f"the other {cols - in_registers} x {x.element_size()} B need {p['smem_bytes']} B, more than the "
                f"{p['smem_limit']} B one block may use on this GPU")
    if status == "row_exceeds_smem":
        return (f"block_smem caches the row in shared memory: {cols} x {x.element_size()} B = {row_bytes} B "
                f"exceed the {p['smem_limit']} B one block may use on this GPU")
    if status == "needs_sm90":
        major, minor = torch.cuda.get_device_capability(x.device)
        needs = {"cluster_smem": "thread-block clusters", "cluster_tma": "thread-block clusters and TMA",
                 "block_hybrid": "TMA bulk copies"}[variant]
        return f"{variant} needs {needs} (compute capability 9.0+); this GPU is sm_{major}{minor}"
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
