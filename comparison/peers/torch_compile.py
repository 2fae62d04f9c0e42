"""PyTorch's own ops compiled by `torch.compile`: what a user gets without this package.

What runs: ``torch.softmax`` / ``torch.log_softmax``, their backward ops
``torch._softmax_backward_data`` / ``torch._log_softmax_backward_data``, and
``torch.sum`` / ``torch.amax``, each through ``torch.compile(fullgraph=True,
dynamic=False)``: inductor generates a kernel specialised to one shape and dtype, as a
model compiled with static shapes gets it (Triton on the GPU, C++ built with the system
compiler on the CPU).

Compiling happens on the first call for each (op, shape, strides, dtype, device) and the
compiled callable is kept here, so the sweep's first call (its agreement check) pays
the compile and the timed calls never do.
"""
from __future__ import annotations

import platform
import types
from typing import Callable

import torch

from ..backend import BACKWARD_OPS, REDUCE_OPS, SOFTMAX_OPS
from .base import PeerBackend


def _softmax(x):
    return torch.softmax(x, -1)


def _log_softmax(x):
    return torch.log_softmax(x, -1)


def _softmax_backward(y, dy):
    return torch._softmax_backward_data(dy, y, -1, y.dtype)


def _log_softmax_backward(y, dy):
    return torch._log_softmax_backward_data(dy, y, -1, y.dtype)


def _reduce_sum(x):
    return torch.sum(x, dim=-1) if x.dim() == 2 else torch.sum(x)   # rows, or the whole tensor


def _reduce_max(x):
    return torch.amax(x, dim=-1) if x.dim() == 2 else torch.amax(x)


EAGER: dict[str, Callable] = {
    "softmax": _softmax, "log_softmax": _log_softmax,
    "softmax_backward": _softmax_backward, "log_softmax_backward": _log_softmax_backward,
    "reduce_sum": _reduce_sum, "reduce_max": _reduce_max,
}


def _own_code_copy(fn: Callable, tag: str) -> Callable:
    """`fn` with a code object of its own.

    Dynamo keeps compiled graphs, and counts recompilations, per code object; once a code
    object has been compiled for `torch._dynamo.config.recompile_limit` shapes (8), later
    shapes silently run eagerly. A sweep goes through dozens of shapes per op, so each
    (op, shape, dtype, device) compiles its own copy and is compiled exactly once.
    """
    code = fn.__code__.replace(co_name=f"{fn.__name__}_{tag}")
    return types.FunctionType(code, fn.__globals__, code.co_name, fn.__defaults__, fn.__closure__)


class TorchCompileBackend(PeerBackend):
    name = "torch_compile"

    def __init__(self) -> None:
        super().__init__()
        self._compiled: dict[tuple, Callable] = {}
        self._cpu_reason: str | None | bool = False

    def _load(self) -> str | None:
        try:
            import torch._dynamo

            supported = torch._dynamo.is_dynamo_supported()
        except Exception as exc:  # an install whose compiler stack does not import
            return f"torch.compile cannot be imported: {type(exc).__name__}: {exc}"
        return None if supported else (f"torch.compile does not support Python {platform.python_version()} "
                                       f"in torch {torch.__version__}")

    def _variant_table(self) -> dict[str, tuple[str, ...]]:
        return {op: () for op in (*SOFTMAX_OPS, *BACKWARD_OPS, *REDUCE_OPS)}

    def device_reason(self, x: torch.Tensor) -> str | None:
        if x.device.type == "cuda":
            from torch.utils._triton import has_triton

            return None if has_triton() else "torch.compile on the GPU needs Triton, which cannot run here"
        if x.device.type == "cpu":
            return self._cpu_compiler_reason()
        return f"backend {self.name!r} runs on CPU and CUDA tensors, got a tensor on {x.device}"

    def _cpu_compiler_reason(self) -> str | None:
        if self._cpu_reason is False:
            try:
                from torch._inductor.cpp_builder import get_cpp_compiler

                get_cpp_compiler()
                self._cpu_reason = None
            except Exception as exc:
                self._cpu_reason = (f"torch.compile on the CPU needs a C++ compiler (inductor's CPU "
                                    f"backend), none was found: {type(exc).__name__}: {exc}")
        return self._cpu_reason

    def compiled(self, op: str, x: torch.Tensor, dy: torch.Tensor | None = None) -> Callable:
        """The compiled callable for `op` on tensors like `x` (and `dy`), made on first use."""
        key = (op, tuple(x.shape), x.stride(), None if dy is None else dy.stride(), x.dtype, x.device)
        fn = self._compiled.get(key)
        if fn is None:
            fresh = _own_code_copy(EAGER[op], str(len(self._compiled)))
            fn = torch.compile(fresh, fullgraph=True, dynamic=False)
            self._compiled[key] = fn
        return fn

    def run(self, x: torch.Tensor, op: str, variant: str = "auto", *, dy: torch.Tensor | None = None
            ) -> torch.Tensor:
        fn = self.compiled(op, x, dy)
        return fn(x) if dy is None else fn(x, dy)
