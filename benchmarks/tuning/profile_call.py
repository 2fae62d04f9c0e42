"""Where the host time of one public call goes: `comparison.softmax(x, backend=B)` in a
loop on a small CUDA input, timed (µs per call, one synchronize at the end) and profiled
with cProfile (the functions with the most own time). Runs with whatever `comparison` is
on PYTHONPATH, so a checkout of an older commit can be measured the same way:

    PYTHONPATH=. python benchmarks/tuning/profile_call.py --backends torch,cuda,triton

`--device cpu` times the same path on CPU tensors (backends that run there: torch, and
triton under TRITON_INTERPRET=1): the host side alone, for the parts of a call that do
not depend on the GPU (dispatch, checks, the autograd node).
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time

import torch


def synchronize() -> None:
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def loop_us(fn, calls: int) -> float:
    for _ in range(20):
        fn()
    synchronize()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    synchronize()
    return (time.perf_counter() - start) / calls * 1e6


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--backends", default="torch,cuda,triton")
    p.add_argument("--shape", default="1,1024", help="rows,cols (default 1,1024)")
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--top", type=int, default=12)
    p.add_argument("--dtype", default="fp32", choices=("fp32", "bf16", "fp16"))
    p.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    p.add_argument("--kernels", action="store_true",
                   help="also list the GPU work of each backend's call (torch.profiler over 50 calls: "
                        "kernels, memsets and copies with their device time), to tell host time from GPU time")
    p.add_argument("--grad", action="store_true",
                   help="x requires grad: time the forward that records its gradient, and a forward+backward "
                        "(torch.autograd.grad), each beside plain torch's")
    p.add_argument("--profile-grad", action="store_true",
                   help="with --grad: also a cProfile of each backend's forward that records its gradient")
    args = p.parse_args()
    import comparison

    rows, cols = (int(v) for v in args.shape.split(","))
    dtype = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}[args.dtype]
    x = torch.randn(rows, cols, device=args.device, dtype=dtype)
    import platform
    where = torch.cuda.get_device_name() if args.device == "cuda" else f"cpu ({platform.processor() or platform.machine()})"
    print(f"device {where}, torch {torch.__version__}, comparison from {comparison.__file__}")
    if args.grad:
        grad_loops(comparison, x.requires_grad_(True), args)
        return
    print(f"plain torch.softmax loop: {loop_us(lambda: torch.softmax(x, -1), args.calls):.1f} us/call")
    for name in args.backends.split(","):
        fn = lambda: comparison.softmax(x, backend=name)  # noqa: E731
        grad_off = loop_us(fn, args.calls)
        with torch.no_grad():
            no_grad = loop_us(fn, args.calls)
        print(f"\n{name}: {grad_off:.1f} us/call (grad mode on), {no_grad:.1f} us/call (no_grad)")
        print(own_time_profile(fn, args.calls, args.top))
        if args.kernels:
            print(gpu_work(fn, 50))


def gpu_work(fn, calls: int) -> str:
    """torch.profiler's table of what `calls` calls of `fn` ran on the GPU (per-op device
    time and count), after a warm-up."""
    from torch.profiler import ProfilerActivity, profile
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    return prof.key_averages().table(sort_by="device_time_total", row_limit=10, max_name_column_width=60)


def grad_steps(comparison, x: torch.Tensor, backends: str) -> dict:
    """The forwards to time with x requiring grad: plain torch's, then each backend's."""
    steps = {"plain torch.softmax": lambda: torch.softmax(x, -1)}
    return steps | {name: (lambda name=name: comparison.softmax(x, backend=name)) for name in backends.split(",")}


def grad_loops(comparison, x: torch.Tensor, args) -> None:
    """µs per call of a forward that records its gradient, and of forward + backward
    (torch.autograd.grad); the backward's share is their difference."""
    dy = torch.randn_like(x)
    for name, fn in grad_steps(comparison, x, args.backends).items():
        forward = loop_us(fn, args.calls)
        step = loop_us(lambda: torch.autograd.grad(fn(), x, dy), args.calls)
        node = type(fn().grad_fn).__name__
        print(f"{name}: forward with grad {forward:.1f} us/call, forward+backward {step:.1f} us/call "
              f"(backward about {step - forward:.1f}; node {node})")
        if args.profile_grad and name != "plain torch.softmax":
            print(own_time_profile(fn, args.calls, args.top))


def own_time_profile(fn, calls: int, top: int) -> str:
    """cProfile of `calls` calls of `fn`: the functions with the most own time."""
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(calls):
        fn()
    profile.disable()
    synchronize()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(top)
    return "\n".join(line for line in out.getvalue().splitlines() if line.strip())[:4000]


if __name__ == "__main__":
    main()
