"""Softmax and log-softmax with the CUDA kernels of csrc/softmax/: the optimisation ladder
of SEEDS.md, one selectable variant per rung.

Canonical inputs (see `comparison.backend`): a 2-D ``(rows, cols)`` CUDA tensor with unit
column stride and any row stride; the result is a new contiguous tensor of the same
dtype (fp32, fp16 or bf16; arithmetic in fp32).

Every decision is the C++ planner's (csrc/softmax/, cached per device, dtype, variant,
shape and alignment): each dispatch path's geometry (pack width from alignment, block
size from occupancy, grid, cluster size) in its plan_<path>(), which variant ``auto``
runs in softmax/auto.cuh. This module names the variants (csrc/softmax/variants.def)
and makes one call into the extension per question: `plan`, `why_unsupported`, `run` (and
`runner`, `run` for the public call path, which has checked its arguments already;
`grad_runner`, the same forward recording its gradient in C++).

Memory traffic per element (R read, W write): naive cols*2 R + W; smem_tree, coalesced,
warp_shuffle, block_uncached 3 R + W; online 2 R + W; warp_per_row, block_smem,
cluster_smem, cluster_regs, cluster_tma, block_hybrid, split, split_smem, split_hybrid R + W
(the copy-bandwidth floor).

Backward ops (softmax_backward, log_softmax_backward: x is the forward output y, `dy` its
gradient, a new contiguous dx): the variants of csrc/softmax/backward_variants.def, each
beside its forward; warp_per_row, block_smem, cluster_regs, block_hybrid, split,
split_smem and split_hybrid read y and dy once and write dx once (2 R + W), block_uncached
reads them twice (the second from L2 where the rows fit).
"""
from __future__ import annotations

import functools

import torch

from . import codes
from .build import extension

_VARIANTS = codes.read("softmax/variants.def")
LADDER = codes.names_by_code(_VARIANTS["SK_SOFTMAX_VARIANT"])  # slowest first
# The variants with a backward kernel beside their forward (csrc/softmax/backward_variants.def).
BACKWARD = tuple(e.name for e in codes.read("softmax/backward_variants.def")["SK_SOFTMAX_BACKWARD"])
VARIANTS = {"softmax": LADDER, "log_softmax": LADDER, "softmax_backward": BACKWARD, "log_softmax_backward": BACKWARD}
_BACKWARD_OPS = ("softmax_backward", "log_softmax_backward")
VARIANT_CODES = {name: code for code, name in enumerate(LADDER)} | {"auto": _VARIANTS["SK_SOFTMAX_AUTO"][0].code}
PLAN_FIELDS = codes.names_by_code(codes.read("softmax/plan_fields.def")["SK_PLAN_FIELD"])
PLAN_STATUS = codes.names_by_code(codes.read("softmax/plan_status.def")["SK_PLAN_STATUS"])
AUTO_REASONS = codes.names_by_code(codes.read("softmax/auto_reasons.def")["SK_AUTO_REASON"])
DTYPE_CODES = codes.DTYPE_CODES

# What each variant needs that an older GPU lacks (words for why_unsupported).
_SM90_FEATURES = {"cluster_smem": "thread-block clusters", "cluster_tma": "thread-block clusters and TMA",
                  "block_hybrid": "TMA bulk copies", "split_hybrid": "TMA bulk copies"}


@functools.cache
def constants() -> dict[str, int]:
    """The planner's limits by name (csrc/softmax.cu softmax_constants): NAIVE_MAX_COLS,
    WARP_PER_ROW_MAX_COLS, CLUSTER_MIN_MAJOR, MAX_CLUSTER_SIZE, ... Builds the extension."""
    return dict(extension().softmax_constants())


@functools.cache
def gpu_properties(device: int) -> dict[str, int]:
    """The properties of CUDA device `device` (an index) that the planner's rules read
    (csrc/softmax.cu gpu_properties): major, minor, sm_count, max_threads_per_sm,
    smem_per_block_optin, smem_per_sm and dram_bytes_per_s (peak: two transfers per
    memory clock over the bus width). Builds the extension."""
    return dict(extension().gpu_properties(device))


