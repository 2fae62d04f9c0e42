"""The `triton` backend: Triton kernels on CUDA GPUs, or on CPU tensors under TRITON_INTERPRET=1."""
from __future__ import annotations

import importlib.util
import os
import sys

import torch

from comparison.backend import KERNEL_DTYPES
from comparison.kernel_backend import ModuleBackend


_INTERPRETING: bool | None = None


def interpreting() -> bool:
    """Triton's CPU interpreter is on (it must be set before Triton is imported). Read
    from the environment until Triton is imported, fixed from then on, as Triton's own
    choice is (every call asks, and os.environ lookups were a tenth of a call's host
    time)."""
    global _INTERPRETING
    if _INTERPRETING is not None:
        return _INTERPRETING
    on = os.environ.get("TRITON_INTERPRET", "0") not in ("", "0")
    if "triton" in sys.modules:
        _INTERPRETING = on
    return on


def unsupported_device(x: torch.Tensor) -> str | None:
    """None when Triton kernels can run on x's device; else why not."""
    if x.device.type == "cuda":
        return None
    if x.device.type == "cpu" and interpreting():
        return None
    if x.device.type == "cpu":
        return ("backend 'triton' needs a CUDA tensor; CPU tensors run only under Triton's "
                "interpreter (set TRITON_INTERPRET=1 before importing Triton)")
    return f"backend 'triton' cannot run on {x.device}"


def unsupported_dtype(x: torch.Tensor) -> str | None:
    """None when the kernels load and store x's dtype (fp32, fp16, bf16; fp32 arithmetic)."""
    if x.dtype in KERNEL_DTYPES:
        return None
    valid = ", ".join(str(d).replace("torch.", "") for d in KERNEL_DTYPES)
    return f"backend 'triton' does not support dtype {x.dtype} (supported: {valid})"


class TritonBackend(ModuleBackend):
    name = "triton"
    package = "kernels_triton"
    modules = ("softmax", "reduce")
    dtypes = KERNEL_DTYPES

    def unavailable_reason(self) -> str | None:
        if importlib.util.find_spec("triton") is None:
            return "the triton package is not installed"
        if interpreting() or torch.cuda.is_available():
            return None
        return "no CUDA GPU is visible and TRITON_INTERPRET=1 is not set (Triton's CPU interpreter)"

    def device_reason(self, x: torch.Tensor) -> str | None:
        return unsupported_device(x)


def refuse(x: torch.Tensor, reason: str):
    """Raise `reason` as the backend's `supports` answer would: TypeError when x's dtype is
    the problem, ValueError otherwise (device, shape, variant)."""
    raise (TypeError if unsupported_dtype(x) else ValueError)(reason)
