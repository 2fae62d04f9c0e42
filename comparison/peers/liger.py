"""Liger-Kernel's Triton softmax (`liger_kernel.ops.softmax`), forward and backward.

What runs:
* ``softmax``: ``LigerSoftmaxFunction.apply(x)``, Liger's public op (one program per
  row, the whole row in one block of ``next_power_of_2(cols)`` elements).
* ``softmax_backward``: ``_softmax_backward(dy, y, BLOCK_SIZE, num_warps, False)`` with
  the launch settings ``calculate_settings(cols)`` gives, exactly what
  ``LigerSoftmaxFunction.backward`` calls (Liger has no public backward-only entry).

Liger has no log-softmax, so only these two ops are offered. Its launch helper refuses
rows wider than its ``MAX_FUSED_SIZE`` (65536 columns), which `supports` reports as the
reason. Non-contiguous inputs are made contiguous by Liger itself (an extra copy it
counts in its own time). CUDA only: install with ``pip install -e ".[liger]"``.
"""
from __future__ import annotations

import importlib
import importlib.util

import torch

from ..backend import YES, Support, no
from .base import PeerBackend


class LigerBackend(PeerBackend):
    name = "liger"

    def __init__(self) -> None:
        super().__init__()
        self._module = None

    def _load(self) -> str | None:
        if importlib.util.find_spec("liger_kernel") is None:
            return "Liger-Kernel is not installed: pip install -e \".[liger]\" (or pip install liger-kernel)"
        if not torch.cuda.is_available():
            return "Liger-Kernel's Triton kernels need a CUDA GPU; none is visible to PyTorch"
        try:
            self._module = importlib.import_module("liger_kernel.ops.softmax")
        except Exception as exc:
            return f"liger_kernel.ops.softmax does not import: {type(exc).__name__}: {exc}"
        return None

    def _variant_table(self) -> dict[str, tuple[str, ...]]:
        return {"softmax": (), "softmax_backward": ()}

    def _supports_canonical(self, x: torch.Tensor, op: str, variant: str) -> Support:
        cols = x.shape[-1]
        try:
            self._module.calculate_settings(cols)
        except RuntimeError as exc:  # wider than Liger's MAX_FUSED_SIZE
            return no(f"liger: rows of {cols} columns: {exc}")
        return YES

    def run(self, x: torch.Tensor, op: str, variant: str = "auto", *, dy: torch.Tensor | None = None
            ) -> torch.Tensor:
        m = self._module
        if op == "softmax":
            return m.LigerSoftmaxFunction.apply(x)
        if op == "softmax_backward":
            block_size, num_warps = m.calculate_settings(x.shape[-1])
            return m._softmax_backward(dy, x, block_size, num_warps, False)
        raise ValueError(f"backend 'liger' does not implement {op!r}")
