"""The machine code of the Triton kernels that a set of plans compiles for sm_90 without
a GPU (`kernels_triton.offline`), fingerprinted, and two such records compared: a change
to a kernel's source meant to leave what runs alone (a helper split out, a rename) is
shown here, without a GPU, to leave every plan's SASS, registers and residency as they
were, or the plans where it does not are named.

    rm -rf /tmp/base && mkdir /tmp/base && git archive <base> kernels_triton | tar -x -C /tmp/base
    cp kernels_triton/offline.py /tmp/base/kernels_triton/  # a base older than Target.sass, plan_kernel
    PYTHONPATH=/tmp/base python benchmarks/tuning/triton_machine_code.py --out base.json
    python benchmarks/tuning/triton_machine_code.py --out head.json
    python benchmarks/tuning/triton_machine_code.py --compare base.json head.json

The default widths take every form of `fused`: rows padded to a power of two, in two
parts (`plain_parts`: 136, 264, 520, 4160, 5120), rows off the 16-byte alignment as a
window (197) and as a window in two parts (129, 157, 257, 271), as head, vectors and tail
(577, 1025, 2049), and pairs of 16-bit values; each fresh and one element into a flat
tensor. (PTX alone is not enough: its debug labels mark the inlined helpers' scopes, and
ptxas schedules around them.)
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import itertools
import json
import sys

import torch

from kernels_triton import offline, softmax

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}
GPUS = {"H100": offline.H100, "H200": offline.H200}
COLS = (129, 136, 157, 197, 257, 264, 271, 520, 577, 1025, 1040, 2049, 4160, 5120, 8200)


def fingerprints(ops, variants, dtypes, cols, rows: int, gpus) -> dict:
    """{plan: its kernel, constexprs, warps, registers, spills, programs per SM and a
    hash of its SASS}, or why the variant declines; one plan per (GPU, op, variant,
    dtype, width, layout)."""
    found = {}
    for gpu, op, variant, dname, n, offset in itertools.product(gpus, ops, variants, dtypes, cols, (False, True)):
        if variant not in ("auto", *softmax.VARIANTS[op]):
            continue  # tiled is the backward's, online the forward's
        target, x = offline.Target(GPUS[gpu]), offline.layout((rows, n), DTYPES[dname], offset)
        key = f"{gpu} {op} {variant} {dname} {rows}x{n}{' offset' if offset else ''}"
        p = softmax.plan_offline(x, op, variant, x if op in softmax.BACKWARD_OPS else None, target)
        if p["kernel"] is None:
            found[key] = {"unsupported": p["unsupported"]}
            continue
        sass = target.sass(*offline.plan_kernel(op, x, p), p["constexprs"], p["num_warps"], p.get("maxnreg"))
        found[key] = {"kernel": p["kernel"], "num_warps": p["num_warps"], "n_regs": p["n_regs"],
                      "n_spills": p["n_spills"], "programs_per_sm": p["programs_per_sm"],
                      "constexprs": {k: v for k, v in p["constexprs"].items() if k != "INTERPRETER"},
                      "sass": hashlib.sha256(sass.encode()).hexdigest()[:16]}
    return found


def compare(before: dict, after: dict) -> int:
    """Prints the plans whose record differs; returns how many do."""
    keys = sorted(set(before) | set(after))
    differ = [k for k in keys if before.get(k) != after.get(k)]
    for k in differ:
        b, a = before.get(k, {}), after.get(k, {})
        what = [f"{field} {b.get(field)} -> {a.get(field)}" for field in ("kernel", "constexprs", "num_warps", "n_regs",
                                                                          "n_spills", "programs_per_sm", "unsupported")
                if b.get(field) != a.get(field)]
        if b.get("sass") != a.get("sass"):
            what.append("SASS differs")
        print(f"{k}: {'; '.join(what)}")
    print(f"{len(keys)} plans, {len(keys) - len(differ)} the same, {len(differ)} differ")
    return len(differ)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="write the fingerprints here (JSON)")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"), help="compare two records (.json or .json.gz)")
    parser.add_argument("--op", default=",".join(softmax.VARIANTS), help="comma-separated ops")
    parser.add_argument("--variant", default="fused", help="comma-separated variants (or auto)")
    parser.add_argument("--dtype", default=",".join(DTYPES))
    parser.add_argument("--cols", default=",".join(map(str, COLS)))
    parser.add_argument("--rows", type=int, default=1 << 14)
    parser.add_argument("--gpu", default=",".join(GPUS), help="the offline GPUs whose plans to compile")
    args = parser.parse_args()
    if args.compare:
        before, after = (json.load((gzip.open if path.endswith(".gz") else open)(path, "rt")) for path in args.compare)
        sys.exit(1 if compare(before, after) else 0)
    if not args.out:
        parser.error("give --out (to record) or --compare (two records)")
    found = fingerprints(args.op.split(","), args.variant.split(","), args.dtype.split(","),
                         [int(c) for c in args.cols.split(",")], args.rows, args.gpu.split(","))
    with open(args.out, "w") as f:
        json.dump(found, f, indent=1, sort_keys=True)
    print(f"{len(found)} plans, {sum('sass' in v for v in found.values())} compiled -> {args.out}")


if __name__ == "__main__":
    main()
