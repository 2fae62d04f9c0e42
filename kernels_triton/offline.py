"""The Triton kernels compiled for a GPU that is not here (sm_90 by default), with their
registers and spills: what `softmax.plan` reads from the driver on a GPU, had without one.

CI has no GPU, so its Triton tests run the kernels in Triton's CPU interpreter, which
never compiles them: a kernel that the interpreter runs can still fail to compile for a
GPU, or spill there, under the Triton that CI installs (the newest, where the GPU
machine has another). `python -m kernels_triton.offline` plans each softmax op and
reduction, every variant and dtype, over a set of shapes as on a 132-SM H100 and again
as on an H200 (more DRAM bandwidth per SM: split's rules by bandwidth) (`plan_offline`:
the real plan, the `auto` rules, chunk geometry, register caps and second compiles
included) and compiles every kernel the plans ask for;
tests/test_triton_compile.py runs it.

The binary differs from the one a GPU run would build only where Triton specialises on
the actual arguments: here every pointer is taken as 16-byte aligned where the tensor
standing for it is (fresh tensors are; a view one element in is not) and every integer
as Triton would specialise it (a multiple of 16, or 1), which is what the plans compile
on a GPU. Each plan's row also counts its kernel's global loads and stores by width in
the PTX (`global_accesses`): rows off the 16-byte alignment must still load most of
their values 16 bytes at a time (row_edges.py).
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, replace

import torch

from . import launch

# An H100 SXM as the plans see it (sm_90; device_limits reads the same from a real one).
H100 = launch.DeviceLimits(index=0, name="H100 SXM (offline)", sm_count=132, regs_per_sm=65536,
                           smem_per_sm=233472, max_threads_per_sm=2048, warp_size=32, l2_bytes=50 * 2**20,
                           dram_bytes_per_s=2 * 2619 * 10**6 * 640)  # 2619 MHz HBM3 over 5120 bits: 3.35 TB/s
# An H200 as the plans see it: the H100's SMs with a 60 MiB L2 and 4.8 TB/s (NVIDIA's
# figure), so 36 GB/s of DRAM bandwidth per SM, which takes split's *_FAST_SM rules.
H200 = replace(H100, name="H200 SXM (offline)", l2_bytes=60 * 2**20, dram_bytes_per_s=48 * 10**11)


@dataclass(frozen=True)
class Target:
    """A GPU to compile for: its per-SM limits and compute capability."""

    limits: launch.DeviceLimits = H100
    capability: int = 90

    def compile(self, kernel, args: tuple, constexprs: dict, num_warps: int,
                maxnreg: int | None = None) -> launch.CompiledResources:
        """`launch.compiled_resources` without a GPU: compile `kernel` for `args` (as the
        launch would pass them) and read its registers, spills and shared memory."""
        return _compiled(self, kernel, _signature(kernel, args, constexprs), num_warps, maxnreg)

    def accesses(self, kernel, args: tuple, constexprs: dict, num_warps: int, maxnreg: int | None = None) -> dict:
        """`global_accesses` of `kernel` compiled as `compile` compiles it (once)."""
        signature = _signature(kernel, args, constexprs)
        _compiled(self, kernel, signature, num_warps, maxnreg)
        return _ACCESSES[(self, kernel, signature, num_warps, maxnreg)]

    def sass(self, kernel, args: tuple, constexprs: dict, num_warps: int, maxnreg: int | None = None) -> str:
        """The machine code (SASS, from the cuobjdump Triton ships) of `kernel` compiled as
        `compile` compiles it (once): the instructions alone, one a line with its offset."""
        signature = _signature(kernel, args, constexprs)
        _compiled(self, kernel, signature, num_warps, maxnreg)
        listing = _cuobjdump("-sass", _CUBINS[(self, kernel, signature, num_warps, maxnreg)])
        return "\n".join(line.strip() for line in listing.splitlines() if line.strip().startswith("/*"))


def _signature(kernel, args: tuple, constexprs: dict) -> tuple:
    """(signature, constexprs, attrs) as Triton's JIT would specialise the launch: the
    runtime arguments come first in the kernel's parameters, the constexprs by name."""
    from triton.runtime.jit import mangle_type

    names = kernel.arg_names
    sig, consts, attrs = {}, dict(constexprs), {}
    for i, name in enumerate(names):
        if i >= len(args):
            sig[name] = "constexpr"
            continue
        value = args[i]
        kind = mangle_type(value, True)
        if kind == "constexpr":  # an integer 1: Triton makes it a constant
            sig[name], consts[name] = "constexpr", value
            continue
        sig[name] = kind
        if (isinstance(value, torch.Tensor) and value.data_ptr() % 16 == 0) or (
                type(value) is int and value % 16 == 0):
            attrs[(i,)] = (("tt.divisibility", 16),)
    return tuple(sig.items()), tuple(consts.items()), tuple(attrs.items())


