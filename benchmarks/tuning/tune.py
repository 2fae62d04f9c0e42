"""Quick tuning sweeps on the GPU: % of copy bandwidth for chosen backend/variants.

Not the benchmark of record (that is `python -m comparison`, which also checks every
element): this times many configurations fast, to choose thresholds. Module constants
can be overridden for an experiment, e.g.

    python benchmarks/tuning/tune.py --cols 128,4096 --impl cuda/auto,triton/fused \
        --set kernels_triton.softmax_fused.FUSED_TILE_BYTES=32768

The backward ops (`--op softmax_backward`) time dx from y = softmax(x) and a random dy,
counting 2 reads and 1 write.
"""
from __future__ import annotations

import argparse
import importlib

import torch

from comparison import get_backend
from comparison.inputs import make_gradient, make_rows
from comparison.harness.timing import copy_bandwidth_gbps, gbps, time_ms

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
EXPECTED = {"softmax": lambda x: torch.softmax(x, -1), "log_softmax": lambda x: torch.log_softmax(x, -1),
            "reduce_sum": lambda x: x.sum(-1), "reduce_max": lambda x: x.amax(-1),
            "softmax_backward": lambda y, dy: torch._softmax_backward_data(dy, y, -1, y.dtype),
            "log_softmax_backward": lambda y, dy: torch._log_softmax_backward_data(dy, y, -1, y.dtype)}
BACKWARD_OPS = ("softmax_backward", "log_softmax_backward")


def case(op: str, dtype: torch.dtype, cols: int, nbytes: float, device: torch.device) -> tuple:
    """(x, dy, expected, moved bytes, copy GB/s) of `op` on about `nbytes` of rows of
    `cols` values: x random (the backward ops: y = softmax(x) and dy random, dy None
    for the others), expected from torch in fp32 rounded to `dtype`, the copy
    bandwidth of x's bytes measured now."""
    rows = max(1, int(nbytes) // (cols * torch.tensor([], dtype=dtype).element_size()))
    x = make_rows(rows, cols, dtype, device, seed=1)
    copy = copy_bandwidth_gbps(x.numel() * x.element_size(), device)
    dy = None
    if op in BACKWARD_OPS:
        forward = torch.log_softmax if op == "log_softmax_backward" else torch.softmax
        x = forward(x.float(), -1).to(dtype)  # x is the forward output y from here on
        dy = make_gradient(rows, cols, dtype, device, seed=2)
        expected = EXPECTED[op](x.float(), dy.float()).to(dtype).float()
        moved = 3 * x.numel() * x.element_size()
    else:
        expected = EXPECTED[op](x.float()).to(x.dtype).float()
        moved = (2 * x.numel() if op in ("softmax", "log_softmax") else x.numel() + rows) * x.element_size()
    return x, dy, expected, moved, copy


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--cols", required=True)
    p.add_argument("--dtype", default="fp32,bf16")
    p.add_argument("--op", default="softmax")
    p.add_argument("--impl", required=True, help="backend/variant,...")
    p.add_argument("--bytes", type=float, default=2 ** 30)
    p.add_argument("--set", action="append", default=[], help="module.NAME=python-expression")
    p.add_argument("--label", default="")
    args = p.parse_args()
    for assignment in args.set:
        target, expr = assignment.split("=", 1)
        module, name = target.rsplit(".", 1)
        setattr(importlib.import_module(module), name, eval(expr))
    device = torch.device("cuda", 0)
    impls = [i.split("/") for i in args.impl.split(",")]
    for dname in args.dtype.split(","):
        dtype = DTYPES[dname]
        for cols in map(int, args.cols.split(",")):
            x, dy, expected, moved, copy = case(args.op, dtype, cols, args.bytes, device)
            cells = []
            for backend, variant in impls:
                b = get_backend(backend)
                if not b.supports(x, args.op, variant):
                    cells.append(f"{backend}/{variant}=  -  ")
                    continue
                y = b.run(x, args.op, variant, dy=dy)
                sane = torch.allclose(y.float(), expected, rtol=1e-2, atol=1e-2, equal_nan=True)
                ms = time_ms(lambda b=b, x=x, variant=variant: b.run(x, args.op, variant, dy=dy), device)
                pct = 100 * gbps(moved, ms) / copy
                cells.append(f"{backend}/{variant}={pct:5.1f}%{'' if sane else '!WRONG'}")
            print(f"{args.label:10s} {args.op} {dname} {cols:6d}  " + "  ".join(cells), flush=True)
            del x, dy, expected


if __name__ == "__main__":
    main()
