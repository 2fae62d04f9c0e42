"""The baseline: PyTorch's own kernels, on any device; reductions take any dtype torch's do."""
from __future__ import annotations

import torch

from .backend import BACKWARD_OPS, REDUCE_OPS, SOFTMAX_OPS, Backend

FLOAT_DTYPES = (torch.float32, torch.float16, torch.bfloat16, torch.float64)
# torch.sum / torch.amax take these too (sums of integers and bool come out as int64).
REDUCE_DTYPES = (*FLOAT_DTYPES, torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool)


class TorchBackend(Backend):
    name = "torch"
    dtypes = FLOAT_DTYPES
    auto_serves_every_shape = True

    def unavailable_reason(self) -> str | None:
        return None

    def _variant_table(self) -> dict[str, tuple[str, ...]]:
        return {op: () for op in (*SOFTMAX_OPS, *BACKWARD_OPS, *REDUCE_OPS)}

    def dtypes_for(self, op: str) -> tuple[torch.dtype, ...]:
        return REDUCE_DTYPES if op in REDUCE_OPS else FLOAT_DTYPES

    def device_reason(self, x: torch.Tensor) -> str | None:
        return None

    def grad_runner(self, op: str, variant: str):
        """``runner(x)``: torch.softmax / torch.log_softmax with torch's own autograd node,
        whose backward is the `softmax_backward` op here (torch._softmax_backward_data),
        so a forward recording its gradient never enters Python's autograd.Function."""
        if op == "softmax":
            return lambda x: torch.softmax(x, -1)
        if op == "log_softmax":
            return lambda x: torch.log_softmax(x, -1)
        return None

    def run(self, x: torch.Tensor, op: str, variant: str = "auto", *, dy: torch.Tensor | None = None
            ) -> torch.Tensor:
        if op == "softmax":
            return torch.softmax(x, -1)
        if op == "log_softmax":
            return torch.log_softmax(x, -1)
        if op == "softmax_backward":
            return torch._softmax_backward_data(dy, x, -1, x.dtype)
        if op == "log_softmax_backward":
            return torch._log_softmax_backward_data(dy, x, -1, x.dtype)
        if op == "reduce_sum":
            return torch.sum(x, dim=-1) if x.dim() == 2 else torch.sum(x)
        if op == "reduce_max":
            return torch.amax(x, dim=-1) if x.dim() == 2 else torch.amax(x)
        raise ValueError(f"unknown op {op!r}")
