"""Where the host time of a small training step goes: forward+backward through autograd
(`torch.autograd.grad`) of `comparison.softmax(x, backend=B)` on a small CUDA input,
beside plain torch, and the backward op alone; then torch.profiler's table of a few
steps (CPU and CUDA time per op). Runs with whatever `comparison` is on PYTHONPATH:

    PYTHONPATH=. python benchmarks/tuning/step_profile.py --backends torch,cuda
"""
from __future__ import annotations

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from profile_call import grad_loops, grad_steps, loop_us  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--backends", default="torch,cuda")
    p.add_argument("--shape", default="1,1024", help="rows,cols (default 1,1024)")
    p.add_argument("--calls", type=int, default=1000)
    args = p.parse_args()
    import comparison

    rows, cols = (int(v) for v in args.shape.split(","))
    x = torch.randn(rows, cols, device="cuda", requires_grad=True)
    dy = torch.randn_like(x)
    y = torch.softmax(x.detach(), -1)
    print(f"device {torch.cuda.get_device_name()}, torch {torch.__version__}, comparison from {comparison.__file__}")
    print(f"backward op alone: torch._softmax_backward_data "
          f"{loop_us(lambda: torch._softmax_backward_data(dy, y, -1, y.dtype), args.calls):.1f} us/call")
    for name in args.backends.split(","):
        us = loop_us(lambda: comparison.softmax_backward(y, dy, backend=name), args.calls)
        print(f"backward op alone: comparison.softmax_backward(backend={name!r}) {us:.1f} us/call")
    grad_loops(comparison, x, args)
    steps = grad_steps(comparison, x, args.backends)
    for name, fn in steps.items():
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU,
                                                torch.profiler.ProfilerActivity.CUDA]) as prof:
            for _ in range(20):
                torch.autograd.grad(fn(), x, dy)
            torch.cuda.synchronize()
        print(f"\n== {name}: 20 steps")
        print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=14, max_name_column_width=60))


if __name__ == "__main__":
    main()
