"""What the Triton test files share (tests/test_triton_softmax.py, the forward;
tests/test_triton_softmax_backward.py; tests/test_triton_reduce.py): the backend and the
skip marks, the device the tests run on (a GPU, else CPU tensors under Triton's
interpreter), the op modules (imported only after the skip check: they import Triton),
and bit-level bf16 helpers."""
from __future__ import annotations

import math

import pytest
import torch

from comparison import get_backend
from comparison.inputs import make_rows

BACKEND = get_backend("triton")
PYTESTMARK = [
    pytest.mark.skipif(not BACKEND.is_available(),
                       reason=f"triton backend unavailable: {BACKEND.unavailable_reason()}"),
    # The interpreter computes with numpy, which warns where the GPU quietly gives NaN
    # (-inf - -inf: padding lanes, rows of -inf), inf (differences of values near the
    # dtype's maximum, fp16 outputs below -65504), 1/0 and log(0) (rows of -inf) or a max
    # over only NaN (a row's part that holds nothing else): all as torch does; the
    # results are checked instead.
    pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:divide by zero encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:All-NaN slice encountered:RuntimeWarning"),
]
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
OPS = ("softmax", "log_softmax")
VARIANTS = ("fused", "online", "split", "split_oneshot", "auto")
DTYPES = [torch.float32, torch.float16, torch.bfloat16]
DTYPE_IDS = ["fp32", "fp16", "bf16"]


def modules():
    """(op module, launch helpers, fused, online, split, policy, row helpers); imports
    Triton, so only after the skip check."""
    from kernels_triton import (launch, softmax, softmax_fused, softmax_online, softmax_policy,
                                softmax_rows, softmax_split)
    return softmax, launch, softmax_fused, softmax_online, softmax_split, softmax_policy, softmax_rows


CPU_ROWS = [1, 2, 7]  # 7: every extreme row of make_rows, and a short last fused block


def gpu_limits(sm_count: int | None, dram_bytes_per_s: int | None = None):
    """A GPU's limits as `auto` reads them: an H100's (kernels_triton.offline.H100) with
    `sm_count` SMs (and `dram_bytes_per_s`, else the H100's: 25 GB/s per SM at 132 SMs);
    None (the interpreter's: no GPU) for None."""
    import dataclasses

    from kernels_triton import offline
    if sm_count is None:
        return None
    return dataclasses.replace(offline.H100, sm_count=sm_count,
                               dram_bytes_per_s=dram_bytes_per_s or offline.H100.dram_bytes_per_s)


def interpreted() -> bool:
    from kernels_triton.backend import interpreting
    return interpreting()


def truncated_bf16(y32: torch.Tensor) -> torch.Tensor:
    """fp32 values cut to bf16 by dropping the low 16 bits: what Triton's interpreter's
    own fp32 -> bf16 conversion does."""
    return (y32.view(torch.int32) >> 16).to(torch.int16).view(torch.bfloat16)


