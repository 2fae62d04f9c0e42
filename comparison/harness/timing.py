"""Timing on the GPU: CUDA events around each call, median after warm-up.

The closure under test is built by the caller outside the timed region; here we only
call it. Inputs are sized several times larger than L2 by the caller, so repeated calls
stream from DRAM instead of measuring the cache.
"""
from __future__ import annotations

import statistics
from typing import Callable

import torch

WARMUP_CALLS = 3
MIN_CALLS = 10
MAX_CALLS = 200
TARGET_SECONDS = 0.25  # per measurement, after warm-up


def time_ms(fn: Callable[[], object], device: torch.device) -> float:
    """Median milliseconds of `fn()` on `device`'s current stream."""
    with torch.cuda.device(device):
        for _ in range(WARMUP_CALLS):
            fn()
        torch.cuda.synchronize(device)
        # Estimate one call to choose the repeat count that fills TARGET_SECONDS.
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        estimate = max(start.elapsed_time(end), 1e-3)
        calls = int(min(MAX_CALLS, max(MIN_CALLS, TARGET_SECONDS * 1e3 / estimate)))
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(calls)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(calls)]
        for s, e in zip(starts, ends):
            s.record()
            fn()
            e.record()
        torch.cuda.synchronize(device)
        return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends))


def copy_bandwidth_gbps(nbytes: int, device: torch.device) -> float:
    """Device-to-device copy of `nbytes`: (bytes read + bytes written) / median time, GB/s."""
    elements = max(1, nbytes // 4)
    src = torch.empty(elements, dtype=torch.float32, device=device).uniform_()
    dst = torch.empty_like(src)
    ms = time_ms(lambda: dst.copy_(src), device)
    return 2 * src.numel() * 4 / (ms * 1e-3) / 1e9


def gbps(bytes_moved: int, ms: float) -> float:
    return bytes_moved / (ms * 1e-3) / 1e9
