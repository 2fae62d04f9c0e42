"""The baseline: PyTorch's own kernels, on any device and any floating dtype."""
from __future__ import annotations

import torch

from .backend import REDUCE_OPS, SOFTMAX_OPS, Backend


class TorchBackend(Backend):
    name = "torch"
    dtypes = (torch.float32, torch.float16, torch.bfloat16, torch.float64)

    def unavailable_reason(self) -> str | None:
        return None

    def _variant_table(self) -> dict[str, tuple[str, ...]]:
        return {op: () for op in (*SOFTMAX_OPS, *REDUCE_OPS)}

    def device_reason(self, x: torch.Tensor) -> str | None:
        return None

    def run(self, x: torch.Tensor, op: str, variant: str = "auto") -> torch.Tensor:
        if op == "softmax":
            return torch.softmax(x, -1)
        if op == "log_softmax":
            return torch.log_softmax(x, -1)
        dim = -1 if x.dim() == 2 else None
        if op == "reduce_sum":
            return torch.sum(x, dim=dim)
        if op == "reduce_max":
            return torch.amax(x, dim=-1) if dim is not None else torch.amax(x)
        raise ValueError(f"unknown op {op!r}")
