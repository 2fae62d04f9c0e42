"""Launch geometry for persistent Triton kernels: device limits and programs per SM.

A persistent kernel launches only as many programs as the GPU keeps resident at once
and lets each one loop over its share of the work. How many programs fit on one SM
follows from the compiled kernel (registers per thread, shared memory per program,
warps per program) and the SM's limits, the same arithmetic as CUDA's occupancy
calculator. Device limits are read per device index on first use and cached; nothing
here queries a GPU or compiles a kernel at import time.
"""
from __future__ import annotations

import ctypes
import functools
from dataclasses import dataclass

import torch

# Registers are allocated per warp in units of 256, i.e. 8 per thread: a kernel using
# 57 registers per thread occupies 64.
REG_ALLOC_UNIT = 8
# The CUDA driver reserves 1 KiB of shared memory per resident program (sm_80 and later).
SMEM_RESERVED_PER_PROGRAM = 1024
# Resident programs per SM: 32 on sm_80/sm_90/sm_100, 16 to 24 on the consumer parts.
# 16 is met everywhere since sm_50, and with 4 or more warps per program the warp limit
# (64 or 48 warps per SM) binds first anyway.
MAX_PROGRAMS_PER_SM = 16


@dataclass(frozen=True)
class DeviceLimits:
    """The per-SM limits occupancy depends on, and the L2 size for working-set budgets."""

    index: int
    name: str
    sm_count: int
    regs_per_sm: int
    smem_per_sm: int
    max_threads_per_sm: int
    warp_size: int
    l2_bytes: int


@functools.lru_cache(maxsize=None)
def device_limits(index: int) -> DeviceLimits:
    """Limits of CUDA device `index` (queried once per process and device)."""
    from triton.runtime import driver

    props = torch.cuda.get_device_properties(index)
    # Triton's driver reports the per-program register and (opt-in) shared-memory caps;
    # torch reports the per-SM figures where it has them. On sm_80/sm_90 the register
    # caps coincide (64 Ki), the per-SM shared memory is 1 KiB above the per-program one.
    tri = driver.active.utils.get_device_properties(index)
    return DeviceLimits(
        index=index,
        name=props.name,
        sm_count=props.multi_processor_count,
        regs_per_sm=getattr(props, "regs_per_multiprocessor", 0) or tri["max_num_regs"],
        smem_per_sm=getattr(props, "shared_memory_per_multiprocessor", 0) or tri["max_shared_mem"],
        max_threads_per_sm=props.max_threads_per_multi_processor,
        warp_size=tri.get("warpSize", 32),
        l2_bytes=getattr(props, "L2_cache_size", 0),
    )


@dataclass(frozen=True)
class CompiledResources:
    """What one compiled kernel uses per program, and how many programs fit on an SM."""

    n_regs: int
    n_spills: int
    shared: int
    num_warps: int
    programs_per_sm: int
    limited_by: str


def programs_per_sm(n_regs: int, shared: int, num_warps: int, limits: DeviceLimits) -> tuple[int, str]:
    """Resident programs per SM: the minimum of the register, shared-memory, warp and
    program-count limits (at least 1: a kernel that compiled and loaded can run)."""
    threads = num_warps * limits.warp_size
    regs = -(-max(n_regs, 1) // REG_ALLOC_UNIT) * REG_ALLOC_UNIT * threads
    bounds = {
        "registers": limits.regs_per_sm // regs,
        "shared memory": limits.smem_per_sm // (shared + SMEM_RESERVED_PER_PROGRAM),
        "warps": limits.max_threads_per_sm // threads,
        "programs": MAX_PROGRAMS_PER_SM,
    }
    limited_by = min(bounds, key=bounds.get)
    return max(1, bounds[limited_by]), limited_by


def compiled_resources(kernel, args: tuple, *, num_warps: int, limits: DeviceLimits,
                       maxnreg: int | None = None, **constexprs) -> CompiledResources:
    """Compile `kernel` for `args` (no launch) and read its register, spill and shared
    memory use; `maxnreg` caps the registers per thread (None: ptxas decides). Call inside
    ``torch.cuda.device(limits.index)``: the binary is loaded on the current device.
    Triton caches the binary, so the launch that follows (with the same options) reuses it."""
    options = {"maxnreg": maxnreg} if maxnreg else {}
    compiled = kernel.warmup(*args, grid=(1,), num_warps=num_warps, **options, **constexprs)
    compiled._init_handles()  # loads the binary; fills n_regs and n_spills
    shared = int(compiled.metadata.shared)
    per_sm, limited_by = programs_per_sm(compiled.n_regs, shared, num_warps, limits)
    # The driver's own answer for the loaded binary, where it can be had: a persistent
    # grid whose programs wait for each other (softmax `split`) must never count on more
    # resident programs than the GPU really keeps.
    driver = driver_programs_per_sm(compiled, num_warps * limits.warp_size, shared)
    if driver is not None and driver < per_sm:
        per_sm, limited_by = max(1, driver), "driver occupancy"
    return CompiledResources(n_regs=int(compiled.n_regs), n_spills=int(compiled.n_spills),
                             shared=shared, num_warps=num_warps, programs_per_sm=per_sm,
                             limited_by=limited_by)


@functools.lru_cache(maxsize=1)
def _libcuda():
    try:
        return ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None


def driver_programs_per_sm(compiled, threads: int, shared: int) -> int | None:
    """cuOccupancyMaxActiveBlocksPerMultiprocessor for a loaded Triton kernel, or None
    where the driver library or the function handle is not available."""
    lib = _libcuda()
    handle = getattr(compiled, "function", None)
    if lib is None or not handle:
        return None
    n = ctypes.c_int(0)
    status = lib.cuOccupancyMaxActiveBlocksPerMultiprocessor(
        ctypes.byref(n), ctypes.c_void_p(handle), ctypes.c_int(threads), ctypes.c_size_t(shared))
    return n.value if status == 0 else None
