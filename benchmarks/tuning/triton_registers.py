"""Registers, spills and programs per SM of a Triton `split` kernel at chosen constants,
compiled for sm_90 without a GPU (`kernels_triton.offline`): for trying a kernel's form
or geometry against ptxas here. Triton 3.6, the GPU machine's, installed in a spare
virtual environment (`pip install triton==3.6.0 torch`), gives the figures the plans
there report; `python -m kernels_triton.offline` prints what every plan compiles to.

    python benchmarks/tuning/triton_registers.py --op softmax_backward --dtype bf16,fp16 \\
        --split 16,128 --chunk 4096 --warps 4
"""
from __future__ import annotations

import argparse

import torch

from kernels_triton import offline, softmax

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


FORMS = {"early": {"NEXT_EARLY": True, "REREAD": 0}, "late": {"NEXT_EARLY": False, "REREAD": 0},
         "reread": {"NEXT_EARLY": False, "REREAD": 2}}


def compiled(op: str, dtype: torch.dtype, split: int, chunk: int, warps: int, form: str = "early"):
    """`offline.Target().compile` of `op`'s split kernel on rows of SPLIT x CHUNK values at
    these constants in `form` (FORMS: where the next row's loads go, NEXT_EARLY, or none
    held across the wait, REREAD)."""
    backward = op in softmax.BACKWARD_OPS
    family = softmax.BACKWARD_FAMILIES["split"] if backward else softmax.FAMILIES["split"]
    x = torch.empty(1000, split * chunk, dtype=dtype)
    constexprs = {"LOG_SOFTMAX": op.startswith("log"), "SPLIT": split, "CHUNK": chunk, "ALIGN": 16,
                  "INTERPRETER": False, **FORMS[form]}
    args = family.compile_args(x, x) if backward else family.compile_args(x)
    return offline.Target().compile(family.KERNEL, args, constexprs, warps)


def main() -> None:
    import triton

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--op", default="softmax_backward", choices=tuple(softmax.VARIANTS))
    p.add_argument("--dtype", default="fp32,bf16,fp16")
    p.add_argument("--split", default="16,128", help="SPLIT values (chunks per row)")
    p.add_argument("--chunk", type=int, default=4096, help="CHUNK (values per program)")
    p.add_argument("--warps", type=int, default=4)
    p.add_argument("--forms", default="early,late", help=f"of {', '.join(FORMS)}")
    args = p.parse_args()
    forms = args.forms.split(",")
    print(f"triton {triton.__version__}, sm_90, {args.op}, CHUNK {args.chunk}, {args.warps} warps")
    for dname in args.dtype.split(","):
        for split in map(int, args.split.split(",")):
            for form in forms:
                res = compiled(args.op, DTYPES[dname], split, args.chunk, args.warps, form)
                print(f"{dname:5s} SPLIT {split:4d} {form:6s}: {res.n_regs:3d} registers, {res.n_spills:3d} stack bytes, "
                      f"{res.programs_per_sm} programs per SM ({res.limited_by})")


if __name__ == "__main__":
    main()
