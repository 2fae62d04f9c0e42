"""Timing on the GPU: CUDA events around each call, median after warm-up.

The closure under test is built by the caller outside the timed region; here we only
call it. Inputs are sized several times larger than L2 by the caller, so repeated calls
stream from DRAM instead of measuring the cache.

Each timed call gets a head start: a GPU-side wait (`torch.cuda._sleep`) of
HEAD_START_US is queued before its start event, so that the host has queued the call
(and its end event) before the GPU reaches them. Without it an idle GPU records the
start event at once and then waits for the host to finish the call's Python and
launch: the host time of a call (tens of microseconds for a Triton launch) would be
counted as kernel time, and on 0.15 ms kernels it moved results by up to 40 points
between runs (H100, 2026-11-23). The host cost of a call is what `--latency` measures.
"""
from __future__ import annotations

import statistics
from typing import Callable

import torch

WARMUP_CALLS = 3
MIN_CALLS = 10
MAX_CALLS = 200
TARGET_SECONDS = 0.25  # per measurement, after warm-up
HEAD_START_US = 500.0  # GPU-side wait queued before each timed call (see the module docstring)

_CYCLES_PER_US: dict[int, float] = {}


def _cycles_per_us(device: torch.device) -> float:
    """What `torch.cuda._sleep` needs per microsecond on `device`, measured once."""
    index = device.index if device.index is not None else torch.cuda.current_device()
    if index not in _CYCLES_PER_US:
        cycles = 1_000_000
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(cycles)  # warm-up: the first launch of the sleep kernel
        start.record()
        torch.cuda._sleep(cycles)
        end.record()
        end.synchronize()
        _CYCLES_PER_US[index] = cycles / max(start.elapsed_time(end) * 1e3, 1.0)
    return _CYCLES_PER_US[index]


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
        head_start = int(HEAD_START_US * _cycles_per_us(device))
        for s, e in zip(starts, ends):
            torch.cuda._sleep(head_start)
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
