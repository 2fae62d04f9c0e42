#!/usr/bin/env python3
"""Which launch plans differ between two source trees, without a GPU: the check that a
refactor changed no plan, or that a rule gated on a GPU property leaves another GPU as
it was.

    python3 benchmarks/tuning/compare_plans.py OLD NEW [--gpus H100,H200,none] [--cols 263,1040]

OLD and NEW are trees holding kernels_triton/ and kernels_cuda/ (e.g. from
`git archive REV kernels_triton kernels_cuda | tar -x -C DIR`; "." for the checkout).
Compared, per GPU of kernels_triton/offline.py (`none`: the interpreter):
* Triton `fused`'s forward and backward launch parameters (`launch_params`,
  `backward_launch_params`) of bf16 / fp16 / fp32 rows of 1-1199 columns and every 37th
  to 9000, at 64 rows and at 1 GiB of rows, contiguous, 4 elements off a 16-byte
  boundary and in a padded row stride, softmax and log-softmax;
* CUDA `warp_per_row`'s forward geometry (`warp_row_shape`: group, values a lane, rows
  a group) at every width it holds, for the GPU classes of those GPUs: below or at
  kWarpRowTwoRowsMinSmBandwidth of DRAM bandwidth per SM (fast0 / fast1: the H100 /
  the H200), compiled with nvcc (skipped without it).
Each tree is planned in its own process (Triton's interpreter, CPU tensors that are
never filled). Prints the number of cases and the first differing ones; exits 1 where
any differ.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_TRITON_PLANS = r"""
import json, sys, torch
from kernels_triton import offline, softmax_fused as F
out = {}
widths = [int(c) for c in sys.argv[2].split(",")] if sys.argv[2] else list(range(1, 1200)) + list(range(1200, 9000, 37))
for gpu in sys.argv[1].split(","):
    limits = None if gpu == "none" else getattr(offline, gpu)
    for dtype in (torch.bfloat16, torch.float16, torch.float32):
        for cols in widths:
            for rows in (64, 2 ** 30 // (cols * dtype.itemsize)):
                base = torch.empty(rows * (cols + 8) + 16, dtype=dtype)
                views = {"contiguous": base[: rows * cols].view(rows, cols),
                         "offset 4": base[4: 4 + rows * cols].view(rows, cols),
                         "padded": base[: rows * (cols + 8)].view(rows, cols + 8)[:, :cols]}
                for layout, x in views.items():
                    for op in ("softmax", "log_softmax"):
                        key = f"triton {gpu} {str(dtype)[6:]} {cols} x{rows} {layout} {op}"
                        out[key + " forward"] = repr(F.launch_params(x, limits, op))
                        out[key + " backward"] = repr(F.backward_launch_params(x, x, limits, op))
json.dump(out, sys.stdout)
"""

# warp_row_shape at every width: tests/test_cuda_compile.py's program, less the constants
# it prints first (which older trees may lack).
_CUDA_SHAPES = r"""
#include <cstdio>
#include "softmax/warp_per_row.cuh"
using namespace sk::softmax;
template <typename T> void show(const char* dtype, int pack) {
  for (int fast = 0; fast < 2; ++fast) {
    for (int cols = 1; cols <= 32 * warp_row_forward_max_values(sizeof(T), pack); ++cols) {
      const bool edges = cols * static_cast<int>(sizeof(T)) % 16 != 0;
      const WarpRowShape s = warp_row_shape<T>(cols, pack, 1000, fast != 0, edges);
      std::printf("cuda fast%d %s %d %d %d %d\n", fast, dtype, cols, s.group, s.needed, s.rows_per_access);
    }
  }
}
int main() {
  show<__nv_bfloat16>("bf16", 8);
  show<__half>("fp16", 8);
  show<float>("fp32", 4);
  return 0;
}
"""


def triton_plans(tree: Path, gpus: str, cols: str) -> dict[str, str]:
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=str(tree))
    result = subprocess.run([sys.executable, "-c", _TRITON_PLANS, gpus, cols], capture_output=True, text=True,
                            env=env, cwd=tempfile.gettempdir(), check=True)
    return json.loads(result.stdout)


def _nvcc() -> str | None:
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    found = shutil.which("nvcc") or (str(Path(home, "bin", "nvcc")) if home else None)
    return found if found and Path(found).exists() else None


def cuda_shapes(tree: Path) -> dict[str, str] | None:
    """warp_row_shape of `tree` at every width, by (fast, dtype, cols); None without nvcc.
    The flags are tests/test_cuda_compile.py's (the build's and torch's half/bf16 ones)."""
    nvcc = _nvcc()
    if nvcc is None:
        return None
    sys.path.insert(0, str(ROOT))
    from kernels_cuda import build
    from torch.utils.cpp_extension import COMMON_NVCC_FLAGS
    with tempfile.TemporaryDirectory() as tmp:
        src, program = Path(tmp) / "shapes.cu", Path(tmp) / "shapes"
        src.write_text(_CUDA_SHAPES)
        subprocess.run([nvcc, "-arch=sm_90", *build.CUDA_FLAGS, *COMMON_NVCC_FLAGS, f"-I{tree}/kernels_cuda/csrc",
                        str(src), "-o", str(program)], capture_output=True, text=True, check=True)
        lines = subprocess.run([str(program)], capture_output=True, text=True, check=True).stdout.splitlines()
    return {" ".join(line.split()[:4]): line for line in lines}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("old", type=Path)
    p.add_argument("new", type=Path)
    p.add_argument("--gpus", default="H100,H200,none", help="offline GPUs (kernels_triton/offline.py) or none")
    p.add_argument("--cols", default="", help="widths, comma-separated (default: 1-1199 and every 37th to 9000)")
    p.add_argument("--show", type=int, default=10, help="differing cases to print")
    args = p.parse_args()
    # The CUDA geometry's GPU classes of the GPUs asked for: fast1 on those of
    # kWarpRowTwoRowsMinSmBandwidth, the DRAM bandwidth per SM of Triton's `fast_sm` too.
    sys.path.insert(0, str(ROOT))
    from kernels_triton import offline, softmax_split
    classes = {f"fast{int(softmax_split.fast_sm(getattr(offline, g)))}" for g in args.gpus.split(",") if g != "none"}
    differ = 0
    widths = {int(c) for c in args.cols.split(",")} if args.cols else None
    for name, plans in (("triton", lambda t: triton_plans(t.resolve(), args.gpus, args.cols)),
                        ("cuda", lambda t: cuda_shapes(t.resolve()))):
        old, new = plans(args.old), plans(args.new)
        if old is None or new is None:
            print(f"{name}: skipped (nvcc not found)")
            continue
        if name == "cuda":
            old, new = ({k: v for k, v in d.items() if k.split()[1] in classes
                         and (widths is None or int(k.split()[3]) in widths)} for d in (old, new))
        keys = sorted(set(old) | set(new))
        changed = [k for k in keys if old.get(k) != new.get(k)]
        differ += len(changed)
        print(f"{name}: {len(keys)} cases, {len(changed)} differ")
        for k in changed[:args.show]:
            print(f"  {k}\n    old {old.get(k)}\n    new {new.get(k)}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
