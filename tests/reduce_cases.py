"""Shapes and checks shared by the CUDA and Triton reduction tests.

Each width is listed with the code paths it exercises, so a failure names a path.
"""
from __future__ import annotations

import math

import torch

from comparison.agreement import check
from comparison.api import OP_FUNCTIONS
from comparison.canonical import rows_view
from comparison.inputs import make_rows

OPS = ("reduce_sum", "reduce_max")

# Small enough for Triton's CPU interpreter (CI) and for every GPU run.
CPU_WIDTHS = [
    1,      # one value per row: many rows per program / warp
    3,      # narrower than any vector pack
    31, 32, 33,     # around one warp of lanes
    127, 128, 129,  # around a 4-warp tile; 129 breaks every pack alignment
    1000,   # not a multiple of 16: masked tail, no wide packs
    1025,   # just past the CUDA warp-per-row range; Triton block pads to 2048
    4099,   # Triton tiled: one full 4096 tile plus a masked tail
]
CPU_ROWS = [1, 2, 7]  # 7: all extreme rows of make_rows, and a short last row tile

GPU_WIDTHS = [
    1, 3,               # degenerate rows: many rows per warp / program
    31, 32, 33,         # around one warp
    127, 128, 129,      # around 4 warps; 129 breaks pack alignment
    511, 512,           # CUDA warp-per-row with 16 values per lane
    1000,               # odd multiple of 8: narrower packs
    1024, 1025,         # CUDA auto: last warp-per-row width / first block-per-row width
    2047, 2048,         # block per row, misaligned / aligned
    4096, 4097,         # Triton tiled: exactly one tile / one tile plus a 1-element tail
    8192,               # Triton auto: widest `block` row
    12345,              # odd width: scalar loads, tiles plus a tail
    16384, 32768,       # Triton block: up to its register limit (BLOCK_MAX_COLS)
    65536,              # past Triton block: tiled only
]
GPU_ROWS = [1, 2, 7, 1000]  # 1000: more rows than SMs, so persistent grids loop
GPU_DTYPES = [torch.float32, torch.float16, torch.bfloat16]
WHOLE_SIZES_CPU = [1, 1000, 100_003]          # 100_003: several grid-stride tiles, odd tail
WHOLE_SIZES_GPU = [1, 1000, 2 ** 28]          # 2**28: 1 GiB of fp32, every partial busy


def whole_input(n: int, dtype: torch.dtype, device) -> torch.Tensor:
    """A 1-D input of n elements made of make_rows rows (offsets and extremes included)."""
    cols = min(n, 1 << 14)
    rows = math.ceil(n / cols)
    return make_rows(rows, cols, dtype, device).reshape(-1)[:n].contiguous()


def run_and_check(op: str, x: torch.Tensor, dim, backend: str, variant: str) -> torch.Tensor:
    """Run `op` through the public API, check it against the float64 reference and that
    the input is unchanged; returns the result."""
    before = x.clone()
    out = OP_FUNCTIONS[op](x, dim, backend=backend, variant=variant)
    expected_shape = () if dim is None else tuple(s for i, s in enumerate(x.shape) if i != dim % x.dim())
    assert tuple(out.shape) == expected_shape and out.dtype == x.dtype and out.device == x.device
    canonical = x.reshape(-1) if dim is None else rows_view(x, dim % x.dim())
    agreement = check(op, canonical, out if dim is None else out.reshape(-1))
    assert agreement.ok, agreement.summary()
    torch.testing.assert_close(x, before, rtol=0, atol=0, equal_nan=True)
    return out


def check_whole_deterministic(op: str, x: torch.Tensor, backend: str, variant: str) -> None:
    """The whole-tensor reduction agrees with the reference and gives the same bits twice."""
    first = run_and_check(op, x, None, backend, variant)
    again = OP_FUNCTIONS[op](x, None, backend=backend, variant=variant)
    bits = torch.int32 if x.dtype == torch.float32 else torch.int16
    assert torch.equal(first.view(bits), again.view(bits))


def special_rows(cols: int, dtype: torch.dtype, device) -> torch.Tensor:
    """Rows whose sum and max torch defines through NaN/inf rules; `cols` >= 2."""
    inf, nan = math.inf, math.nan
    x = torch.randn(8, cols, device=device).to(dtype)
    x[0] = -inf                        # all -inf: max -inf, sum -inf
    x[1, cols // 2] = nan              # a NaN in the middle
    x[2, -1] = nan                     # a NaN in the last (tail) element
    x[3, 0], x[3, -1] = inf, -inf      # +inf and -inf: sum NaN, max +inf
    x[4, 1] = inf                      # one +inf
    x[5, 0] = -inf                     # one -inf among finite values
    x[6] = nan                         # all NaN
    x[7, 0], x[7, -1] = nan, inf       # NaN beats +inf in max
    return x


def assert_like_torch(op: str, x: torch.Tensor, out: torch.Tensor, dim) -> None:
    """Same NaN/inf pattern as torch.sum / torch.amax; finite values close (max: exact).
    Sums in fp16/bf16 may differ from torch's by one unit in the last place: both add in
    fp32, in different orders, and round once."""
    if op == "reduce_sum":
        ref = x.sum() if dim is None else x.sum(dim)
        tol = {"rtol": max(1e-3, torch.finfo(x.dtype).eps), "atol": 1e-3}
    else:
        ref = x.amax() if dim is None else x.amax(dim)
        tol = {"rtol": 0.0, "atol": 0.0}
    torch.testing.assert_close(out, ref, equal_nan=True, **tol)
