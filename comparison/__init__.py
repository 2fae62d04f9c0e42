"""Compare hand-written CUDA and Triton softmax-family kernels with PyTorch.

Importing this package touches no GPU, imports no Triton and builds nothing.
"""
from .api import log_softmax, log_softmax_backward, reduce_max, reduce_sum, softmax, softmax_backward
from .backend import OPS, Backend, BackendUnavailableError, Support
from .registry import get_backend, list_backends

__all__ = [
    "softmax", "log_softmax", "softmax_backward", "log_softmax_backward", "reduce_sum", "reduce_max",
    "Backend", "Support", "BackendUnavailableError", "OPS",
    "get_backend", "list_backends",
]
