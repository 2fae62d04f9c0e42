"""Compare hand-written CUDA and Triton softmax-family kernels with PyTorch.

Importing this package touches no GPU, imports no Triton and builds nothing.
"""
from .api import log_softmax, reduce_max, reduce_sum, softmax
from .backend import OPS, Backend, BackendUnavailableError, Support
from .registry import get_backend, list_backends

__all__ = [
    "softmax", "log_softmax", "reduce_sum", "reduce_max",
    "Backend", "Support", "BackendUnavailableError", "OPS",
    "get_backend", "list_backends",
]
