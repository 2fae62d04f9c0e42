"""Test set-up: Triton's CPU interpreter when there is no GPU, and GPU-only markers.

TRITON_INTERPRET must be set before anything imports Triton, so it is set here, at
collection time, only when no CUDA GPU is visible (on a GPU the tests run compiled).
"""
import os

import pytest
import torch

HAS_GPU = torch.cuda.is_available()
if not HAS_GPU:
    os.environ.setdefault("TRITON_INTERPRET", "1")

requires_gpu = pytest.mark.skipif(not HAS_GPU, reason="needs a CUDA GPU (none is visible to PyTorch)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "gpu" in item.keywords and not HAS_GPU:
            item.add_marker(pytest.mark.skip(reason="needs a CUDA GPU (none is visible to PyTorch)"))