def plan(x: torch.Tensor, op: str = "softmax", variant: str = "auto", dy: torch.Tensor | None = None) -> dict:
    """What `run` would launch on `x`: the variant (with the rule and the reason when
    `auto` chose it), the kernel instance, pack width, threads, blocks, cluster size,
    shared memory and occupancy, plus `status` ("ok" or why the variant cannot serve `x`).
    Backward ops: x is the forward output y, and `dy` its gradient (when left out, one
    laid out like y is assumed)."""
    rows, cols = x.shape
    if op in _BACKWARD_OPS:
        g = x if dy is None else dy
        fields, kernel, reason = extension().softmax_backward_plan(
            x.data_ptr(), g.data_ptr(), rows, cols, x.stride(0), g.stride(0), DTYPE_CODES[x.dtype],
            VARIANT_CODES[variant], x.device.index)
    else:
        fields, kernel, reason = extension().softmax_plan(x.data_ptr(), rows, cols, x.stride(0),
                                                          DTYPE_CODES[x.dtype], VARIANT_CODES[variant], x.device.index)
    p = dict(zip(PLAN_FIELDS, fields, strict=True))
    p.update(status=PLAN_STATUS[p["status"]], variant=LADDER[p["variant"]],
             reason_code=AUTO_REASONS[p["reason_code"]], reason=reason, op=op, kernel=kernel,
             pack_bytes=p["pack"] * x.element_size())
    return p


def why_unsupported(x: torch.Tensor, op: str, variant: str) -> str | None:
    """None when `variant` can serve `x`; otherwise the reason (sizes and limits)."""
    if variant == "auto" or x.dim() != 2 or x.numel() == 0:
        return None  # auto serves everything; empty inputs launch nothing
    p = plan(x, op, variant)
    return None if p["status"] == "ok" else _refusal(x, variant, p)


def _refusal(x: torch.Tensor, variant: str, p: dict) -> str:
    """Why the plan `p` of `variant` refuses `x`, in the plan's numbers."""
    status, cols, size = p["status"], x.shape[1], x.element_size()
    if p["op"] in _BACKWARD_OPS:
        return _backward_refusal(x, variant, p)
    limits = constants()
    if status == "too_wide_for_naive":
        return (f"naive would re-read each row cols times: minutes per GiB at {cols} columns "
                f"(it serves up to NAIVE_MAX_COLS = {limits['NAIVE_MAX_COLS']})")
    if status == "too_wide_for_warp":
        if size == 2 and cols <= limits["WARP_PER_ROW_MAX_COLS_16BIT"]:
            return (f"warp_per_row holds 16-bit rows past WARP_PER_ROW_MAX_COLS = {limits['WARP_PER_ROW_MAX_COLS']} "
                    f"columns (up to WARP_PER_ROW_MAX_COLS_16BIT = {limits['WARP_PER_ROW_MAX_COLS_16BIT']}) only "
                    f"when it reads them in 16-byte packs: this view of {cols} columns is strided or misaligned")
        widest = limits["WARP_PER_ROW_MAX_COLS_16BIT" if size == 2 else "WARP_PER_ROW_MAX_COLS"]
        return (f"warp_per_row keeps a row in one warp's registers (32 lanes x {widest // 32} values): {cols} "
                f"columns exceed WARP_PER_ROW_MAX_COLS{'_16BIT' if size == 2 else ''} = {widest}")
    if status == "row_exceeds_registers":
        capacity = p["cluster_size"] * p["threads"] * p["cols_per_thread"]
        why = (f"cluster_regs keeps the row in registers of at most {p['cluster_size']} CTAs x {p['threads']} "
               f"threads x {p['cols_per_thread']} values = {capacity} values on this GPU: {cols} columns exceed it")
        return why + _unpacked_refusal(x, cols, size, limits)
    if status == "too_many_chunks":
        return _too_many_parts(variant, cols, p)
    if variant == "cluster_regs":
        return (f"cluster_regs: no cluster of up to {p['cluster_size']} CTAs of up to {p['threads']} threads "
                f"can be resident on this GPU")
    if status == "row_exceeds_smem" and variant == "block_hybrid":
        in_registers = p["threads"] * p["cols_per_thread"]
        return (f"block_hybrid splits the row over at most {p['cluster_size']} CTAs, each keeping {in_registers} "
                f"values of its slice in registers and the rest in shared memory: {cols} columns of {size} B need "
                f"{p['smem_bytes']} B per CTA, more than the {p['smem_limit']} B one CTA may use on this GPU")
    if status == "row_exceeds_smem":
        return (f"block_smem caches the row in shared memory: {cols} x {size} B = {cols * size} B "
                f"exceed the {p['smem_limit']} B one block may use on this GPU")
    if status == "needs_sm90":
        return _needs_sm90(x, variant, variant)
    clusters = limits["MAX_CLUSTER_SIZE"]
    if status == "row_exceeds_cluster":
        return (f"{variant} splits the row over at most {clusters} CTAs: {cols * size} B need {p['smem_bytes']} B "
                f"per CTA, more than the {p['smem_limit']} B one CTA may use on this GPU")
    return (f"{variant}: no cluster of up to {clusters} CTAs with {p['smem_bytes']} B of shared memory each can be "
            f"resident on this GPU")


