"""Launch helpers shared by every Triton kernel here: which device a launch goes to, the
grid it gets, and how many programs of a compiled kernel stay resident on an SM.

* Devices: `on_gpu` (compiled for a GPU, not Triton's CPU interpreter), `on_device` (the
  guard every launch runs under: Triton launches on the *current* device, so it is made
  the tensor's own), `device_limits` (per-SM limits, read once per device).
* Arguments: `rows_view`, the ``(rows, cols)`` view with unit column stride that the row
  kernels take; `stand_in`, an output argument for compiling without a launch.
* Occupancy: `resources` compiles a kernel for the arguments it will be launched with (no
  launch) and returns its registers, spills, shared memory and programs per SM, cached
  once per process in one cache keyed by what Triton specialises a binary on
  (`specialization`). `programs_per_sm` is CUDA's occupancy arithmetic; the driver's own
  answer caps it where it can be had.
* Grids: `persistent_grid` (as many programs as stay resident, each looping over its
  share of the work, in whole groups where programs wait for each other) and
  `grid_2d` (a one-shot grid laid out on a second dimension past CUDA's grid.x limit).
* Plans: `PlanCache`, the plans of `softmax.plan` / `reduce.plan` kept by what they
  read of their tensors, so that a repeated call computes none of it again.
* Launches: `launch`, a planned launch that goes through Triton's JIT once per plan and
  argument alignment and straight to the compiled kernel's launcher after that
  (`BoundKernel`: the JIT's per-call binding, specialisation and cache lookup cost tens of
  microseconds, more than a small kernel runs).
* `Family`: the launch interface of a backward kernel family, under the names a forward
  family module exposes at its top level (so one planner drives both).

Nothing here queries a GPU or compiles a kernel at import time.
"""
from __future__ import annotations

import contextlib
import ctypes
import functools
import inspect
import math
from dataclasses import dataclass
from typing import Callable

import torch

from .backend import interpreting

# Registers are allocated per warp in units of 256, i.e. 8 per thread: a kernel using
# 57 registers per thread occupies 64.
REG_ALLOC_UNIT = 8
# The CUDA driver reserves 1 KiB of shared memory per resident program (sm_80 and later).
SMEM_RESERVED_PER_PROGRAM = 1024
# Resident programs per SM: 32 on sm_80/sm_90/sm_100, 16 to 24 on the consumer parts.
# 16 is met everywhere since sm_50, and with 4 or more warps per program the warp limit
# (64 or 48 warps per SM) binds first anyway.
MAX_PROGRAMS_PER_SM = 16
# CUDA's limit on grid.x; one-shot grids with more programs use a second dimension.
MAX_GRID = 2 ** 31 - 1
# Options every kernel here is compiled with, whatever the installed Triton's defaults:
# a multiply and an add fused into one FMA, as Triton 3.6 (the GPU machine's, where every
# kernel was measured) and 3.9 do by default. Triton 3.9 warns that 3.10's default turns
# fusion off, which would change the arithmetic and the machine code of every kernel
# unmeasured.
COMPILE_OPTIONS = {"enable_fp_fusion": True}


# -- devices ---------------------------------------------------------------------------------

def on_gpu(x: torch.Tensor) -> bool:
    """Whether kernels on `x` are compiled for its GPU (False: Triton's CPU interpreter)."""
    return x.device.type == "cuda" and not interpreting()


# torch's current-device query without torch.cuda.current_device()'s Python wrapper (its
# lazy-init check: a CUDA tensor in hand means CUDA is initialised).
current_device = getattr(torch._C, "_cuda_getDevice", None) or torch.cuda.current_device


def on_device(x: torch.Tensor):
    """The context every launch on `x` runs in: Triton launches on the *current* device (and
    its current stream), so the current device is made x's own (when it is not already:
    switching devices costs microseconds, the check a fraction of one)."""
    if x.device.type != "cuda" or x.device.index == current_device():
        return contextlib.nullcontext()
    return torch.cuda.device(x.device)


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
    # Peak DRAM bandwidth, bytes/s (two transfers per memory clock over the bus width; 0
    # where the driver reports neither): what an SM must keep in flight grows with its
    # share of it (`split`'s rules by bandwidth per SM, softmax_split.fast_sm).
    dram_bytes_per_s: int = 0


