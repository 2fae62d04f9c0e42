"""Test set-up: Triton's CPU interpreter when there is no GPU, GPU-only markers, and the
Hypothesis settings profiles.

TRITON_INTERPRET must be set before anything imports Triton, so it is set here, at
collection time, only when no CUDA GPU is visible (on a GPU the tests run compiled).
"""
import os
import sys
import tempfile
from pathlib import Path

import pytest
import torch

HAS_GPU = torch.cuda.is_available()
if not HAS_GPU:
    os.environ.setdefault("TRITON_INTERPRET", "1")

requires_gpu = pytest.mark.skipif(not HAS_GPU, reason="needs a CUDA GPU (none is visible to PyTorch)")

try:
    from hypothesis import HealthCheck, settings
except ImportError:  # the test extra brings Hypothesis; without it tests/test_properties.py skips
    pass
else:
    # Property tests (tests/test_properties.py). "ci" and "gpu" are bounded and
    # reproducible: derandomized, no example database, no deadline (the first call of a
    # Triton kernel compiles it, and the CPU interpreter is slow). "ci" keeps the CPU run to
    # about a minute; "gpu" searches longer where the kernels run compiled; "dev"
    # (HYPOTHESIS_PROFILE=dev) is a longer random search that remembers its failures.
    _common = {"deadline": None, "print_blob": True,
               "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large,
                                         HealthCheck.filter_too_much]}
    settings.register_profile("ci", max_examples=50, derandomize=True, database=None, **_common)
    settings.register_profile("gpu", max_examples=200, derandomize=True, database=None, **_common)
    settings.register_profile("dev", max_examples=1000, **_common)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "gpu" if HAS_GPU else "ci"))


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "gpu" in item.keywords and not HAS_GPU:
            item.add_marker(pytest.mark.skip(reason="needs a CUDA GPU (none is visible to PyTorch)"))


@pytest.fixture(autouse=True)
def _fresh_triton_plans(request):
    """Triton plans are cached by layout (kernels_triton.launch.PlanCache): a test that
    monkeypatches a module constant a plan reads gets plans made under its values, and
    the next test plans afresh once the constant is restored."""
    if "monkeypatch" not in request.fixturenames or "kernels_triton.launch" not in sys.modules:
        yield
        return
    launch = sys.modules["kernels_triton.launch"]
    launch.clear_plans()
    yield
    launch.clear_plans()


@pytest.fixture
def gpu_memory_in_turn():
    """For tests whose tensors take most of a GPU's memory (past 2^31 elements): the
    pytest-xdist workers take them one at a time, holding a lock file while each runs
    (eight workers on an H200 ran two of them out of memory beside each other's). Where
    the platform has no fcntl, the tests run as they come."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with open(Path(tempfile.gettempdir()) / "softmax-kernels-gpu-memory.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            torch.cuda.empty_cache()  # what this test held goes back before the next one starts
            fcntl.flock(lock, fcntl.LOCK_UN)
