"""The C++ autograd node of an eager Triton softmax that records its gradient
(csrc/grad_node.cpp): built on first use with the host compiler (no nvcc, no GPU), then
cached in torch's extension directory (TORCH_EXTENSIONS_DIR when set) under a name that
carries a hash of the source and the torch version.

`backward_attacher(fn, node_name, message)` registers `fn(y, dy) -> dx` and returns
``attach(x, y) -> y``, which gives y a node that saves it and calls `fn` on the
backward; None where the node cannot be built (no host compiler, torch headers
missing): the caller then records the gradient with Python's autograd.Function, and
`unavailable_reason()` says why.
"""
from __future__ import annotations

import hashlib
import sys
import threading
import time
from pathlib import Path

SOURCE = Path(__file__).resolve().parent / "csrc" / "grad_node.cpp"
CXX_FLAGS = ["-O2"]

_lock = threading.Lock()
_module = None
_failure: str | None = None


def extension_name(source: str, torch_version: str) -> str:
    """sk_triton_grad_node_<hash of the source, the flags and the torch version>."""
    digest = hashlib.sha256("\0".join([source, *CXX_FLAGS, torch_version]).encode()).hexdigest()[:12]
    return f"sk_triton_grad_node_{digest}"


def _build():
    import torch
    from torch.utils.cpp_extension import load_inline

    source = SOURCE.read_text()
    name = extension_name(source, torch.__version__)
    cached, start = _is_cached(name), time.monotonic()
    if not cached:
        print(f"building the Triton backend's C++ gradient node {name} (first use, about 30 s) ...",
              file=sys.stderr, flush=True)
    module = load_inline(name=name, cpp_sources=[source], extra_cflags=list(CXX_FLAGS), verbose=False)
    if not cached:
        print(f"built {name} in {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    return module


def _is_cached(name: str) -> bool:
    """Whether torch's extension cache already holds this build (then no message)."""
    try:
        from torch.utils.cpp_extension import _get_build_directory
    except ImportError:
        return False
    return (Path(_get_build_directory(name, verbose=False)) / f"{name}.so").exists()


def extension():
    """The built module, or None where it could not be built (`unavailable_reason`)."""
    global _module, _failure
    if _module is None and _failure is None:
        with _lock:
            if _module is None and _failure is None:
                try:
                    _module = _build()
                except Exception as exc:  # the compiler's output, or a missing toolchain
                    _failure = f"{type(exc).__name__}: {exc}".strip()
                    print(f"the Triton backend's C++ gradient node could not be built; eager gradients go "
                          f"through Python's autograd.Function instead:\n{_failure}", file=sys.stderr, flush=True)
    return _module


def unavailable_reason() -> str | None:
    """Why the node could not be built (after `extension()` tried), or None."""
    return _failure


def backward_attacher(fn, node_name: str, no_double_backward: str):
    """``attach(x, y) -> y``: y (computed from x with no history) gets a node that saves
    it and, on the backward, returns fn(y, dy) (dy made y's dtype and unit column stride
    first); differentiating that gradient again raises `no_double_backward`. None where
    the node cannot be built."""
    module = extension()
    if module is None:
        return None
    index = module.register_backward(fn, node_name, no_double_backward)
    attach = module.attach

    def attach_backward(x, y):
        return attach(x, y, index)
    return attach_backward