def sm_count(limits: DeviceLimits | None) -> int | None:
    """The SMs of the GPU of `limits`; None for None (the interpreter, which plans with
    none)."""
    return limits.sm_count if limits is not None else None


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
        dram_bytes_per_s=2 * tri.get("mem_clock_rate", 0) * 1000 * (tri.get("mem_bus_width", 0) // 8),
    )


# -- arguments ---------------------------------------------------------------------------------

def rows_view(x: torch.Tensor) -> torch.Tensor | None:
    """`x` as ``(rows, cols)`` rows along its last dimension (a 0-dim tensor: one row of
    one) with unit column stride, as a view; None where the layout has no such view (a
    copy would be needed). An empty tensor's strides do not matter (nothing is read), so
    it always has one. Never copies."""
    if x.dim() == 2:
        x2d = x
    else:
        cols = x.shape[-1] if x.dim() else 1
        rows = math.prod(x.shape[:-1]) if x.dim() else 1
        try:
            x2d = x.view(rows, cols)
        except RuntimeError:  # strides that no 2-D view can express
            return None
    if x2d.shape[1] > 1 and x2d.stride(1) != 1 and x2d.numel():
        return None
    return x2d


def stand_in(dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """A tensor standing in for an output (or scratch) argument when a kernel is compiled
    for occupancy: only its dtype and 16-byte alignment matter (nothing is launched), and
    the launches allocate theirs fresh, hence aligned."""
    return torch.empty(16, dtype=dtype, device=device)


# -- occupancy ---------------------------------------------------------------------------------

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
    compiled = kernel.warmup(*args, grid=(1,), num_warps=num_warps, **COMPILE_OPTIONS, **options, **constexprs)
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


def specialization(args: tuple) -> tuple:
    """What Triton specialises a binary on in `args`, besides constexprs and launch
    options: each tensor's dtype and 16-byte alignment; each integer's type (32 or 64
    bit), divisibility by 16 and equality to 1. Unaligned rows, for one, compile to
    scalar loads with more address registers: their occupancy differs."""
    key = []
    for a in args:
        if isinstance(a, torch.Tensor):
            key.append((a.dtype, a.data_ptr() % 16 == 0))
        elif isinstance(a, int) and not isinstance(a, bool):
            key.append((-2 ** 31 <= a < 2 ** 31, a % 16 == 0, a == 1))
        else:
            key.append(a)
    return tuple(key)


# CompiledResources per compiled configuration (device, kernel, specialisation,
# constexprs, warps, register cap): measured once per process.
_RESOURCES: dict[tuple, CompiledResources] = {}


def resources(kernel, args: tuple, constexprs: dict, *, num_warps: int, limits: DeviceLimits,
              maxnreg: int | None = None) -> CompiledResources:
    """`compiled_resources` of `kernel` for `args` on device `limits.index`, compiled once
    per configuration. `args` are the launch's own, so that the binary measured is the one
    the launch uses; stand-ins for outputs need only the outputs' dtype and alignment."""
    key = (limits.index, kernel, specialization(args), tuple(sorted(constexprs.items())),
           num_warps, maxnreg)
    res = _RESOURCES.get(key)
    if res is None:
        with torch.cuda.device(limits.index):
            res = compiled_resources(kernel, args, num_warps=num_warps, maxnreg=maxnreg,
                                     limits=limits, **constexprs)
        _RESOURCES[key] = res
    return res


@dataclass(frozen=True)
class DeviceTarget:
    """The GPU a plan is made on, as the plans compile for it: `resources` on this device
    (offline.Target is the same interface for a GPU that is not here)."""

    limits: DeviceLimits

    def compile(self, kernel, args: tuple, constexprs: dict, num_warps: int,
                maxnreg: int | None = None) -> CompiledResources:
        return resources(kernel, args, constexprs, num_warps=num_warps, limits=self.limits, maxnreg=maxnreg)


def plan_target(x: torch.Tensor, target=None):
    """What a plan of `x` compiles for: `target` where given (offline), else x's GPU, or
    None under the interpreter (nothing is compiled)."""
    if target is not None:
        return target
    return DeviceTarget(device_limits(x.device.index)) if on_gpu(x) else None


# -- launches ----------------------------------------------------------------------------------

# torch's current-stream query as an integer, the one Triton's own launches make; the
# public Stream object costs microseconds more.
_raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None) or (
    lambda index: torch.cuda.current_stream(index).cuda_stream)