_COMPILED: dict = {}


def _compiled(target: Target, kernel, signature: tuple, num_warps: int,
              maxnreg: int | None) -> launch.CompiledResources:
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    key = (target, kernel, signature, num_warps, maxnreg)
    if key in _COMPILED:
        return _COMPILED[key]
    sig, consts, attrs = (dict(part) for part in signature)
    attrs = {where: [list(a) for a in values] for where, values in attrs.items()}
    options = {"num_warps": num_warps, **launch.COMPILE_OPTIONS} | ({"maxnreg": maxnreg} if maxnreg else {})
    compiled = triton.compile(ASTSource(fn=kernel, signature=sig, constexprs=consts, attrs=attrs),
                              target=GPUTarget("cuda", target.capability, target.limits.warp_size),
                              options=options)
    n_regs, stack = _resource_usage(compiled.asm["cubin"])
    shared = int(compiled.metadata.shared)
    per_sm, limited_by = launch.programs_per_sm(n_regs, shared, num_warps, target.limits)
    res = _COMPILED[key] = launch.CompiledResources(n_regs=n_regs, n_spills=stack, shared=shared,
                                                    num_warps=num_warps, programs_per_sm=per_sm,
                                                    limited_by=limited_by)
    _ACCESSES[key] = global_accesses(compiled.asm["ptx"])
    _CUBINS[key] = compiled.asm["cubin"]
    return res


# Plain global loads and stores in PTX (`@%p ld.global.L1::evict_last.v4.b32 {...}`): the
# kind, the vector's count and the element's bits. Volatile loads and atomics (split's
# exchange) are not plain.
_ACCESS = re.compile(r"\b(ld|st)\.global(?:\.[A-Za-z0-9_:]+)*?(?:\.v(\d))?\.[bfsu](\d+)\s")
# The global accesses and the cubin of each compiled kernel, by _COMPILED's key.
_ACCESSES: dict = {}
_CUBINS: dict = {}


def global_accesses(ptx: str) -> dict:
    """{"ld": {bits: count}, "st": {bits: count}}: the plain global load and store
    instructions of a kernel's PTX by the bits each moves (a 16-byte vector: 128), each
    instruction counted once where it appears."""
    found = {"ld": {}, "st": {}}
    for kind, vector, bits in _ACCESS.findall(ptx):
        width = int(vector or 1) * int(bits)
        found[kind][width] = found[kind].get(width, 0) + 1
    return found



def _cuobjdump(option: str, cubin: bytes) -> str:
    """What the cuobjdump Triton ships prints for `cubin` with `option`."""
    import triton

    tool = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "cuobjdump")
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        return subprocess.run([tool, option, f.name], capture_output=True, text=True, check=True).stdout


def _resource_usage(cubin: bytes) -> tuple[int, int]:
    """(registers, stack bytes per thread) of a cubin. The stack frame is what the driver
    reports as the spills of a loaded kernel."""
    usage = _cuobjdump("--dump-resource-usage", cubin)
    return int(re.search(r"REG:(\d+)", usage).group(1)), int(re.search(r"STACK:(\d+)", usage).group(1))


# -- the check ---------------------------------------------------------------------------------

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}
# (rows, cols) by what they make each family plan: narrow rows several to a program,
# a 32-64 KiB row (fused's widest), split's one-chunk and 16 KiB chunks, widened chunks
# (rows of more 16 KiB chunks than SMs), odd rows (ALIGN 1) read as head, 16-byte vectors
# and tail (row_edges.py; 197: many to a program; 16383 and 32767: fused's widest, the
# backward's and 16-bit rows', fp32 rows'); aligned rows just past a power of two (264:
# fused's forward in two parts, softmax_fused.plain_parts).
SHAPES = [(4096, 128), (64, 4096), (8, 16384), (4, 32768), (300, 65536), (300, 262144), (8, 1 << 20),
          (4096, 197), (64, 3001), (8, 16383), (4, 32767), (16, 65537), (4096, 264)]
# Odd rows in a view one element in, whose rows and output's differ in their offsets
# from 16 bytes: element by element.
OFFSET_SHAPES = [(64, 3001), (16, 65537)]
# The reductions: rows (one-shot blocks, tiles) and whole tensors (1-D: two stages).
REDUCE_SHAPES = [(4096, 128), (64, 65536), (1 << 24,), (1000,)]


def layout(shape: tuple, dtype: torch.dtype, offset: bool) -> torch.Tensor:
    """A tensor of `shape`: fresh, or (`offset`) a view one element into a flat one."""
    if not offset:
        return torch.empty(shape, dtype=dtype)
    return torch.empty(math.prod(shape) + 1, dtype=dtype)[1:].view(shape)


