"""The one table of test cases for every backend, and the one helper that runs and checks them.

tests/test_matrix.py runs these cases over every (backend, op, variant) that the
registry lists; tests/test_properties.py draws random ones. A case is an input layout
(shape, view, `dim`), a value kind and a dtype; each shape names the code path it is
there for, so a failure names a path.

`run_and_check` is the only place that decides whether a result is right:

* a variant that declines the input must say why (`supports(...).reason`), and an
  explicit call must raise exactly that reason;
* otherwise the op runs through the public API (on a GPU its output block is first
  filled with NaN in torch's caching allocator), and once more through
  `Backend.run_into` on the canonical tensor with a NaN-filled output, so a kernel that
  skips elements cannot pass on stale results;
* every element of both results is checked against float64 (`comparison.agreement`);
  the result has torch's shape and dtype, is contiguous and on the input's device; the
  input (the whole storage it views, so writes past a view count too) is unchanged bit
  for bit.

Peers and the torch baseline are judged like this package's kernels, but where they
disagree with float64 the test is an expected failure with the checker's summary as its
reason: their disagreements are findings of the comparison, not failures of this package
(`Backend.own`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import pytest
import torch

import comparison
from comparison import get_backend, list_backends
from comparison.agreement import check, gradient_agreement
from comparison.canonical import reduce_view, rows_view
from comparison.inputs import make_gradient, make_rows

HAS_GPU = torch.cuda.is_available()
DEVICE = "cuda" if HAS_GPU else "cpu"

FORWARD_OPS = ("softmax", "log_softmax")
BACKWARD_OPS = ("softmax_backward", "log_softmax_backward")
REDUCE_OPS = ("reduce_sum", "reduce_max")
BACKWARD_OF = dict(zip(FORWARD_OPS, BACKWARD_OPS))
FORWARD_OF = dict(zip(BACKWARD_OPS, FORWARD_OPS))
# The baseline every kernel is compared with: judged like a peer, but run on every case.
BASELINE = "torch"

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
DTYPE_NAMES = {dtype: name for name, dtype in DTYPES.items()}
# Dtypes the kernels do not take: a kernel backend must decline them with a TypeError.
OTHER_DTYPES = {"fp64": torch.float64, "int32": torch.int32, "bool": torch.bool}
# Tolerances per dtype are the checker's (comparison.agreement.TOLERANCES, |out - ref| <=
# atol + rtol |ref|): fp32 (1e-6, 1e-5), fp16 (1e-6, 2^-10), bf16 (1e-6, 2^-7); sums add
# the fp32 accumulation bound, maxima are exact, backward ops add the fp32 error of their
# terms. The cases need none of their own.
BITS = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}

# -- shapes: (rows, cols), each with the path it exercises ------------------------------------

# Small enough for Triton's CPU interpreter (online tiles of 256, fused blocks of at most
# 2048 elements there), run on every device.
CPU_SHAPES = [
    (1, 1),      # one value per row: output 1 (log: 0); many rows per warp / fused block
    (7, 3),      # narrower than any vector pack; every extreme row of make_rows
    (2, 32),     # power of two: no column mask, full 16-byte packs, 8-lane warp groups
    (3, 33),     # one past a warp; Triton BLOCK 64 with 31 masked lanes
    (7, 129),    # odd: breaks every pack alignment (ALIGN 1); padded lanes
    (3, 1000),   # a multiple of 8, not 16: narrower packs; online: 4 interpreter tiles, last masked
    (2, 1025),   # one past warp_per_row (1024); fused BLOCK 2048; CUDA reductions: block per row
    (1, 4099),   # online: 17 interpreter tiles, masked 3-element tail; split: several chunks
]
# Reductions under the interpreter run their max one element at a time: keep them narrower.
CPU_REDUCE_SHAPES = [
    (1, 1),      # one value per row
    (7, 3),      # narrower than a pack; many rows per tile
    (3, 33),     # one past a warp
    (7, 129),    # odd: pack 1; Triton block pads to 256
    (2, 600),    # several Triton tiles with a masked tail; CUDA warp per row, odd pack count
]
# Whole-tensor reductions (dim=None: a contiguous 1-D tensor), in every dtype; 3001 in fp32.
CPU_WHOLE_SIZES = [
    1,           # one element
    1000,        # one grid-stride tile with a masked tail
]
CPU_WHOLE_SIZE_FP32 = 3001  # several tiles of the interpreter's two-stage grid, odd tail

# The full sweep: every width any variant treats differently, for 1, 2, 7 and 1000 rows.
GPU_WIDTHS = [
    1, 3,            # degenerate rows: many rows per warp / program, scalar loads
    31, 32, 33,      # around a warp of lanes
    127, 128, 129,   # around 4 warps; 129 breaks every pack alignment
    511, 512,        # warp_per_row with 16 values per lane
    1000,            # a multiple of 8 only: full packs, padded lanes
    1024, 1025,      # widest warp_per_row / first width past it (auto: cluster_regs)
    1128,            # a multiple of 8 between block sizes (sanitizer shape 37 x 1128)
    2047, 2048,      # block paths with scalar packs / 16-byte packs
    4096, 4097,      # naive's widest (NAIVE_MAX_COLS) / naive declines; Triton reductions: one tile + 1
    4099,            # online: odd tile count, masked 3-element tail
    8192,            # block_smem 32 KB fp32 rows; Triton online: exactly one tile
    12345,           # odd: scalar packs in every block path, uneven cluster slices
    16384, 16385,    # one 512-thread cluster_regs CTA (fp32); odd: past fused's odd-row limit
    32768, 32769,    # FUSED_MAX_COLS; one 1024-thread CTA; first odd width past fused (split)
    65536,           # fp32 block_smem declines, block_hybrid; split: 8-16 programs per row
    70000,           # past block_smem for fp32 and past one CTA's registers: cluster paths, uneven
    131075,          # odd 2^17 + 3: scalar packs across cluster CTAs, split with odd chunks
    262144,          # 1 MB fp32 rows: 16-CTA clusters; split 32-64 programs; online past L2
]
GPU_ROWS = [1, 2, 7, 1000]  # 7: every make_rows extreme; 1000: more rows than SMs, persistent grids loop
GPU_SHAPES = [               # beside the sweep
    (200_000, 3),            # many tiny rows: every grid-stride and persistent loop runs many times
    (2, 5000),               # two rows wider than warp_per_row
    (129, 20000),            # odd row count, block paths with 16-byte packs
    (3, 70000),              # fp32 past block_smem
]
SLOW_ELEMENTS = 1 << 24      # cases this large are also marked `slow` (-m "not slow" leaves them out)
GPU_WHOLE_SIZES = [1, 1000, 100_003, 2 ** 28]  # 2**28: 1 GiB of fp32, every partial busy

# -- values ---------------------------------------------------------------------------------

INF, NAN = math.inf, math.nan


def _finite_extremes(row, cols, dtype):
    big = 0.9 * torch.finfo(dtype).max
    row[0], row[-1] = big, -big


# (name, fill): rows whose results torch defines through its NaN/inf rules, the union of
# the CUDA and Triton suites' rows. Applied to rows of make_rows values; in rows of fewer
# than 5 columns some of them coincide (one column: "NaN next to -inf" is "one -inf").
SPECIAL_ROWS = (
    ("all -inf", lambda r, c, d: r.fill_(-INF)),                        # softmax: NaN; sum, max: -inf
    ("every other -inf", lambda r, c, d: r[::2].fill_(-INF)),           # those give 0 (log: -inf)
    ("-inf over the leading 3/5", lambda r, c, d: r[: (3 * c) // 5].fill_(-INF)),  # whole leading tiles
    ("one -inf first", lambda r, c, d: r.__setitem__(0, -INF)),
    ("one -inf last", lambda r, c, d: r.__setitem__(-1, -INF)),
    ("one finite among -inf", lambda r, c, d: (r.fill_(-INF), r.__setitem__(c // 3, 1.5))),
    ("one +inf in the middle", lambda r, c, d: r.__setitem__(c // 2, INF)),  # softmax: all NaN
    ("one +inf second", lambda r, c, d: r.__setitem__(min(1, c - 1), INF)),
    ("two +inf", lambda r, c, d: (r.__setitem__(0, INF), r.__setitem__(-1, INF))),
    ("+inf and -inf", lambda r, c, d: (r.__setitem__(0, INF), r.__setitem__(-1, -INF))),  # sum: NaN
    ("NaN in the middle", lambda r, c, d: r.__setitem__(c // 2, NAN)),
    ("NaN in the last (tail) element", lambda r, c, d: r.__setitem__(-1, NAN)),
    ("NaN next to -inf", lambda r, c, d: (r.__setitem__(0, NAN), r.__setitem__(min(1, c - 1), -INF))),
    ("NaN and +inf", lambda r, c, d: (r.__setitem__(0, NAN), r.__setitem__(-1, INF))),  # max: NaN wins
    ("all NaN", lambda r, c, d: r.fill_(NAN)),
    ("finite extremes whose difference overflows", _finite_extremes),
    ("all equal", lambda r, c, d: r.fill_(2.5)),                        # softmax: uniform
    ("all equal near the dtype max", lambda r, c, d: r.fill_(0.9 * torch.finfo(d).max)),
    ("plain", lambda r, c, d: None),
)


def special_rows(cols: int, dtype: torch.dtype, device=DEVICE, seed: int = 0) -> torch.Tensor:
    """One row per SPECIAL_ROWS entry, in that order, over make_rows values."""
    x = make_rows(len(SPECIAL_ROWS), cols, torch.float32, device, seed=seed, extremes=False)
    for row, (_, fill) in zip(x, SPECIAL_ROWS):
        fill(row, cols, dtype)
    return x.to(dtype)


def _numel(shape) -> int:
    return math.prod(shape) if shape else 1


# Magnitudes each dtype holds with room to spare (fp16 tops out at 65504).
LARGE = {torch.float32: 1e4, torch.bfloat16: 1e4, torch.float16: 6e4}


def fill(shape, dtype, device, values: str = "rows", seed: int = 0) -> torch.Tensor:
    """A contiguous tensor of `shape`: make_rows rows along the last dim ("rows", with the
    extremes of make_rows), SPECIAL_ROWS ("special", 2-D of len(SPECIAL_ROWS) rows), or
    uniform in +-LARGE with each row's maximum the extreme itself ("large": exp() of any
    unshifted value overflows, and log-softmax is ~0 at the maximum)."""
    if values == "special":
        assert shape[0] == len(SPECIAL_ROWS)
        return special_rows(shape[1], dtype, device, seed)
    if values == "large":
        gen = torch.Generator(device=device).manual_seed(seed)
        x = (torch.rand(shape, generator=gen, device=device) * 2 - 1) * LARGE[dtype]
        x[..., shape[-1] // 2] = LARGE[dtype]
        return x.to(dtype)
    if _numel(shape) == 0:
        return torch.empty(shape, dtype=dtype, device=device)
    cols = shape[-1] if shape else 1
    return make_rows(_numel(shape) // cols, cols, dtype, device, seed=seed).reshape(shape)


# -- cases --------------------------------------------------------------------------------------

def _identity(t):
    return t


@dataclass(frozen=True)
class Case:
    """An input: a contiguous base of `base_shape`, seen through `view`, along `dim`.

    `values` is "rows" (make_rows) or "special" (SPECIAL_ROWS). `dtype` None: the case runs
    in each of fp32, fp16 and bf16 (see `expand_dtypes`). `gpu`: too big for the CPU
    interpreter. `peer`: also run for peers (each of which may compile per shape).
    """

    name: str
    base_shape: tuple
    view: Callable[[torch.Tensor], torch.Tensor] = _identity
    dim: int | tuple | None = -1
    keepdim: bool = False
    values: str = "rows"
    dtype: torch.dtype | None = None
    gpu: bool = False
    peer: bool = False
    seed: int = 0

    @property
    def id(self) -> str:
        dtype = "" if self.dtype is None else f"-{DTYPE_NAMES.get(self.dtype, str(self.dtype)[6:])}"
        return f"{self.name}{dtype}"

    def root(self, device=DEVICE, dtype=None) -> torch.Tensor:
        """The contiguous base tensor the input views."""
        return fill(self.base_shape, dtype or self.dtype, device, self.values, self.seed)

    def input(self, device=DEVICE) -> tuple[torch.Tensor, torch.Tensor]:
        """(the input, the contiguous base whose storage it views)."""
        base = self.root(device)
        return self.view(base), base

    def in_layout(self, dense: torch.Tensor) -> torch.Tensor:
        """`dense` (a contiguous tensor of the view's shape) laid out like the input: the same
        view of a base of `base_shape`, whose other elements are zero. Where the view repeats
        a base element (expanded views), the repeated values must be equal in `dense`."""
        index = self.view(torch.arange(_numel(self.base_shape), device=dense.device).reshape(self.base_shape))
        base = torch.zeros(self.base_shape, dtype=dense.dtype, device=dense.device)
        base.view(-1)[index.reshape(-1)] = dense.reshape(-1)
        return self.view(base)

    def backward_inputs(self, op: str, device=DEVICE) -> tuple[torch.Tensor, torch.Tensor]:
        """(y, dy) for a backward op, both in the input's layout: y the forward op's float64
        result on the case's input rounded to its dtype, dy from make_gradient."""
        x, _ = self.input(device)
        fn = torch.softmax if FORWARD_OF[op] == "softmax" else torch.log_softmax
        y = self.in_layout(fn(x.to(torch.float64), self.dim).to(x.dtype))
        cols = self.base_shape[-1] if self.base_shape else 1
        grad = make_gradient(_numel(self.base_shape) // max(cols, 1), cols, x.dtype, device, seed=self.seed) \
            if _numel(self.base_shape) else torch.empty(self.base_shape, dtype=x.dtype, device=device)
        return y, self.view(grad.reshape(self.base_shape))


def expand_dtypes(cases, dtypes=tuple(DTYPES.values())) -> list[Case]:
    """Each case with dtype None once per dtype; cases with a dtype as they are."""
    out = []
    for case in cases:
        if case.dtype is not None:
            out.append(case)
        else:
            out.extend(Case(**{**case.__dict__, "dtype": d}) for d in dtypes)
    return out


def _shape_cases(shapes, gpu=False, peer_shape=(7, 129)) -> list[Case]:
    return [Case(f"{r}x{c}", (r, c), gpu=gpu, peer=(r, c) == peer_shape, seed=r * 7919 + c) for r, c in shapes]


# Layouts of row ops (and of their backward ops): name, base shape, view, dim.
ROW_VIEWS = [
    Case("transposed, dim=-1 (copied to rows)", (33, 9), lambda t: t.t()),
    Case("transposed, dim=0 (the base's rows, no copy)", (9, 33), lambda t: t.t(), dim=0, peer=True),
    Case("rows with a step, columns offset by 3", (6, 1003), lambda t: t[::2, 3:], seed=1),
    Case("offset by one element (misaligned), row stride = cols", (3 * 129 + 1,),
         lambda t: t[1:].view(3, 129)),
    Case("20-byte offset, odd row stride 1037", (4, 1037), lambda t: t[1:, 5:1005]),
    Case("two-element offset, row stride 320", (3, 320), lambda t: t[:, 2:130]),
    Case("expanded rows (row stride 0)", (1, 130), lambda t: t.expand(3, 130)),
    Case("expanded along dim (column stride 0, copied)", (3, 1), lambda t: t.expand(3, 130)),
    Case("3-D, dim=1", (2, 5, 3), dim=1),
    Case("3-D, dim=0", (6, 2, 2), dim=0),
    Case("3-D, dim=-2", (2, 6, 2), dim=-2),
    Case("3-D without a rows view, dim=-1", (3, 2, 40), lambda t: t.transpose(0, 1)),
    Case("4-D, dim=2", (2, 1, 4, 3), dim=2),
    Case("1-D", (129,), dim=0),
    Case("1-D strided", (258,), lambda t: t[::2], dim=0),
    Case("0-dim, dim=0", (), dim=0, peer=True),
    Case("0-dim, dim=-1", (), dim=-1),
]
ROW_VIEWS_16BIT = [  # alignment changes with the element size: rerun the misaligned views in bf16/fp16
    Case("offset by one element (misaligned), row stride = cols", (3 * 129 + 1,),
         lambda t: t[1:].view(3, 129), dtype=torch.bfloat16),
    Case("two-element offset, row stride 320", (3, 320), lambda t: t[:, 2:130], dtype=torch.float16),
    Case("one-element offset, odd row stride", (4, 1030), lambda t: t[1:, 1:], dtype=torch.bfloat16),
]
EMPTY_ROW_CASES = [
    Case("empty 0x5", (0, 5)),
    Case("empty 5x0", (5, 0)),
    Case("empty 0x0", (0, 0)),
    Case("empty 2x0x3, dim=1", (2, 0, 3), dim=1),
    Case("empty 2x0x3, dim=0", (2, 0, 3), dim=0),
    Case("empty 1-D", (0,), dim=0),
    Case("empty 0x2 with column stride 2", (0, 4), lambda t: t[:, ::2]),
]
# GPU views: the same layouts at widths where the kernels' pack widths and paths differ.
GPU_ROW_VIEWS = [
    Case(f"{name} {cols}", shape, view, gpu=True)
    for cols in (128, 1000, 4096, 16384, 65536)
    for name, shape, view in [
        ("column offset by one", (65, cols + 2), lambda t, c=cols: t[:, 1:c + 1]),
        ("row stride cols + 2", (65, cols + 2), lambda t, c=cols: t[:, :c]),
        ("flat offset by one", (64 * cols + 1,), lambda t, c=cols: t[1:].view(64, c)),
    ]
] + [
    Case(f"misaligned odd row stride {cols}", (301, cols + 1), lambda t: t[1:, 1:], gpu=True, dtype=torch.bfloat16)
    for cols in (4096, 20000, 40000)
] + [Case("700x129, dim=0 (columns, copied to rows)", (700, 129), dim=0, gpu=True),
     Case("transposed 129x700 view (column stride 129, copied)", (700, 129), lambda t: t.t(), gpu=True)]


def _special_cases(widths, dtypes, gpu=False) -> list[Case]:
    n = len(SPECIAL_ROWS)
    return [Case(f"special rows x{c}", (n, c), values="special", dtype=d, gpu=gpu,
                 peer=(c, d) == (widths[0], torch.float32)) for c in widths for d in dtypes]


def _large_cases(widths, dtypes, gpu=False) -> list[Case]:
    return [Case(f"large magnitudes 16x{c}", (16, c), values="large", dtype=d, gpu=gpu, seed=c)
            for c in widths for d in dtypes]


def row_op_cases(gpu: bool = HAS_GPU) -> list[Case]:
    """Cases of softmax / log-softmax and their backward ops."""
    dtypes = tuple(DTYPES.values())
    cases = expand_dtypes(_shape_cases(CPU_SHAPES))
    cases += expand_dtypes(ROW_VIEWS, (torch.float32,)) + ROW_VIEWS_16BIT
    cases += expand_dtypes(EMPTY_ROW_CASES, (torch.float32,))
    # 300: two interpreter tiles of online, the first all -inf in the "-inf over the leading 3/5" row
    cases += _special_cases([5], dtypes) + _special_cases([1, 2, 300], (torch.float32,))
    cases += _large_cases([100], dtypes)
    if gpu:
        sweep = [(r, c) for c in GPU_WIDTHS for r in GPU_ROWS if (r, c) not in CPU_SHAPES] + GPU_SHAPES
        cases += expand_dtypes(_shape_cases(sweep, gpu=True, peer_shape=None))
        cases += expand_dtypes(GPU_ROW_VIEWS, (torch.float32,))
        cases += _special_cases([1, 2], (torch.float16, torch.bfloat16), gpu=True)  # fp32: above
        cases += _special_cases([33, 1000, 4099, 16385, 70000, 262144], dtypes, gpu=True)
        cases += _large_cases([2048, 20000], dtypes, gpu=True)
    return cases


def _reduce_views() -> list[Case]:
    return [
        Case("rows, dim=-1, keepdim", (7, 129), keepdim=True),
        Case("dim=0 of rows (columns)", (7, 129), dim=0),
        Case("transposed, dim=0 (no copy)", (9, 33), lambda t: t.t(), dim=0),
        Case("rows with a step, columns offset by 3", (6, 403), lambda t: t[::2, 3:], seed=1),
        Case("offset by one element (misaligned)", (7 * 129 + 1,), lambda t: t[1:].view(7, 129)),
        Case("expanded rows (row stride 0)", (1, 130), lambda t: t.expand(3, 130)),
        Case("3-D, dim=1", (2, 5, 3), dim=1),
        Case("3-D, dims (0, 2)", (4, 5, 33), dim=(0, 2), peer=True),
        Case("3-D, dims (-1, 0), keepdim", (4, 5, 33), dim=(-1, 0), keepdim=True),
        Case("3-D, dims (0, 1, 2) (the whole tensor)", (4, 5, 33), dim=(0, 1, 2)),
        Case("3-D, dim=None, keepdim", (4, 5, 33), dim=None, keepdim=True),
        Case("3-D transposed, dim=None (copied)", (3, 2, 40), lambda t: t.transpose(0, 1), dim=None),
        Case("4-D, dims (1, 3)", (2, 3, 4, 5), dim=(1, 3)),
        Case("1-D, dim=0", (129,), dim=0),
        Case("1-D strided, dim=None", (258,), lambda t: t[::2], dim=None),
        Case("0-dim, dim=None", (), dim=None),
        Case("0-dim, dim=0", (), dim=0),
        Case("0-dim, dim=-1, keepdim", (), dim=-1, keepdim=True),
    ]


EMPTY_REDUCE_CASES = [  # sums are 0; the max of nothing raises like torch.amax
    Case("empty 0x5, dim=-1", (0, 5)),
    Case("empty 5x0, dim=-1", (5, 0)),
    Case("empty 5x0, dim=0", (5, 0), dim=0),
    Case("empty 2x0x3, dims (0, 2)", (2, 0, 3), dim=(0, 2)),
    Case("empty 1-D, dim=None", (0,), dim=None),
    Case("empty 1-D, dim=0", (0,), dim=0),                    # amax: IndexError (dim=None: RuntimeError)
    Case("empty 0x2 with column stride 2, dim=-1", (0, 4), lambda t: t[:, ::2]),
]


def reduce_cases(gpu: bool = HAS_GPU) -> list[Case]:
    """Cases of reduce_sum / reduce_max: rows (dim=-1), whole tensors (dim=None), views
    with int, tuple and None dims and keepdim, special values along rows and as whole tensors."""
    dtypes = tuple(DTYPES.values())
    cases = expand_dtypes(_shape_cases(CPU_REDUCE_SHAPES))
    cases += expand_dtypes([Case(f"whole {n}", (n,), dim=None, peer=n == 1000, seed=n) for n in CPU_WHOLE_SIZES])
    cases += [Case(f"whole {CPU_WHOLE_SIZE_FP32}", (CPU_WHOLE_SIZE_FP32,), dim=None, dtype=torch.float32, seed=3)]
    cases += expand_dtypes(_reduce_views(), (torch.float32,))
    cases += [Case("offset by one element (misaligned)", (7 * 129 + 1,), lambda t: t[1:].view(7, 129),
                   dtype=torch.bfloat16)]
    cases += expand_dtypes(EMPTY_REDUCE_CASES, (torch.float32,))
    cases += _special_cases([5], dtypes) + _special_cases([130], (torch.float32,))  # 130: Triton block pads to 256
    cases += _large_cases([100], (torch.float32, torch.float16))
    n = len(SPECIAL_ROWS)
    cases += [Case(f"special row {i} ({name}) as a whole tensor", (n, 7), lambda t, i=i: t[i], dim=None,
                   values="special", dtype=torch.float32) for i, (name, _) in enumerate(SPECIAL_ROWS)]
    if gpu:
        sweep = [(r, c) for c in GPU_WIDTHS for r in GPU_ROWS if (r, c) not in CPU_REDUCE_SHAPES] + GPU_SHAPES
        cases += expand_dtypes(_shape_cases(sweep, gpu=True, peer_shape=None))
        whole = [n for n in GPU_WHOLE_SIZES if n not in CPU_WHOLE_SIZES]  # 100_003 and 2**28
        cases += expand_dtypes([Case(f"whole {n}", (n,), dim=None, gpu=True, seed=n) for n in whole])
        cases += [Case(f"misaligned {name}", shape, view, dim=dim, gpu=True, dtype=torch.float16)
                  for name, shape, view, dim in [
                      ("2-byte offset", (1001, 4104), lambda t: t[1:, 1:], -1),
                      ("4-byte offset", (1001, 4104), lambda t: t[1:, 2:1026], -1),
                      ("16-byte offset", (1001, 4104), lambda t: t[:, 8:], -1),
                      ("odd width, warp per row", (1001, 4104), lambda t: t[:, 3:600], -1),
                      ("1-D, odd start", (1001 * 4104,), lambda t: t[3:100_003], None),
                      ("columns of a transpose", (1001, 4104), lambda t: t.t(), 0),
                  ]]
        cases += _special_cases([4099, 70000], dtypes, gpu=True)
    return cases


def cases_for(op: str, gpu: bool = HAS_GPU) -> list[Case]:
    return reduce_cases(gpu) if op in REDUCE_OPS else row_op_cases(gpu)


# -- targets: every (backend, op, variant) the registry lists ------------------------------

@dataclass(frozen=True)
class Target:
    backend: str
    op: str
    variant: str

    @property
    def id(self) -> str:
        return f"{self.backend}-{self.op}-{self.variant}"


def is_peer(backend) -> bool:
    """A backend that is neither this package's nor the torch baseline (comparison.peers)."""
    return not backend.own and backend.name != BASELINE


def targets(ops=comparison.OPS) -> tuple[list[Target], dict[str, str]]:
    """(every (backend, op, variant) that an available backend lists, {unavailable backend: why})."""
    found, unavailable = [], {}
    for name in list_backends():
        backend = get_backend(name)
        why = backend.unavailable_reason()
        if why is not None:
            unavailable[name] = why
            continue
        found += [Target(name, op, variant) for op in ops for variant in backend.variants(op)]
    return found, unavailable


def matrix_params(ops=comparison.OPS, cases: Callable[[str], list[Case]] = cases_for) -> list:
    """pytest params (target, case) for every target and case; peers get the cases marked
    `peer`; an unavailable backend is one skipped param carrying its reason."""
    found, unavailable = targets(ops)
    params = []
    for target in found:
        peer = is_peer(get_backend(target.backend))
        for case in cases(target.op):
            if peer and not case.peer:
                continue
            marks = [pytest.mark.gpu] if case.gpu else []
            if _numel(case.base_shape) >= SLOW_ELEMENTS:
                marks.append(pytest.mark.slow)
            params.append(pytest.param(target, case, id=f"{target.id}-{case.id}", marks=marks))
    for name, why in unavailable.items():
        params.append(pytest.param(None, None, id=f"{name}-unavailable",
                                   marks=pytest.mark.skip(reason=f"backend {name!r} is unavailable: {why}")))
    return params


# -- running and checking ---------------------------------------------------------------------

def _call(op: str, x, dim, keepdim: bool, backend: str, variant: str, dy=None):
    fn = getattr(comparison, op)
    if op in REDUCE_OPS:
        return fn(x, dim, keepdim, backend=backend, variant=variant)
    if op in BACKWARD_OPS:
        return fn(x, dy, dim, backend=backend, variant=variant)
    return fn(x, dim, backend=backend, variant=variant)


def _dims(dim, ndim: int) -> tuple[int, ...]:
    """Reduction dims as torch.sum reads them, normalised and sorted (written out here
    rather than taken from the package, so that the check does not share its code)."""
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return tuple(range(ndim))
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    return tuple(sorted({d % max(ndim, 1) for d in dims})) if ndim else ()


def expected_shape(op: str, x: torch.Tensor, dim, keepdim: bool) -> tuple:
    if op not in REDUCE_OPS:
        return tuple(x.shape)
    dims = _dims(dim, x.dim())
    if keepdim:
        return tuple(1 if i in dims else s for i, s in enumerate(x.shape))
    return tuple(s for i, s in enumerate(x.shape) if i not in dims)


def expected_dtype(op: str, dtype: torch.dtype) -> torch.dtype:
    if op == "reduce_sum" and not dtype.is_floating_point:
        return torch.int64
    return dtype


def canonical_pair(op: str, x: torch.Tensor, out: torch.Tensor, dim, dy=None):
    """(x, out, dy) as the checker takes them: rows along the last dim, or 1-D and 0-dim
    for a whole-tensor reduction. Made with plain torch reshapes, independent of the
    package's canonical views."""
    if op in REDUCE_OPS:
        dims = _dims(dim, x.dim())
        if len(dims) == x.dim():
            return x.reshape(-1), out.reshape(()), None
        kept = [d for d in range(x.dim()) if d not in dims]
        cols = _numel([x.shape[d] for d in dims])
        return x.permute(*kept, *dims).reshape(-1, cols), out.reshape(-1), None
    if x.dim() == 0:
        return x.reshape(1, 1), out.reshape(1, 1), None if dy is None else dy.reshape(1, 1)
    d = dim % x.dim()
    cols = x.shape[d]

    def rows(t):
        return t.movedim(d, -1).reshape(-1, cols)

    return rows(x), rows(out), None if dy is None else rows(dy)


def _storage_root(t: torch.Tensor) -> torch.Tensor:
    return t._base if t._base is not None else t


def _bits(t: torch.Tensor) -> torch.Tensor:
    return t.view(BITS[t.element_size()]) if t.dtype.is_floating_point else t


def assert_unchanged(before: list[tuple[torch.Tensor, torch.Tensor]]) -> None:
    for root, copy in before:
        assert torch.equal(_bits(root), _bits(copy)), "the call modified its input (or memory past its view)"


def _poison_allocator(shape, dtype, device) -> None:
    """On a GPU: hand torch's caching allocator a NaN-filled block of the output's size, which
    the next allocation of that size (the output) reuses."""
    if torch.device(device).type == "cuda" and dtype.is_floating_point:
        block = torch.full((max(1, _numel(shape)),), NAN, dtype=dtype, device=device)
        del block


def check_declined(target: Target, support, x, dim, keepdim=False, dy=None) -> None:
    """A variant that cannot serve x says why, and an explicit call raises that reason."""
    assert support.reason, f"{target.id} declines {tuple(x.shape)} without a reason"
    with pytest.raises(support.error) as raised:
        _call(target.op, x, dim, keepdim, target.backend, target.variant, dy)
    assert support.reason in str(raised.value), (support.reason, str(raised.value))
    backend = get_backend(target.backend)
    if target.variant == "auto" and backend.own and x.dtype in backend.dtypes_for(target.op):
        assert backend.device_reason(x) is not None, \
            f"{target.id}: auto declined an input of a dtype and device it serves: {support.reason}"


def judge(backend_name: str, agreements) -> None:
    """Fail on any disagreement of this package's kernels; for peers and the baseline, an
    expected failure whose reason is the checker's summary (a finding)."""
    bad = list(dict.fromkeys(a.summary() for a in agreements if not a.ok))
    if not bad:
        return
    message = "\n".join(bad)
    if get_backend(backend_name).own:
        pytest.fail(message)
    pytest.xfail(f"backend {backend_name!r} is not this package's: its disagreement is a finding: {message}")


def _agreement(op, x, out, dim, dy=None):
    xc, oc, dyc = canonical_pair(op, x, out, dim, dy)
    return check(op, xc, oc, dy=dyc)


def run_and_check(target: Target, x: torch.Tensor, dim=-1, *, keepdim: bool = False,
                  dy: torch.Tensor | None = None, judge_now: bool = True):
    """Run `target` on `x` (backward ops: x is y, with `dy`) and check it as the module
    docstring says. Returns (output, agreements), or (None, []) when the variant declines
    (after checking the refusal). With judge_now False the caller judges the agreements."""
    op, backend = target.op, get_backend(target.backend)
    support = backend.supports(x, op, target.variant, dim=dim)
    if not support:
        check_declined(target, support, x, dim, keepdim, dy)
        return None, []
    if op in REDUCE_OPS and x.numel() == 0:
        try:
            torch_reduce(op, x, dim, keepdim)
        except (IndexError, RuntimeError) as exc:  # the max of nothing: torch's error
            with pytest.raises(type(exc)):
                _call(op, x, dim, keepdim, target.backend, target.variant)
            return None, []
    snapshot = [(root, root.clone()) for root in {id(r): r for r in map(_storage_root, [x] + ([dy] if dy is not None
                                                                                             else []))}.values()]
    shape = expected_shape(op, x, dim, keepdim)
    dtype = expected_dtype(op, x.dtype)
    _poison_allocator(shape, dtype, x.device)
    out = _call(op, x, dim, keepdim, target.backend, target.variant, dy)
    assert tuple(out.shape) == shape, f"shape {tuple(out.shape)}, torch gives {shape}"
    assert out.dtype == dtype and out.device == x.device, (out.dtype, out.device)
    assert out.is_contiguous(), f"a result with strides {out.stride()}"
    assert_unchanged(snapshot)
    agreements = []
    if x.numel() and x.dtype in (*DTYPES.values(), torch.float64):
        agreements.append(_agreement(op, x, out, dim, dy))
        agreements.append(_check_poisoned(target, backend, x, dim, dy))
        assert_unchanged(snapshot)
    elif x.numel():  # integer and bool inputs: exactly torch's result
        assert torch.equal(out, torch_reduce(op, x, dim, keepdim))
    if judge_now:
        judge(target.backend, agreements)
    return out, agreements


def check_double_backward_refused(op: str, backend: str, device, message: str) -> None:
    """A gradient of `op` on `backend` recorded with create_graph agrees with float64
    autograd, and differentiating it again raises `message` (a backend whose C++ node
    has no double backward): recording is allowed, only the second derivative refuses."""
    x = make_rows(4, 300, torch.float32, device, seed=10).requires_grad_(True)
    y = getattr(comparison, op)(x, backend=backend)
    w = torch.randn_like(y)
    (dx,) = torch.autograd.grad((y * w).sum(), x, create_graph=True)  # recording is allowed
    x64 = x.detach().double().requires_grad_(True)
    (ref,) = torch.autograd.grad((getattr(torch, op)(x64, -1) * w.double()).sum(), x64)
    torch.testing.assert_close(dx.double(), ref, atol=2e-6, rtol=1e-5)
    with pytest.raises(RuntimeError, match=message):
        torch.autograd.grad(dx.sum(), x)


def torch_reduce(op: str, x: torch.Tensor, dim, keepdim: bool) -> torch.Tensor:
    """torch.sum / torch.amax with the dims spelled out (dim=None: all of them)."""
    fn = torch.sum if op == "reduce_sum" else torch.amax
    if dim is None:  # torch's own dim=None form (amax of nothing: a RuntimeError, not an IndexError)
        out = fn(x)
        return out.reshape([1] * x.dim()) if keepdim else out
    return fn(x, dim=_dims(dim, x.dim()), keepdim=keepdim)


def _check_poisoned(target: Target, backend, x, dim, dy):
    """The kernel writes into a NaN-filled output (Backend.run_into on the canonical tensor the
    dispatcher hands it): every element it should write must be written."""
    op = target.op
    if op in REDUCE_OPS:
        canonical = reduce_view(x, _dims(dim, x.dim()))
        dyc = None
        out_shape = canonical.shape[:1] if canonical.dim() == 2 else ()
    else:
        d = dim % max(x.dim(), 1)
        canonical, dyc = rows_view(x, d), None if dy is None else rows_view(dy, d)
        out_shape = canonical.shape
    assert backend.supports_canonical(canonical, op, target.variant), "supports() and supports_canonical() differ"
    out = torch.full(out_shape, NAN, dtype=x.dtype, device=x.device)
    result = backend.run_into(canonical, op, target.variant, out, dy=dyc)
    assert result is out or torch.equal(_bits(result), _bits(out)), "run_into did not fill the given output"
    return check(op, canonical, out, dy=dyc)


def check_gradient(target: Target, case: Case, device=DEVICE) -> None:
    """softmax(x, backend=b).backward(dy) (forward and backward kernels through autograd)
    against float64 autograd: no worse than twice torch's own error."""
    base = case.root(device).requires_grad_(True)
    x = case.view(base)
    if not get_backend(target.backend).supports(x, target.op, target.variant, dim=case.dim):
        return  # refusals are checked by the matrix
    dy = make_gradient(max(1, x.numel() // max(1, x.shape[-1] if x.dim() else 1)),
                       x.shape[-1] if x.dim() else 1, x.dtype, device, seed=case.seed).reshape(x.shape)
    fn = getattr(comparison, target.op)
    y = fn(x, case.dim, backend=target.backend, variant=target.variant)
    (dx,) = torch.autograd.grad(y, x, dy)
    assert dx.shape == x.shape and dx.dtype == x.dtype and dx.device == x.device
    result = gradient_agreement(target.op, x.detach(), dy, dx, case.dim)
    if not result.ok and not get_backend(target.backend).own:
        pytest.xfail(f"backend {target.backend!r} is not this package's: {result.summary()}")
    assert result.ok, result.summary()