def raw_stream(index: int) -> int:
    """The current stream of CUDA device `index`, as the integer handle launches take."""
    return _raw_stream(index)


def _live(hook):
    """`hook`, or None where no hook is set. Triton 3.4 and later keep each launch hook as a
    chain (`knobs.HookChain`) that is never None, even empty; handed an empty chain, the
    launcher calls it before and after the kernel, and the launch first builds the metadata
    it would pass (a dict per launch), about 2 us of a small call's host time for nothing.
    Handed None, the launcher skips both, as it did when an unset hook was None. Read at
    every launch: a profiler may add a hook to the chain at any time."""
    return hook if getattr(hook, "calls", hook) else None


class BoundKernel:
    """A compiled Triton kernel and the constexpr values of one plan, launched with the
    compiled kernel's own launcher: what `JITFunction.run` does after its per-call work
    (binding the arguments to the signature, specialising each one, looking the binary up
    in its cache, checking the globals it read), which a plan has already settled. The
    launcher takes every argument in signature order, constexprs included (it skips them),
    as the JIT passes them; the launch hooks (profilers) are honoured as the JIT does, an
    empty hook chain passed as no hook (`_live`)."""

    __slots__ = ("compiled", "tail", "launcher", "function", "metadata", "hooks", "grid", "scalars")

    def __init__(self, compiled, tail: tuple, hooks):
        self.compiled, self.tail, self.hooks = compiled, tail, hooks
        self.launcher, self.function, self.metadata = compiled.run, compiled.function, compiled.packed_metadata
        # The grid and the non-tensor arguments of the launch that bound it (tensors: None),
        # which every launch of its plan repeats: `tensors_only` bakes them in.
        self.grid: tuple = ()
        self.scalars: tuple = ()

    @classmethod
    def bind(cls, kernel, compiled, n_args: int, constexprs: dict):
        """The BoundKernel for `compiled` (what `kernel[grid](*args, **constexprs)` returned)
        launched with `n_args` positional arguments, or None where this Triton's objects
        are not the ones this relies on (the JIT then launches every time)."""
        try:
            from triton import knobs

            hooks = knobs.runtime
            hooks.launch_enter_hook, hooks.launch_exit_hook  # noqa: B018  (both must exist)
        except (ImportError, AttributeError):
            return None
        params = getattr(kernel, "params", None)
        if params is None or not all(hasattr(compiled, a) for a in ("run", "function", "packed_metadata")):
            return None
        if any(prm.is_constexpr for prm in params[:n_args]):
            return None
        tail = []
        for prm in params[n_args:]:
            if prm.name in constexprs:
                tail.append(constexprs[prm.name])
            elif prm.default is not inspect.Parameter.empty:
                tail.append(prm.default)
            else:
                return None
        return cls(compiled, tuple(tail), hooks)

    def __call__(self, grid: tuple, args: tuple, device: int) -> None:
        stream = _raw_stream(device)
        enter, leave = _live(self.hooks.launch_enter_hook), _live(self.hooks.launch_exit_hook)
        full = args + self.tail
        metadata = None if enter is None and leave is None else self.compiled.launch_metadata(grid, stream, *full)
        g = grid + (1, 1)
        self.launcher(g[0], g[1], g[2], stream, self.function, self.metadata, metadata, enter, leave, *full)

    def tensors_only(self, n_tensors: int, device: int):
        """``launch(*tensors)``: this kernel on its plan's grid and scalars, taking only the
        `n_tensors` leading tensor arguments (None where the bound launch's arguments are
        not laid out that way). The shortest way from Python to the launcher: a small
        call's host time is the launcher's own and the output's allocation."""
        if len(self.scalars) < n_tensors or any(a is not None for a in self.scalars[:n_tensors]) or any(
                a is None for a in self.scalars[n_tensors:]):
            return None
        tail = self.scalars[n_tensors:] + self.tail
        grid, (g0, g1, g2) = self.grid, (self.grid + (1, 1))[:3]
        launcher, function, packed, hooks, compiled = (self.launcher, self.function, self.metadata, self.hooks,
                                                       self.compiled)

        def launch_tensors(*tensors: torch.Tensor) -> None:
            stream = _raw_stream(device)
            enter, leave = _live(hooks.launch_enter_hook), _live(hooks.launch_exit_hook)
            full = tensors + tail
            metadata = None if enter is None and leave is None else compiled.launch_metadata(grid, stream, *full)
            launcher(g0, g1, g2, stream, function, packed, metadata, enter, leave, *full)
        return launch_tensors


