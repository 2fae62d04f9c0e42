"""The `triton` backend: Triton kernels on CUDA GPUs, or on CPU tensors under TRITON_INTERPRET=1."""
from __future__ import annotations

import importlib.util
import os

import torch

from comparison.kernel_backend import ModuleBackend


def interpreting() -> bool:
    """Triton's CPU interpreter is on (it must be set before Triton is imported)."""
    return os.environ.get("TRITON_INTERPRET", "0") not in ("", "0")


class TritonBackend(ModuleBackend):
    name = "triton"
    package = "kernels_triton"
    modules = ("softmax", "reduce")

    def unavailable_reason(self) -> str | None:
        if importlib.util.find_spec("triton") is None:
            return "the triton package is not installed"
        if interpreting() or torch.cuda.is_available():
            return None
        return "no CUDA GPU is visible and TRITON_INTERPRET=1 is not set (Triton's CPU interpreter)"

    def device_reason(self, x: torch.Tensor) -> str | None:
        if x.device.type == "cuda":
            return None
        if x.device.type == "cpu" and interpreting():
            return None
        if x.device.type == "cpu":
            return ("backend 'triton' needs a CUDA tensor; CPU tensors run only under Triton's "
                    "interpreter (set TRITON_INTERPRET=1 before importing Triton)")
        return f"backend 'triton' cannot run on {x.device}"
