#!/usr/bin/env python3
"""Why fp16 rows run faster than bf16 rows on the same CUDA plans (session 65, H200, 1 GiB,
`auto`: log-softmax 1048576 89.3 against 80.6, 917504 85.4 against 79.2, 524288 93.0
against 89.7; `benchmarks/h200_2026-11-28/thin_compare_h200_9ea4d75.txt`): the kernels'
instruction mix is alike (sm_90 SASS of block_hybrid's 16-byte-pack 512-thread cluster
instance: 2872 against 2824 instructions, the same MUFU and FADD counts; bf16 widens with
IMAD/PRMT, fp16 with HADD2), so this asks whether the values decide it. For each dtype
and each way of filling the input, the median of CUDA-event-timed calls of the `cuda`
backend's softmax and log-softmax and of a device-to-device copy of the same tensor, as
GB/s and % of that copy:

  rows     the comparison tool's inputs (comparison.inputs.make_rows: N(0, 9) plus a
           per-row offset in [-50, 50]); softmax's outputs of such rows are mostly under
           fp16's smallest normal, so fp16 writes many zeros and subnormals
  narrow   N(0, 1) values: softmax outputs near 1/cols in both dtypes
  same     bf16 rows holding the fp16 rows' values (rounded), and fp16 rows holding the
           bf16 rows' values: the dtype changed, the values (nearly) not

    PYTHONPATH=. python3 benchmarks/tuning/dtype_gap_probe.py 1048576,524288
"""
from __future__ import annotations

import statistics
import sys

import torch

from comparison import log_softmax, softmax
from comparison.inputs import make_rows


def median_ms(fn, reps: int = 20) -> float:
    for _ in range(3):
        fn()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main(argv: list[str]) -> int:
    widths = [int(c) for c in (argv[0] if argv else "1048576").split(",")]
    print(torch.cuda.get_device_name(), torch.__version__)
    for cols in widths:
        rows = (1 << 30) // (cols * 2)
        base = {dt: make_rows(rows, cols, dt, "cuda", seed=cols, extremes=False) for dt in (torch.bfloat16, torch.float16)}
        inputs = {
            ("bf16", "rows"): base[torch.bfloat16],
            ("fp16", "rows"): base[torch.float16],
            ("bf16", "narrow"): torch.randn(rows, cols, device="cuda").to(torch.bfloat16),
            ("fp16", "narrow"): torch.randn(rows, cols, device="cuda").to(torch.float16),
            ("bf16", "same"): base[torch.float16].to(torch.bfloat16),
            ("fp16", "same"): base[torch.bfloat16].to(torch.float16),
        }
        for (name, fill), x in inputs.items():
            out = torch.empty_like(x)
            nbytes = 2 * x.numel() * x.element_size()
            copy = median_ms(lambda: out.copy_(x))
            line = [f"{name} {fill:6s} {rows}x{cols}", f"copy {nbytes / copy / 1e6:7.1f} GB/s"]
            for op_name, op in (("softmax", softmax), ("log_softmax", log_softmax)):
                ms = median_ms(lambda: op(x, -1, backend="cuda"))
                y = op(x, -1, backend="cuda")
                zeros = (y == 0).float().mean().item()
                line.append(f"{op_name} {nbytes / ms / 1e6:7.1f} GB/s {100 * copy / ms:5.1f}% zeros {zeros:.2f}")
            print("  ".join(line), flush=True)
        del inputs, base
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