def plan_kernel(op: str, x: torch.Tensor, p: dict) -> tuple:
    """(kernel, compile arguments) of softmax plan `p` for `op` on `x` (for a backward op,
    `x` stands for both y and dy), as the plan compiles it."""
    from . import softmax

    backward = op in softmax.BACKWARD_OPS
    family = (softmax.BACKWARD_FAMILIES if backward else softmax.FAMILIES)[p["kernel"]]
    return family.KERNEL, family.compile_args(x, x) if backward else family.compile_args(x)


def _plan_row(plan, x: torch.Tensor, op: str, variant: str, dname: str, accesses=None) -> dict:
    """One plan of `check`, as a dict: what compiled and how (`accesses(x, p)`: its
    kernel's global_accesses), or why not."""
    row = {"op": op, "variant": variant, "dtype": dname, "shape": list(x.shape),
           "offset": x.data_ptr() % 16 != 0}
    try:
        p = plan(x)
    except Exception as e:  # a finding to report, not the end of the check
        row["error"] = f"{type(e).__name__}: {e}".splitlines()[0]
        return row
    if p["kernel"] is None:
        row["unsupported"] = p["unsupported"]
        return row
    row.update(kernel=p["kernel"], constexprs={k: v for k, v in p["constexprs"].items() if k != "INTERPRETER"},
               num_warps=p["num_warps"], maxnreg=p.get("maxnreg"), n_regs=p["n_regs"], n_spills=p["n_spills"],
               programs_per_sm=p["programs_per_sm"])
    if "finish_n_regs" in p:  # the reductions' second stage
        row.update(finish_n_regs=p["finish_n_regs"], finish_n_spills=p["finish_n_spills"])
    if accesses is not None:
        row["accesses"] = accesses(x, p)
    return row


def check(target: Target = Target(), shapes=SHAPES, reduce_shapes=REDUCE_SHAPES, dtypes=DTYPES,
          offset_shapes=OFFSET_SHAPES) -> list[dict]:
    """Plan every softmax op and reduction, every variant, over the shapes (fresh, and
    `offset_shapes` one element in) x `dtypes` as on `target` and compile what each plan
    asks for; one dict per plan (its kernel, constexprs, warps, registers, spills,
    programs per SM, the softmax kernels' global accesses; `unsupported` where the
    variant declines the shape, `error` where planning or compiling failed)."""
    from . import reduce, softmax

    rows = []
    layouts = [(shape, False) for shape in shapes] + [(shape, True) for shape in offset_shapes]
    for op, variants in softmax.VARIANTS.items():
        backward = op in softmax.BACKWARD_OPS

        def accesses(x, p):
            return target.accesses(*plan_kernel(op, x, p), p["constexprs"], p["num_warps"], p.get("maxnreg"))
        for variant, (dname, dtype), (shape, offset) in itertools.product(("auto", *variants), dtypes.items(),
                                                                          layouts):
            x = layout(shape, dtype, offset)
            rows.append(_plan_row(lambda x: softmax.plan_offline(x, op, variant, x if backward else None, target),
                                  x, op, variant, dname, accesses))
    for op, variants in reduce.VARIANTS.items():
        for variant, (dname, dtype), shape in itertools.product(("auto", *variants), dtypes.items(), reduce_shapes):
            x = torch.empty(shape, dtype=dtype)
            rows.append(_plan_row(lambda x: reduce.plan_offline(x, op, variant, target), x, op, variant, dname))
    return rows


def _shape(row: dict) -> str:
    """A row's shape as printed, `+1` for a view one element in."""
    return f"{row['shape']}{'+1' if row.get('offset') else ''}"


def main() -> None:
    import triton

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per plan")
    args = parser.parse_args()
    if os.environ.get("TRITON_INTERPRET") == "1":
        sys.exit("kernels_triton.offline compiles for a GPU: run it without TRITON_INTERPRET=1")
    # The H100's plans, then the H200's: the compiles they share are made once, so the
    # second adds only the kernels of split's rules by bandwidth per SM.
    rows = [dict(row, target=target.limits.name) for target in (Target(), Target(H200)) for row in check(target)]
    for row in rows:
        if args.json:
            print(json.dumps(row))
        elif "error" in row or "unsupported" in row:
            print(f"{row['target']:19s} {row['op']:22s} {row['variant']:6s} {row['dtype']} {_shape(row)}: "
                  f"{row.get('error') or 'unsupported'}")
        else:
            print(f"{row['target']:19s} {row['op']:22s} {row['variant']:6s} {row['dtype']} {_shape(row):18s} "
                  f"{row['kernel']:6s} warps {row['num_warps']:2d} regs {row['n_regs']:3d} "
                  f"spills {row['n_spills']:3d} per_sm {row['programs_per_sm']}")
    print(f"triton {triton.__version__}, sm_{Target().capability}: {len(rows)} plans, "
          f"{len(_COMPILED)} compiles", file=sys.stderr)


if __name__ == "__main__":
    main()