def same_bits(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Elementwise: equal bits, or both NaN (NaN payloads differ between devices)."""
    return (a.view(torch.int16) == b.view(torch.int16)) | (a.isnan() & b.isnan())


BWD_OPS = ("softmax_backward", "log_softmax_backward")
BWD_VARIANTS = ("fused", "tiled", "split", "split_oneshot", "auto")


def odd_tensors(device):
    """(name, tensor) pairs the op modules (softmax, its backward, the reductions) may be
    handed: every rank, empty in each dimension, layouts with and without a rows view,
    and dtypes the kernels do not take."""
    base = make_rows(6, 10, torch.float32, device)
    return [
        ("1-D", base[0].clone()),
        ("1-D strided", base[:, 0]),                      # stride 10: no unit-stride view
        ("0-dim", base[0, 0].clone()),
        ("empty 1-D", torch.empty(0, device=device)),
        ("0 rows", torch.empty(0, 5, device=device)),
        ("0 cols", torch.empty(4, 0, device=device)),
        ("0 x 0", torch.empty(0, 0, device=device)),
        ("3-D", base.reshape(2, 3, 10)),
        ("3-D without a rows view", base.reshape(3, 2, 10).transpose(0, 1)),
        ("3-D empty", torch.empty(2, 0, 3, device=device)),
        ("2-D transposed", base.t()),                     # column stride 10
        ("2-D offset view", base[1:, 3:]),
        ("bf16 rows", base.to(torch.bfloat16)),
        ("bf16 1-D", base[0].to(torch.bfloat16)),
        ("int32", base.to(torch.int32)),
        ("int64", base.to(torch.int64)),
        ("fp64", base.double()),
        ("bool", base > 0),
        ("0-dim int", torch.tensor(3, device=device)),
    ]


def check_compiled_plan(p: dict, kernel: str, rows: int, where: str) -> None:
    """A GPU plan of `kernel` (forward or backward) over `rows` rows: compiled without
    spills (split: at most SPLIT_SPILL_BYTES_TOLERATED bytes, its chunks' values near the
    register limit, and no more than that where the plan spread them over more warps),
    at least one program resident per SM, and the grid its family's: a program per row
    block (fused, one-shot), at most what stays resident (persistent families), whole
    groups of SPLIT programs (split, every one of which must be resident)."""
    from kernels_triton import softmax_split

    tolerated = softmax_split.SPLIT_SPILL_BYTES_TOLERATED if kernel == "split" else 0
    assert p["n_spills"] <= tolerated, where
    assert p["programs_per_sm"] >= 1 and p["constexprs"]["INTERPRETER"] is False, where
    if kernel == "fused":
        assert p["grid"] == math.ceil(rows / p["constexprs"]["ROWS"]), where
    else:
        assert p["grid"] <= p["sm_count"] * p["programs_per_sm"], where
    if kernel == "split":
        assert p["grid"] % p["constexprs"]["SPLIT"] == 0, where


def split_parts(x: torch.Tensor, chunk: int, edges: int) -> torch.Tensor:
    """The program of a `split` group (its chunk index) that reads each element of the
    (rows, cols) tensor x, as the kernel cuts a row: chunks of `chunk` columns; or, where
    its plan reads rows as head, whole vectors and tail (EDGES = `edges` values a vector,
    row_edges.py; x's start 16-byte aligned), chunks of the row's body of whole vectors
    from its first aligned address, and the head and tail values to the first program."""
    rows, cols = x.shape
    c = torch.arange(cols, device=x.device).expand(rows, cols)
    if not edges:
        return c // chunk
    start = torch.arange(rows, device=x.device)[:, None] * x.stride(0)
    head = ((-start) % edges).clamp(max=cols)
    body = (cols - head) // edges * edges
    return torch.where((c >= head) & (c < head + body), (c - head) // chunk, 0)


# Odd widths (rows at another offset from 16 bytes in each row of a contiguous tensor):
# narrower than a vector of any dtype (1, 3, 7), two fp32 vectors but not two 16-bit
# ones (9), many rows to a `fused` tile (197), one and two rows to a tile (1025, 3001).
ODD_WIDTHS = [1, 3, 7, 9, 197, 1025, 3001]
# How the tests lay odd rows out (`in_layout`): rows that share their offsets from 16
# bytes with a fresh output's (contiguous; padded by a whole 16-byte vector), and rows
# that do not (one element in).
ROW_LAYOUTS = ("contiguous", "padded", "offset by one")


def forced_oneshot(p: dict, rows: int, k: int, chunk: int, paired: bool, published: torch.Tensor) -> tuple:
    """(plan, workspace) of `split_oneshot` plan `p` over `rows` rows forced to K = `k`
    chunks of `chunk` values (CHUNK counts words where the rows are held as pairs), its
    workspace holding the ticket counter at -1 and then `published`, every chunk's word."""
    constexprs = dict(p["constexprs"], K=k, KP=1 << (k - 1).bit_length(), CHUNK=chunk // 2 if paired else chunk)
    words = torch.cat([torch.full((1,), -1, dtype=torch.int64, device=published.device), published])
    return dict(p, grid=rows * k, constexprs=constexprs), words


def in_layout(values: torch.Tensor, layout: str) -> torch.Tensor:
    """The (rows, cols) tensor `values` copied into a tensor laid out as `layout` (of
    ROW_LAYOUTS): contiguous; "padded", row stride cols plus one 16-byte vector; "offset
    by one", a view one element into a flat tensor. Memory outside the rows holds NaN, so
    a kernel that reads it gets NaN rows."""
    rows, cols = values.shape
    if layout == "contiguous":
        return values.clone()
    if layout == "padded":
        out = torch.full((rows, cols + 16 // values.element_size()), math.nan, dtype=values.dtype,
                         device=values.device)[:, :cols]
    else:
        out = torch.full((rows * cols + 1,), math.nan, dtype=values.dtype, device=values.device)[1:].view(rows, cols)
    return out.copy_(values)


class MadeUpTarget:
    """A target for `plan_offline` that compiles nothing: every kernel asked of it holds
    `per_sm` programs per SM (as if by its registers) on `limits` (default: the offline
    H100), and `compiled` keeps the constexprs of each compile in order. The plan's rules
    on made-up residency, anywhere."""

    def __init__(self, per_sm: int, limits=None):
        from kernels_triton import offline
        self.per_sm, self.limits, self.compiled, self.warps = per_sm, limits or offline.H100, [], []

    def compile(self, kernel, args, constexprs, num_warps, maxnreg=None):
        self.compiled.append(dict(constexprs))
        self.warps.append(num_warps)
        return modules()[1].CompiledResources(n_regs=64, n_spills=0, shared=0, num_warps=num_warps,
                                              programs_per_sm=self.per_sm, limited_by="registers")


def offline_fused_plan(x: torch.Tensor, op: str, limits, dy: torch.Tensor | None = None) -> dict:
    """`fused`'s plan for `x` (y, with `dy`, for a backward op) on the offline GPU `limits`
    (residency made up: nothing compiles)."""
    return modules()[0].plan_offline(x, op, "fused", dy, MadeUpTarget(1, limits))
