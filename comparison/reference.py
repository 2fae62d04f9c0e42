"""Float64 references, written out step by step so they read as the definition.

Each works on a canonical tensor (see `comparison.backend`): rows along the last
dimension, or a 1-D tensor for a whole-tensor reduction. The backward references take
the forward output y and the incoming gradient dy as given (already rounded to their
dtype), so they judge the backward kernel alone.
"""
from __future__ import annotations

import torch


def softmax64(x: torch.Tensor) -> torch.Tensor:
    x = x.to(torch.float64)
    m = x.amax(-1, keepdim=True)            # read N, write rows
    e = torch.exp(x - m)                    # read N, write N
    return e / e.sum(-1, keepdim=True)      # read N (twice), write N


def log_softmax64(x: torch.Tensor) -> torch.Tensor:
    x = x.to(torch.float64)
    m = x.amax(-1, keepdim=True)
    shifted = x - m
    return shifted - torch.log(torch.exp(shifted).sum(-1, keepdim=True))


def softmax_backward64(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    y, dy = y.to(torch.float64), dy.to(torch.float64)
    s = (dy * y).sum(-1, keepdim=True)      # read 2N, write rows
    return y * (dy - s)                     # read 2N, write N


def log_softmax_backward64(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    y, dy = y.to(torch.float64), dy.to(torch.float64)
    return dy - torch.exp(y) * dy.sum(-1, keepdim=True)


def reduce_sum64(x: torch.Tensor) -> torch.Tensor:
    x = x.to(torch.float64)
    return x.sum(-1) if x.dim() == 2 else x.sum()


def reduce_max64(x: torch.Tensor) -> torch.Tensor:
    x = x.to(torch.float64)
    return x.amax(-1) if x.dim() == 2 else x.amax()


REFERENCES = {
    "softmax": softmax64,
    "log_softmax": log_softmax64,
    "softmax_backward": softmax_backward64,
    "log_softmax_backward": log_softmax_backward64,
    "reduce_sum": reduce_sum64,
    "reduce_max": reduce_max64,
}


def reference(op: str, x: torch.Tensor, dy: torch.Tensor | None = None) -> torch.Tensor:
    """The float64 result of `op` on a canonical tensor (backward ops: x is the forward
    output y, and dy the incoming gradient)."""
    return REFERENCES[op](x) if dy is None else REFERENCES[op](x, dy)