def plan_options(p: dict) -> dict:
    """The launch options of plan `p`: its register cap, where it keeps one."""
    return {"maxnreg": p["maxnreg"]} if p.get("maxnreg") else {}


def launch(kernel, grid: tuple, args: tuple, p: dict, num_warps: int, options: dict, constexprs: dict) -> None:
    """``kernel[grid](*args, num_warps=num_warps, **COMPILE_OPTIONS, **options, **constexprs)`` for plan `p`:
    through Triton's JIT the first time `p` launches tensors of a given 16-byte alignment
    (what Triton specialises on beyond the plan's shapes, strides and dtypes), through the
    `BoundKernel` it returned after that. Call on the arguments' device (`on_device`)."""
    bound_launch = p.get("bound_launch")
    if bound_launch is None:  # the interpreter, or a Triton the binding does not fit
        kernel[grid](*args, num_warps=num_warps, **COMPILE_OPTIONS, **options, **constexprs)
        return
    key = (kernel, *[a.data_ptr() % 16 == 0 for a in args if isinstance(a, torch.Tensor)])
    bound = bound_launch.get(key)
    if bound is not None:
        bound(grid, args, p["device"])
        return
    compiled = kernel[grid](*args, num_warps=num_warps, **COMPILE_OPTIONS, **options, **constexprs)
    bound = BoundKernel.bind(kernel, compiled, len(args), constexprs)
    if bound is None:
        p["bound_launch"] = None
    else:
        bound.grid, bound.scalars = grid, tuple(None if isinstance(a, torch.Tensor) else a for a in args)
        bound_launch[key] = bound


def tensors_only_launcher(p: dict, n_tensors: int):
    """`BoundKernel.tensors_only` for plan `p`'s one kernel bound with every tensor
    argument 16-byte aligned (fresh outputs are), or None: none bound yet, or more than
    one kernel in the plan."""
    bound_launch = p.get("bound_launch")
    if not bound_launch or len(bound_launch) != 1:
        return None
    (key, bound), = bound_launch.items()
    return bound.tensors_only(n_tensors, p["device"]) if all(key[1:]) else None


