"""Registers and stack (spill) bytes of a Triton `split` kernel compiled for sm_90 without
a GPU, by the Triton installed: what `launch.resources` reads from the driver on a GPU,
for trying a kernel's form against ptxas here (Triton 3.6's ptxas, the GPU machine's,
gives the figures the plans there report when installed beside: `pip install
triton==3.6.0` into a spare virtual environment).

    python benchmarks/tuning/triton_registers.py --op softmax_backward --dtype bf16,fp16 \\
        --split 16,128 --chunk 4096 --warps 4

Arguments are specialized as on a GPU for aligned rows (pointers, widths and strides
divisible by 16), so the loads are the 16-byte ones the plans compile.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

from kernels_triton import softmax_split

TYPES = {"fp32": "fp32", "fp16": "fp16", "bf16": "bf16"}


def compiled(op: str, dtype: str, split: int, chunk: int, warps: int, early: bool = True) -> tuple[int, int]:
    """(registers, stack bytes) of `op`'s split kernel at these constants (`early`: the
    backward's NEXT_EARLY)."""
    backward = op.endswith("_backward")
    kernel = softmax_split._softmax_split_backward_kernel if backward else softmax_split._softmax_split_kernel
    ptrs = ["y_ptr", "dy_ptr", "dx_ptr"] if backward else ["x_ptr", "y_ptr"]
    ints = ["n_rows", "n_cols"] + [p.replace("_ptr", "_row_stride") for p in ptrs]
    sig = {p: f"*{dtype}" for p in ptrs} | {"slot_ptr": "*i64"} | {i: "i32" for i in ints}
    names = list(kernel.arg_names)
    consts = {"LOG_SOFTMAX": op.startswith("log"), "SPLIT": split, "CHUNK": chunk, "ALIGN": 16,
              "INTERPRETER": False} | ({"NEXT_EARLY": early} if backward else {})
    sig = {n: sig.get(n, "constexpr") for n in names}
    attrs = {(names.index(n),): [["tt.divisibility", 16]] for n in names if sig[n] != "constexpr"}
    k = triton.compile(ASTSource(fn=kernel, signature=sig, constexprs=consts, attrs=attrs),
                       target=GPUTarget("cuda", 90, 32), options={"num_warps": warps})
    tool = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "cuobjdump")
    path = f"/tmp/triton_registers_{os.getpid()}.cubin"
    with open(path, "wb") as f:
        f.write(k.asm["cubin"])
    usage = subprocess.run([tool, "--dump-resource-usage", path], capture_output=True, text=True, check=True).stdout
    os.remove(path)
    return int(re.search(r"REG:(\d+)", usage).group(1)), int(re.search(r"STACK:(\d+)", usage).group(1))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--op", default="softmax_backward",
                   choices=("softmax", "log_softmax", "softmax_backward", "log_softmax_backward"))
    p.add_argument("--dtype", default="fp32,bf16,fp16")
    p.add_argument("--split", default="16,128", help="SPLIT values (chunks per row)")
    p.add_argument("--chunk", type=int, default=4096, help="CHUNK (values per program)")
    p.add_argument("--warps", type=int, default=4)
    p.add_argument("--forms", default="early,late", help="the backward's NEXT_EARLY forms")
    args = p.parse_args()
    forms = [f == "early" for f in args.forms.split(",")] if args.op.endswith("_backward") else [True]
    print(f"triton {triton.__version__}, sm_90, {args.op}, CHUNK {args.chunk}, {args.warps} warps")
    for dtype in args.dtype.split(","):
        for split in map(int, args.split.split(",")):
            for early in forms:
                regs, stack = compiled(args.op, TYPES[dtype], split, args.chunk, args.warps, early)
                per_sm = 65536 // (((regs + 7) // 8 * 8) * 32 * args.warps)
                form = ("early " if early else "late  ") if args.op.endswith("_backward") else ""
                print(f"{dtype:5s} SPLIT {split:4d} {form}: {regs:3d} registers, {stack:3d} stack bytes, "
                      f"{per_sm} programs per SM by registers")


if __name__ == "__main__":
    main()
