"""The `cuda` backend: hand-written CUDA C++ kernels built with load_inline on first use."""
from __future__ import annotations

import shutil

import torch

from comparison.kernel_backend import ModuleBackend


class CudaBackend(ModuleBackend):
    name = "cuda"
    package = "kernels_cuda"
    modules = ("softmax", "reduce")

    def unavailable_reason(self) -> str | None:
        if torch.version.cuda is None:
            return f"this PyTorch build ({torch.__version__}) has no CUDA support"
        if not torch.cuda.is_available():
            return "no CUDA GPU is visible to PyTorch"
        from torch.utils.cpp_extension import CUDA_HOME

        if CUDA_HOME is None and shutil.which("nvcc") is None:
            return "nvcc (the CUDA toolkit) was not found; set CUDA_HOME"
        return None