def _unpacked_refusal(x: torch.Tensor, cols: int, size: int, limits: dict) -> str:
    """Where cluster_regs' clusters holding 16-bit values as fp32 (GPUs of
    REGS_UNPACK_MIN_SM_BANDWIDTH per SM) could hold the row, the words that say why they
    did not: they take only rows that fill their slices."""
    props = gpu_properties(x.device.index)
    per_thread = (limits["REGS_UNPACK_BYTES"] // size
                  + limits["REGS_UNPACK_MAX_SMEM_PACKS"] * limits["REGS_UNPACK_SMEM_PACK_BYTES"] // 4)
    widest = limits["MAX_CLUSTER_SIZE"] * limits["REGS_UNPACK_WHOLE_THREADS"] * per_thread
    if size != 2 or cols > widest or \
            props["dram_bytes_per_s"] // max(props["sm_count"], 1) < limits["REGS_UNPACK_MIN_SM_BANDWIDTH"]:
        return ""
    return (f"; its clusters holding 16-bit values as fp32 (registers and shared memory, up to {widest} values) "
            f"take only rows that fill their CTAs' slices, whole or nearly, with clusters enough to fill the GPU: "
            f"none of their shapes does at {cols} columns")


def _too_many_parts(variant: str, cols: int, p: dict, backward: bool = False) -> str:
    """split's, split_smem's and split_hybrid's refusal: a row needs more CTAs than the GPU
    holds at once (split_hybrid: or than its CTAs gather, SPLIT_HYBRID_MAX_SLICES)."""
    chunk = p["threads"] * p["cols_per_thread"]
    if variant == "split_hybrid":
        what = f"{variant}'s backward" if backward else variant
        return (f"{what} splits each row over CTAs of {p['threads']} threads, each keeping {chunk} values of its "
                f"slice in registers and the rest in shared memory (at most {p['smem_limit']} B), and needs every "
                f"CTA of a row resident at once: at {cols} columns no count of them up to {p['split']} both holds "
                f"the row and fits this GPU at once ({p['resident_per_sm']} per SM; at most "
                f"SPLIT_HYBRID_MAX_SLICES = {constants()['SPLIT_HYBRID_MAX_SLICES']} per row)")
    held = ("holds each row in chunks of {} values in registers" if variant == "split"
            else "stages each row in parts of up to {} values in shared memory").format(chunk)
    what = f"{variant}'s backward" if backward else variant
    return (f"{what} {held}, one CTA each, and needs every CTA of a row resident at once: {cols} columns "
            f"need {p['split']} CTAs, more than this GPU holds at once ({p['resident_per_sm']} per SM)")


def _needs_sm90(x: torch.Tensor, variant: str, what: str) -> str:
    major, minor = torch.cuda.get_device_capability(x.device)
    return (f"{what} needs {_SM90_FEATURES[variant]} (compute capability {constants()['CLUSTER_MIN_MAJOR']}.0+); "
            f"this GPU is sm_{major}{minor}")


def _backward_refusal(x: torch.Tensor, variant: str, p: dict) -> str:
    """Why a backward plan refuses y (x) and dy: they hold both rows on chip."""
    status, cols, size = p["status"], x.shape[1], x.element_size()
    if status == "too_wide_for_warp":
        return (f"warp_per_row's backward keeps the rows of y and dy in one warp's registers: {cols} columns "
                f"exceed WARP_PER_ROW_MAX_COLS = {constants()['WARP_PER_ROW_MAX_COLS']}")
    if status == "needs_sm90":
        return _needs_sm90(x, variant, f"{variant}'s backward")
    if status == "row_exceeds_smem" and variant == "block_hybrid":
        in_registers = p["threads"] * p["cols_per_thread"]
        return (f"block_hybrid's backward splits the rows of y and dy over at most {p['cluster_size']} CTAs, each "
                f"keeping {in_registers} columns of its slice of both in registers and the rest in shared memory: "
                f"{cols} columns of {size} B need {p['smem_bytes']} B per CTA, more than the {p['smem_limit']} B "
                f"one CTA may use on this GPU")
    if status == "row_exceeds_smem":
        return (f"block_smem's backward caches the rows of y and dy in shared memory: 2 x {cols} x {size} B "
                f"need {p['smem_bytes']} B, more than the {p['smem_limit']} B one block may use on this GPU")
    if status == "too_many_chunks":
        return _too_many_parts(variant, cols, p, backward=True)
    if status == "row_exceeds_registers":
        capacity = p["cluster_size"] * p["threads"] * p["cols_per_thread"]
        return (f"cluster_regs's backward keeps the rows of y and dy in the registers of at most {p['cluster_size']} "
                f"CTAs x {p['threads']} threads x {p['cols_per_thread']} values of each = {capacity} columns on "
                f"this GPU: {cols} columns exceed it")
    return (f"{variant}'s backward: no cluster of up to {p['cluster_size']} CTAs of up to {p['threads']} threads "
            f"can be resident on this GPU")


def run(x: torch.Tensor, op: str, variant: str = "auto", out: torch.Tensor | None = None,
        dy: torch.Tensor | None = None) -> torch.Tensor:
    """`op` of each row of a canonical CUDA tensor (for the backward ops x is the forward
    output y and `dy` its gradient): one call into the extension that plans (cached in
    C++; `auto` chosen there), allocates the result and launches on the current stream.

    `out`, when given, is a contiguous (rows, cols) tensor of x's dtype and device (tests
    pass a NaN-poisoned one to prove that every element is written).
    """
    if x.dim() != 2 or (x.shape[1] > 1 and x.stride(1) != 1):
        raise ValueError(f"expected a 2-D tensor with unit column stride, got shape {tuple(x.shape)} "
                         f"and strides {x.stride()}")
    if out is not None and (out.shape != x.shape or out.dtype != x.dtype or out.device != x.device
                            or not out.is_contiguous()):
        raise ValueError("out must be a contiguous tensor of the input's shape, dtype and device")
    if x.numel() == 0:
        return torch.empty_like(x, memory_format=torch.contiguous_format) if out is None else out
    backward = op in _BACKWARD_OPS
    if backward and (dy is None or dy.shape != x.shape or dy.dtype != x.dtype or dy.device != x.device or (
            x.shape[1] > 1 and dy.stride(1) != 1)):
        raise ValueError(f"{op} needs dy of y's shape, dtype and device with unit column stride")
    try:
        if backward:
            return extension().softmax_backward(x, dy, out, DTYPE_CODES[x.dtype], VARIANT_CODES[variant],
                                                op == "log_softmax_backward")
        return extension().softmax_forward(x, out, DTYPE_CODES[x.dtype], VARIANT_CODES[variant],
                                           op == "log_softmax")
    except ValueError as exc:  # the plan refused x: say why in why_unsupported's words
        p = plan(x, op, variant, dy)
        raise ValueError(_refusal(x, variant, p) if p["status"] != "ok" else str(exc)) from None


def runner(op: str, variant: str):
    """``runner(x, dy)``: `run` for canonical tensors the caller has checked (the public
    call path keeps one per op, variant, device type and dtype), straight to the extension:
    a loop of small calls spends its time in the launch, not in Python."""
    ext, code = extension(), VARIANT_CODES[variant]
    if op in _BACKWARD_OPS:
        backward, log = ext.softmax_backward, op == "log_softmax_backward"

        def run_backward(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
            return backward(y, dy, None, DTYPE_CODES[y.dtype], code, log)
        return run_backward
    forward, log = ext.softmax_forward, op == "log_softmax"

    def run_forward(x: torch.Tensor, dy: None = None) -> torch.Tensor:
        return forward(x, None, DTYPE_CODES[x.dtype], code, log)
    return run_forward


def grad_runner(op: str, variant: str):
    """``runner(x)``: the forward of `runner` whose result records its gradient in C++
    (bindings.cpp `softmax_forward_with_grad`: the node saves y and runs the backward
    kernels' `auto` on dy), so an eager training step never enters Python's
    autograd.Function. None for the backward ops."""
    if op in _BACKWARD_OPS:
        return None
    forward, code, log = extension().softmax_forward_with_grad, VARIANT_CODES[variant], op == "log_softmax"

    def run_forward(x: torch.Tensor) -> torch.Tensor:
        return forward(x, DTYPE_CODES[x.dtype], code, log)
    return run_forward