# -- families ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Family:
    """A kernel family's launch interface, under the names each forward family module
    (softmax_fused, softmax_online, softmax_split) has at its top level, so that
    `softmax.plan` treats a module and a `Family` alike. The backward families take the
    forward output y and its gradient dy where a forward takes x: why_unsupported(y, dy),
    launch_params(y, dy, limits, op), compile_args(y, dy), launch_plan(y, dy, dx, p); grid
    is the forward's signature. launch_params' `limits` are the GPU's (None: the
    interpreter) and `op` the forward op ("softmax" or "log_softmax"), on which some
    geometries depend (softmax_oneshot.chunk_units)."""

    KERNEL: object
    why_unsupported: Callable
    launch_params: Callable
    grid: Callable
    compile_args: Callable
    launch_plan: Callable
    # respread(warps, spills, constexprs): the warps to compile again with where the
    # kernel spilled, or None (softmax_split.respread); None: keep the first compile.
    respread: Callable | None = None
    # forms(constexprs, elem, limits): the kernel's forms for `elem`-byte values on the
    # GPU of `limits` (None: the interpreter), constexprs each (a form may add its own
    # num_warps), all compiled and the one that holds the most programs per SM (or as
    # many, spills least) kept, the first at a tie (softmax_split.backward_forms); None:
    # one form.
    forms: Callable | None = None
    # regroup(constexprs, warps, resident): the next geometry where a group of programs
    # that wait for each other cannot all be resident (softmax_split.regroup); None:
    # the family's programs never wait for each other.
    regroup: Callable | None = None
    # held_forms(constexprs, grid, limits, elem): the forms to compile instead where the
    # planned form does not suit this GPU's L2 (softmax_split.held_forms), or None.
    held_forms: Callable | None = None


# -- plans -------------------------------------------------------------------------------------

def tensor_key(t: torch.Tensor) -> tuple:
    """What a plan reads of a tensor: device, dtype, shape, strides and the start's
    alignment (mod 16 bytes: pack widths, pairs and Triton's own specialisation follow
    it). Never its values or its address beyond that."""
    return (t.device, t.dtype, t.shape, t.stride(), t.data_ptr() % 16)


class PlanCache:
    """Plans by (op, variant, interpreter on, tensor_key of each tensor): a plan walks the
    policy, the family's launch parameters and, on a GPU, the occupancy of the compiled
    kernel, tens of microseconds of Python that every call of a loop would repeat (an
    H100 host profile: `plan` was 40% of a 100 us call, benchmarks/h100_2026-11-23/
    host_profile_after.txt). Bounded: past `size` plans it starts again, as a model's
    shapes are few and a sweep's are many."""

    def __init__(self, size: int = 4096):
        self.size = size
        self._plans: dict[tuple, dict] = {}
        _PLAN_CACHES.append(self)

    def get(self, make: Callable[[], dict], op: str, variant: str, *tensors) -> dict:
        """The plan for these arguments, made by `make()` the first time. The caller
        must not modify it (`copy_plan` gives a copy to hand out)."""
        try:
            key = (op, variant, interpreting(), *(tensor_key(t) for t in tensors))
        except RuntimeError:  # a tensor without storage (e.g. a fake one while tracing)
            return make()
        p = self._plans.get(key)
        if p is None:
            p = make()
            if len(self._plans) >= self.size:
                self._plans.clear()
            self._plans[key] = p
        return p

    def clear(self) -> None:
        self._plans.clear()


_PLAN_CACHES: list[PlanCache] = []


def clear_plans() -> None:
    """Forget every cached plan: for a change to a module constant that plans read (a
    tuning experiment's override, a test's monkeypatch) to take effect."""
    for cache in _PLAN_CACHES:
        cache.clear()


def copy_plan(p: dict) -> dict:
    """A plan a caller may modify (its dict-valued fields copied too), without the
    launchers bound to the cached one (`launch`'s bound kernels, softmax's direct one)."""
    return {k: dict(v) if isinstance(v, dict) else v for k, v in p.items() if k not in ("bound_launch", "direct")}


# -- grids -------------------------------------------------------------------------------------

def persistent_grid(units: int, programs_per_sm: int, sm_count: int, group: int = 1) -> int:
    """Programs of a persistent grid over `units` of work: as many as stay resident
    (`sm_count` x `programs_per_sm`), in whole groups of `group` programs (a group's
    programs wait for each other, so every one must be resident), at most one group per
    unit and at least one group."""
    groups = max(1, min(units, sm_count * programs_per_sm // group))
    return groups * group


def grid_2d(programs: int) -> tuple[int, ...]:
    """A one-shot grid of `programs`: (programs,), or (MAX_GRID, n) past CUDA's grid.x
    limit, with program y * MAX_GRID + x past the last one doing nothing."""
    if programs > MAX_GRID:
        return (MAX_GRID, -(-programs // MAX_GRID))
    return (programs,)
