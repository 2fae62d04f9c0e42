"""The backends by name: which exist, and the one instance of each (created on first use).

Backends are imported lazily, so importing `comparison` never imports Triton, builds
CUDA code or touches a GPU.
"""
from __future__ import annotations

import importlib

from .backend import Backend

# Backend name -> "module:Class", in the order `list_backends` reports them: this
# package's kernels, torch, then the peers it is compared with (`comparison.peers`).
_REGISTRY: dict[str, str] = {
    "cuda": "kernels_cuda.backend:CudaBackend",
    "triton": "kernels_triton.backend:TritonBackend",
    "torch": "comparison.torch_backend:TorchBackend",
    "torch_compile": "comparison.peers.torch_compile:TorchCompileBackend",
    "liger": "comparison.peers.liger:LigerBackend",
    "quack": "comparison.peers.quack:QuackBackend",
}
# The backends `backend="auto"` tries on CUDA tensors, fastest first (benchmarks/);
# torch serves whatever they do not. Peers are never chosen by "auto": they are what
# this package is compared with, reachable only by name.
AUTO_ORDER = ("cuda", "triton", "torch")
_INSTANCES: dict[str, Backend] = {}


def list_backends() -> list[str]:
    """Every registered backend name, available here or not."""
    return list(_REGISTRY)


def get_backend(name: str) -> Backend:
    """The backend called `name` (created on first use); ValueError for unknown names."""
    if name not in _REGISTRY:
        valid = ", ".join(_REGISTRY)
        if name == "auto":
            raise ValueError(f"'auto' is not a backend: it lets the public functions choose one "
                             f"(backend='auto'); valid backends: {valid}")
        raise ValueError(f"unknown backend {name!r}; valid backends: {valid} (or 'auto' in the public functions)")
    backend = _INSTANCES.get(name)
    if backend is None:
        module, cls = _REGISTRY[name].split(":")
        backend = getattr(importlib.import_module(module), cls)()
        _INSTANCES[name] = backend
    return backend
