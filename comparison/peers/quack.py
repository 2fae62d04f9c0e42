"""QuACK's softmax (`quack.softmax`, CuTe DSL kernels by Tri Dao's group), forward and backward.

What runs:
* ``softmax``: ``quack.softmax.softmax_fwd(x)``: one CTA (or a cluster of up to 16
  CTAs on sm_90+, sharing partial results through distributed shared memory) holds a
  block of rows in shared memory, online max/sum, one write.
* ``softmax_backward``: ``quack.softmax.softmax_bwd(dy, y)``: ``dx = y * (dy - sum(dy * y))``
  with y and dy both staged in shared memory.

Each is compiled by the CuTe DSL on the first call for a (dtype, width) and cached by
QuACK (in memory and on disk), so the sweep's agreement check pays the compile and the
timed calls do not. QuACK has no log-softmax and no reductions of this kind.

Limits, from ``quack/softmax.py`` and ``quack/reduction_base.py`` (0.6.5), reported by
`supports` so that such inputs are "not run" rows, not errors:
* 2-D input whose rows are a whole number of 16-byte vectors (``_get_tiled_copy``
  asserts ``N % (128 // dtype bits) == 0``: a multiple of 4 columns in fp32, 8 in 16-bit),
  the data pointer and the row stride 16-byte aligned (the compiled kernel assumes it);
* fp32, fp16, bf16;
* the row's share per CTA must fit in shared memory: ``cols / cluster * itemsize`` bytes
  (twice that in the backward, which stages y and dy), with the cluster size QuACK picks
  from the width (`_cluster_n`, at most 16).

Install: ``pip install -e ".[quack]"`` with a CUDA 13 PyTorch, or, on a machine without
internet, the wheels through ``benchmarks/install_peers.sh`` (pip ``--target``).
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import sys

import torch

from ..backend import YES, Support, no
from .base import PeerBackend

VECTOR_BYTES = 16            # QuACK's copies move 128-bit vectors
SHARED_MEMORY_FALLBACK = 227 * 1024  # opt-in shared memory per block of sm_90 (H100/H200)
RESERVED_SHARED_BYTES = 2048  # reduction buffer and cluster barriers beside the row tile

INSTALL_HINT = ("install it with pip install -e \".[quack]\" (Linux, CUDA 13 PyTorch); without internet, "
                "from wheels: benchmarks/install_peers.sh")


def dsl_packages_dir() -> str | None:
    """``nvidia_cutlass_dsl/dsl_packages`` next to any sys.path entry, or None.

    The CuTe DSL wheel (nvidia-cutlass-dsl) puts its ``cutlass`` package in that folder
    and adds it to sys.path through a .pth file; a ``pip install --target`` folder on
    PYTHONPATH is not a site directory, so its .pth files are never read.
    """
    for entry in sys.path:
        candidate = os.path.join(entry or os.getcwd(), "nvidia_cutlass_dsl", "dsl_packages")
        if os.path.isdir(candidate):
            return candidate
    return None


def _cluster_n(cols: int, itemsize: int, backward: bool, capability: tuple[int, int]) -> int:
    """The CTAs per cluster QuACK's `Softmax._set_cluster_n` / `SoftmaxBackward._set_cluster_n`
    choose for a row of `cols` elements (thresholds in elements, by dtype width)."""
    major = capability[0]
    if major < 9:
        return 1  # no clusters before Hopper
    max_cluster = 8 if major == 12 else 16
    if major == 12 and itemsize >= 4:
        limits = (16, 32, 64, 128) if not backward else (8, 16, 32, 64)
    elif itemsize == 2 or backward:
        limits = (16, 32, 64, 128)
    else:
        limits = (32, 64, 128, 256)
    for limit, cluster in zip(limits, (1, 2, 4, 8)):
        if cols <= limit * 1024:
            return cluster
    return max_cluster


def _threads(cols: int, backward: bool) -> tuple[int, int]:
    """(threads per row, threads per CTA) of QuACK's `_threads_per_row` / `_num_threads`."""
    widest = 8192 if backward else 16384
    for limit, per_row in ((64, 8), (128, 16), (3072, 32), (6144, 64), (widest, 128)):
        if cols <= limit:
            break
    else:
        per_row = 256
    return per_row, (128 if cols <= widest else 256)


def shared_bytes_per_cta(cols: int, itemsize: int, backward: bool, capability: tuple[int, int]) -> int:
    """Shared memory of one CTA's tile (`ReductionBase._get_tiled_copy`): its rows times its
    share of the row, rounded up to whole vectors per thread; y and dy in the backward."""
    vector = VECTOR_BYTES // itemsize
    per_row, threads = _threads(cols, backward)
    cluster = _cluster_n(cols, itemsize, backward, capability)
    share = vector * per_row * -(-(cols // vector) // (per_row * cluster))
    return (threads // per_row) * share * itemsize * (2 if backward else 1)


class QuackBackend(PeerBackend):
    name = "quack"

    def __init__(self) -> None:
        super().__init__()
        self._module = None

    def _load(self) -> str | None:
        if importlib.util.find_spec("quack") is None:
            return f"quack-kernels is not installed: {INSTALL_HINT}"
        dsl = dsl_packages_dir()
        if dsl is None:
            return ("QuACK needs NVIDIA's CuTe DSL (nvidia-cutlass-dsl with its libs-base, libs-core and "
                    "libs-cu13 parts): no folder nvidia_cutlass_dsl/dsl_packages was found under any "
                    f"sys.path entry; {INSTALL_HINT}")
        if dsl not in sys.path:
            sys.path.insert(0, dsl)  # what the DSL's .pth file does in a site directory
        if not torch.cuda.is_available():
            return "QuACK's CuTe DSL kernels need a CUDA GPU; none is visible to PyTorch"
        try:
            self._module = importlib.import_module("quack.softmax")
        except Exception as exc:
            return f"quack.softmax does not import: {type(exc).__name__}: {exc}"
        return None

    def _variant_table(self) -> dict[str, tuple[str, ...]]:
        return {"softmax": (), "softmax_backward": ()}

    def device_reason(self, x: torch.Tensor) -> str | None:
        why = super().device_reason(x)
        if why is None:
            major, minor = torch.cuda.get_device_capability(x.device)
            if major < 8:
                return f"QuACK's kernels need sm_80 or newer; {x.device} is sm_{major}{minor}"
        return why

    def _supports_canonical(self, x: torch.Tensor, op: str, variant: str) -> Support:
        if x.dim() != 2:
            return no(f"quack takes 2-D inputs, got {x.dim()}-D")
        cols, itemsize = x.shape[1], x.element_size()
        vector = VECTOR_BYTES // itemsize
        if cols % vector:
            return no(f"quack: rows must be whole 16-byte vectors ({vector} {x.dtype} elements); "
                      f"{cols} columns are not")
        if x.data_ptr() % VECTOR_BYTES or (x.shape[0] > 1 and x.stride(0) % vector):
            return no("quack: the data pointer and the row stride must be 16-byte aligned")
        backward = op == "softmax_backward"
        props = torch.cuda.get_device_properties(x.device)
        capacity = getattr(props, "shared_memory_per_block_optin", 0) or SHARED_MEMORY_FALLBACK
        need = shared_bytes_per_cta(cols, itemsize, backward, (props.major, props.minor))
        if need + RESERVED_SHARED_BYTES > capacity:
            return no(f"quack: a row of {cols} columns needs {need >> 10} KiB of shared memory per CTA "
                      f"(at most 16 CTAs per cluster{', y and dy both staged' if backward else ''}); "
                      f"{props.name} has {capacity >> 10} KiB")
        return YES

    def run(self, x: torch.Tensor, op: str, variant: str = "auto", *, dy: torch.Tensor | None = None
            ) -> torch.Tensor:
        if op == "softmax":
            return self._module.softmax_fwd(x)
        if op == "softmax_backward":
            return self._module.softmax_bwd(dy, x)
        raise ValueError(f"backend 'quack' does not implement {op!r}")
