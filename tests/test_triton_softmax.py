"""Triton softmax / log-softmax (kernels_triton/softmax*.py) against the float64 reference.

Without a GPU the kernels run on CPU tensors under Triton's interpreter (tests/conftest.py
sets TRITON_INTERPRET=1), with tiles capped small so that the test widths take several
`online` tiles and several `fused` row blocks; with a GPU the same tests run compiled,
and the `gpu` tests add the full sweep (widths to 262144, 1000 rows), compiled
register/spill checks, misaligned views, a tensor over 2**31 elements, side streams and
a second device. bf16 runs everywhere: under the interpreter the kernels round bf16
results in the fp32 bits (kernels_triton/downcast.py), since the interpreter's own
conversion truncates; `test_bf16_results_are_rounded_to_nearest_even` holds them to it.
"""
from __future__ import annotations

import math

import pytest
import torch

from comparison import get_backend, log_softmax, softmax
from comparison.agreement import check
from comparison.api import OP_FUNCTIONS
from comparison.canonical import rows_view
from comparison.inputs import make_rows

BACKEND = get_backend("triton")
pytestmark = [
    pytest.mark.skipif(not BACKEND.is_available(),
                       reason=f"triton backend unavailable: {BACKEND.unavailable_reason()}"),
    # The interpreter computes with numpy, which warns where the GPU quietly gives NaN
    # (-inf - -inf: padding lanes, rows of -inf), inf (differences of values near the
    # dtype's maximum, fp16 outputs below -65504) or 1/0 and log(0) (rows of -inf): all
    # as torch does; the results are checked instead.
    pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:divide by zero encountered:RuntimeWarning"),
]
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
OPS = ("softmax", "log_softmax")
VARIANTS = ("fused", "online", "split", "auto")
DTYPES = [torch.float32, torch.float16, torch.bfloat16]
DTYPE_IDS = ["fp32", "fp16", "bf16"]
BITS = {torch.float32: torch.int32, torch.float16: torch.int16, torch.bfloat16: torch.int16}


def _modules():
    """(op module, launch helpers, fused, online, split, policy, row helpers); imports
    Triton, so only after the skip check."""
    from kernels_triton import (launch, softmax, softmax_fused, softmax_online, softmax_policy,
                                softmax_rows, softmax_split)
    return softmax, launch, softmax_fused, softmax_online, softmax_split, softmax_policy, softmax_rows


# Widths for every device, with the paths they take. Under the interpreter `online` tiles
# are 256 wide and `fused` blocks at most 2048 elements (INTERPRET_* in softmax_*.py).
CPU_WIDTHS = [
    1,      # one value per row: fused packs up to 512 rows per block; output 1 / 0
    3,      # narrower than any vector: odd width, ALIGN 1, element-by-element loads
    31,     # odd width, BLOCK 32 with one masked lane
    32,     # exact power of two: no column mask in effect, ALIGN 16
    33,     # BLOCK 64, 31 masked lanes
    127,    # odd width just under a power of two
    128,    # the narrow benchmark width: many rows per fused block
    129,    # BLOCK 256, ALIGN 1
    1000,   # ALIGN 8 (a multiple of 8, not 16): the divisibility hint; online: 4 tiles, last one masked
    1025,   # fused BLOCK 2048, one row per block here; online: odd tile count, empty last tile
    4099,   # online: 17 tiles, masked 3-element tail, reversed pass 2 over 9 pairs
]
CPU_ROWS = [1, 2, 7]  # 7: every extreme row of make_rows, and a short last fused block


def run_and_check(op: str, x: torch.Tensor, variant: str, dim: int = -1) -> torch.Tensor:
    """Run `op` through the public API, check it against the float64 reference, and check
    the result's form and that the input is unchanged (bit for bit); returns the result."""
    before = x.clone()
    out = OP_FUNCTIONS[op](x, dim, backend="triton", variant=variant)
    assert out.shape == x.shape and out.dtype == x.dtype and out.device == x.device
    assert out.is_contiguous()
    canonical = rows_view(x, dim % x.dim())
    agreement = check(op, canonical, out.movedim(dim, -1).reshape(canonical.shape))
    assert agreement.ok, agreement.summary()
    assert torch.equal(x.view(BITS[x.dtype]), before.view(BITS[x.dtype])), "input modified"
    return out


def special_rows(cols: int, dtype: torch.dtype, device) -> torch.Tensor:
    """Rows whose softmax torch defines through NaN/inf rules; `cols` >= 3."""
    inf, nan = math.inf, math.nan
    x = make_rows(10, cols, torch.float32, device, extremes=False)
    x[0] = -inf                          # all -inf: all NaN
    x[1, ::2] = -inf                     # every other -inf: those give 0 (log: -inf)
    x[2, : (cols * 3) // 5] = -inf       # -inf over whole leading tiles, then finite values
    x[3, cols // 2] = inf                # one +inf: all NaN
    x[4, 0], x[4, -1] = inf, inf         # two +inf: all NaN
    x[5, -1] = nan                       # a NaN in the last (tail) element: all NaN
    x[6, 0], x[6, 1] = nan, -inf         # NaN next to -inf: all NaN
    big = 0.9 * torch.finfo(dtype).max
    x[7, 0], x[7, -1] = big, -big        # finite extremes: their difference overflows
    x[8] = nan                           # all NaN
    x[9, -1] = -inf                      # one -inf among finite values
    return x.to(dtype)


# -- every device: compiled on a GPU, interpreted on CPU ------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("cols", CPU_WIDTHS)
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_rows(op, variant, cols, dtype):
    for rows in CPU_ROWS:
        run_and_check(op, make_rows(rows, cols, dtype, DEVICE, seed=rows), variant)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=["fp16", "bf16"])
@pytest.mark.parametrize("thread_sums", [False, True], ids=["two_pass", "thread_sums"])
@pytest.mark.parametrize("op", OPS)
def test_fused_paired_rows(op, thread_sums, dtype, monkeypatch):
    # 16-bit rows held two values per 32-bit word (pairs.py). `fused` pairs only rows of
    # FUSED_PAIRS_MIN_COLS and more (and reduces max and sum in one pass only from
    # FUSED_THREAD_SUMS_MIN_COLS); lower that so the narrow CPU widths take the path:
    # even widths with 1-2 words per row, masked word tails, multi-row tiles, special
    # values, and the views that must not be paired.
    softmax_mod, _, fused, *_ = _modules()
    monkeypatch.setattr(fused, "FUSED_PAIRS_MIN_COLS", 2)
    monkeypatch.setattr(fused, "FUSED_THREAD_SUMS_MIN_COLS", 2 if thread_sums else 2 ** 40)
    for cols in (2, 4, 32, 34, 128, 1000, 4098):
        for rows in CPU_ROWS:
            x = make_rows(rows, cols, dtype, DEVICE, seed=rows)
            constexprs = softmax_mod.plan(x, op, "fused")["constexprs"]
            assert constexprs["PAIRS"] and (constexprs["SEGMENTS"] > 0) == thread_sums
            assert constexprs["BF16"] == (dtype == torch.bfloat16)
            run_and_check(op, x, "fused")
    special = special_rows(130, dtype, DEVICE)
    assert softmax_mod.plan(special, op, "fused")["constexprs"]["PAIRS"]
    out = run_and_check(op, special, "fused")
    assert torch.isnan(out[[0, 3, 4, 5, 6, 8]]).all() and not torch.isnan(out[[1, 2, 7, 9]]).any()
    # One finite value in a row of -inf: all lanes but one (here lane l holds words
    # l + 512 * s of the 8 segments s) and most merges of their pairs see only -inf.
    lone = torch.full((3, 4098), -math.inf, dtype=dtype, device=DEVICE)
    lone[0, 0], lone[1, 42], lone[2, 3877] = 1.0, -3.0, 7.0  # lanes 0, 21, 402
    run_and_check(op, lone, "fused")
    # Values up to 6e4 apart: the max-sum merges rescale by exp(-huge) = 0.
    big = make_rows(3, 130, torch.float32, DEVICE, seed=5)
    run_and_check(op, (big * (6e4 / big.abs().max())).to(dtype), "fused")
    base = make_rows(6, 2 * 200, dtype, DEVICE)
    for view, paired in [(base[:, 4:204], True),     # 8-byte offset, row stride 400
                         (base[::2, 2:130], True),   # 4-byte offset, row stride 800
                         (base[:, 1:201], False),    # 2-byte offset: not 4-byte aligned
                         (base[:, 2:203], False)]:   # odd width
        assert softmax_mod.plan(view, op, "fused")["constexprs"]["PAIRS"] == paired
        run_and_check(op, view, "fused")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_transposed_input(op, variant):
    x = make_rows(40, 33, torch.float32, DEVICE).t()  # (33, 40), column stride 33
    run_and_check(op, x, variant, dim=-1)              # rows_view copies: last dim not unit-stride
    run_and_check(op, x, variant, dim=0)               # a view: rows of the original, no copy


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_dim0_of_a_3d_tensor(op, variant):
    x = make_rows(6 * 5, 7, torch.float16, DEVICE).reshape(6, 5, 7)
    run_and_check(op, x, variant, dim=0)
    run_and_check(op, x, variant, dim=-2)


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("cols", [3, 1000, 4099])  # one fused block / online 4 tiles / odd, 17 tiles
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_nan_and_inf_like_torch(op, variant, cols, dtype):
    x = special_rows(cols, dtype, DEVICE)
    out = run_and_check(op, x, variant)  # the reference applies torch's NaN/inf rules
    expected_nan_rows = [0, 3, 4, 5, 6, 8]
    assert torch.isnan(out[expected_nan_rows]).all()
    assert not torch.isnan(out[[1, 2, 7, 9]]).any()
    zero = 0.0 if op == "softmax" else -math.inf
    assert (out[1, ::2] == zero).all() and (out[2, : (cols * 3) // 5] == zero).all()
    if dtype == torch.float32:
        torch.testing.assert_close(out, OP_FUNCTIONS[op](x, -1, backend="torch"), equal_nan=True)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_large_magnitudes(op, variant):
    gen = torch.Generator(device=DEVICE).manual_seed(3)
    for dtype, big in [(torch.float32, 1e30), (torch.float16, 6e4), (torch.bfloat16, 1e30),
                       (torch.float32, 1e4)]:
        x = ((torch.rand(5, 300, generator=gen, device=DEVICE) * 2 - 1) * big).to(dtype)
        run_and_check(op, x, variant)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_offset_views_with_wide_row_stride(op, variant):
    base = make_rows(9, 1000 + 37, torch.float32, DEVICE)
    run_and_check(op, base[1:, 5:1005], variant)   # 20-byte offset, odd row stride 1037 (ALIGN 1)
    run_and_check(op, base[::2, 1:], variant)      # 4-byte offset, row stride 2074 (ALIGN 2)
    for dtype in (torch.float16, torch.bfloat16):
        wide = make_rows(5, 2 * 160, dtype, DEVICE)
        run_and_check(op, wide[:, 16:144], variant)    # aligned start, row stride 320 (ALIGN 16)
        run_and_check(op, wide[:, 1:129], variant)     # ALIGN 16 but a 2-byte offset: not paired


@pytest.mark.parametrize("kernel", ["online", "split"])
@pytest.mark.parametrize("op", OPS)
def test_persistent_loop_with_fewer_programs_than_work(op, kernel):
    # On a GPU the grid is sized to the SMs, so programs loop over rows; the interpreter
    # launches one program per row. Force grids of 1 and 2 to run that loop here.
    softmax_mod, *_ = _modules()
    x = make_rows(40, 130, torch.float32, DEVICE)
    p = softmax_mod.plan(x, op, kernel)
    for grid in (1, 2):
        out = softmax_mod.launch_plan(x, dict(p, grid=grid))
        agreement = check(op, x, out)
        assert agreement.ok, agreement.summary()


@pytest.mark.parametrize("op", OPS)
def test_fused_lays_blocks_past_the_grid_limit_on_a_second_grid_dimension(op, monkeypatch):
    # `fused` is one-shot: one program per row block, on a (x, y) grid once the blocks
    # exceed CUDA's 2^31 - 1 programs in x. Lower that limit so that the interpreter runs
    # the y programs too, including a last y row of programs past the final block.
    softmax_mod, launch, *_ = _modules()
    monkeypatch.setattr(launch, "MAX_GRID", 3)
    assert launch.grid_2d(7) == (3, 3) and launch.grid_2d(3) == (3,)
    for dtype in DTYPES:
        x = make_rows(100, 130, dtype, DEVICE)
        p = softmax_mod.plan(x, op, "fused")
        assert p["grid"] == math.ceil(100 / p["constexprs"]["ROWS"]) > 3 * 2
        out = softmax_mod.launch_plan(x, p)
        agreement = check(op, x, out)
        assert agreement.ok, agreement.summary()


def test_fused_refuses_rows_past_its_register_limit():
    _, _, fused, _, _, _, rows_mod = _modules()
    cases = [
        (fused.FUSED_MAX_COLS, fused.FUSED_MAX_COLS + 2, 2),         # even widths, ALIGN >= 2
        (fused.FUSED_MAX_COLS_ODD - 1, fused.FUSED_MAX_COLS_ODD + 1, 1),  # odd widths, ALIGN 1
    ]
    for op in OPS:
        for fits, too_wide, align in cases:
            assert BACKEND.supports(torch.empty(2, fits, device=DEVICE), op, "fused")
            x = torch.empty(2, too_wide, device=DEVICE)
            assert rows_mod.row_align(x) == align
            support = BACKEND.supports(x, op, "fused")
            limit = fused.max_cols(x)
            assert not support and "'online'" in support.reason and str(limit) in support.reason
            assert BACKEND.supports(x, op, "online") and BACKEND.supports(x, op, "auto")
            with pytest.raises(ValueError, match="online"):
                OP_FUNCTIONS[op](x, backend="triton", variant="fused")


def test_auto_follows_the_thresholds():
    softmax_mod, _, fused, _, split, policy, rows_mod = _modules()

    def rows_of(cols, dtype, paired=True):
        if paired:
            return torch.empty(4, cols, dtype=dtype, device=DEVICE)
        # even width and row stride, but a start 2 bytes past a 4-byte boundary
        return torch.empty(4, cols + 2, dtype=dtype, device=DEVICE)[:, 1:-1]

    for key, op, dtype, paired in [("fp32", "softmax", torch.float32, False),
                                   ("pairs", "softmax", torch.bfloat16, True),
                                   ("pairs", "log_softmax", torch.bfloat16, True),
                                   ("pairs", "softmax", torch.float16, True),
                                   ("16-bit", "softmax", torch.float16, False),
                                   ("16-bit", "softmax", torch.bfloat16, False)]:
        widest = policy.AUTO_FUSED_MAX_COLS[key]
        if paired:  # and no wider than fused holds pairs of this dtype
            widest = min(widest, fused.FUSED_MAX_COLS_PAIRS[dtype])
        for cols, kernel in [(widest, "fused"), (widest + 16, "split")]:
            x = rows_of(cols, dtype, paired or dtype == torch.float32)
            assert fused.paired(x, rows_mod.row_align(x)) == paired
            assert softmax_mod.plan(x, op)["kernel"] == kernel, (key, cols)
    odd = fused.FUSED_MAX_COLS_ODD
    assert softmax_mod.plan(torch.empty(4, odd, device=DEVICE), "log_softmax")["kernel"] == "fused"
    assert softmax_mod.plan(torch.empty(4, odd + 1, device=DEVICE), "log_softmax")["kernel"] == "split"
    # past what a GPU keeps resident at one program per SM: online (sm_count given, as on a GPU)
    too_wide = torch.empty(1, 2 * 132 * split.SPLIT_CHUNK_BYTES[4] // 4, device=DEVICE)
    assert policy.auto_kernel(too_wide, 132) == "online" and policy.auto_kernel(too_wide, None) == "split"
    if DEVICE == "cuda":
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        too_wide = torch.empty(1, 2 * sms * split.SPLIT_CHUNK_BYTES[4] // 4, device=DEVICE)
        assert softmax_mod.plan(too_wide, "softmax")["kernel"] == "online"
        assert not BACKEND.supports(too_wide, "softmax", "split")


def test_row_align_divides_width_and_stride():
    *_, rows_mod = _modules()
    base = torch.empty(4, 1037, device=DEVICE)
    cases = [(torch.empty(3, 1000), 8), (torch.empty(3, 4096), 16), (torch.empty(3, 129), 1),
             (base[:, :1000], 1), (base[::2, :1000], 2), (torch.empty(1, 8).expand(5, 8), 8)]
    for x, align in cases:
        assert rows_mod.row_align(x) == align, (tuple(x.shape), x.stride())


def test_occupancy_and_grid_arithmetic():
    _, launch, fused, online, split, _, _ = _modules()
    h100 = launch.DeviceLimits(index=0, name="H100-like", sm_count=132, regs_per_sm=65536,
                               smem_per_sm=233472, max_threads_per_sm=2048, warp_size=32,
                               l2_bytes=50 * 2**20)
    assert launch.programs_per_sm(64, 0, 4, h100) == (8, "registers")   # 64 x 128 threads
    assert launch.programs_per_sm(57, 0, 4, h100)[0] == 8               # 57 rounds up to 64
    assert launch.programs_per_sm(16, 0, 4, h100) == (16, "warps")      # 2048 / 128 threads
    assert launch.programs_per_sm(32, 100_000, 4, h100) == (2, "shared memory")
    assert launch.programs_per_sm(255, 0, 32, h100)[0] == 1             # never below one
    # fused: one program per row block (one-shot grid), past CUDA's grid limit on 2-D
    assert fused.grid(10**6, 512, {}, h100, 8) == (10**6, 8)
    assert fused.grid(2**40, 512, {}, h100, 8) == (2**40, 8)
    assert launch.grid_2d(2**40) == (2**31 - 1, math.ceil(2**40 / (2**31 - 1)))
    assert fused.grid(100, 512, {}, h100, 8) == (100, 8)
    # online: the rows in flight must fit half the L2 (25 MiB here)...
    assert online.grid(10**6, 32768 * 2, {}, h100, 4) == (132 * 3, 3)
    # ...but every SM gets a program even when they do not (256 KiB rows: 33 MiB)
    assert online.grid(10**6, 65536 * 4, {}, h100, 4) == (132, 1)
    # split: whole groups, all resident at once (132 x 3 = 396 programs: 49 groups of 8)...
    assert split.grid(10**6, 65536 * 4, {"SPLIT": 8}, h100, 3) == (49 * 8, 3)
    # ...and no more groups than rows
    assert split.grid(5, 65536 * 4, {"SPLIT": 8}, h100, 3) == (40, 3)
    # the interpreter (no limits): one program per unit, split a few
    assert online.grid(7, 512, {}) == (7, 1) and split.grid(7, 512, {"SPLIT": 1}) == (2, 1)
    # SPLIT: one chunk up to SPLIT_WHOLE_ROW_BYTES, else the fewest power-of-two chunks of
    # at most SPLIT_CHUNK_BYTES (odd rows: SPLIT_CHUNK_ODD elements)
    whole = split.SPLIT_WHOLE_ROW_BYTES
    assert split.chunks(whole // 2, 2, 16, False) == (1, whole // 2)
    assert split.chunks(100, 4, 4, False) == (1, 128)
    for elem in (4, 2):
        chunk = split.SPLIT_CHUNK_BYTES[elem] // elem
        assert split.chunks(8 * chunk, elem, 16, False) == (8, chunk)
        assert split.chunks(8 * chunk + 16, elem, 16, False) == (16, chunk)
        assert split.chunks(5 * chunk, elem, 16, False) == (8, chunk)  # 5 rounds up
    odd = split.SPLIT_CHUNK_ODD
    assert split.chunks(4 * odd, 4, 1, False) == (4, odd)
    assert split.chunks(10**6, 4, 16, True) == (1, 2**20)  # interpreter: one chunk


def test_resource_cache_keys_on_what_triton_specialises():
    _, launch, *_ = _modules()
    base = torch.empty(64, dtype=torch.float16)
    key = launch.specialization
    assert key((base, 32, 7)) == key((base, 48, 9))                  # same divisibility, same binary
    assert key((base, 32, 7)) != key((base[1:], 32, 7))              # unaligned pointer
    assert key((base, 32, 7)) != key((base, 33, 7))                  # divisibility by 16
    assert key((base, 32, 7)) != key((base, 32, 1))                  # an integer equal to 1
    assert key((base, 32, 7)) != key((base, 32, 2**31 + 7))          # a 64-bit integer
    assert key((base, 32, 7)) != key((base.float(), 32, 7))          # dtype


def test_plan_reports_the_launch():
    softmax_mod, _, fused, online, *_ = _modules()
    x = make_rows(7, 1000, torch.float16, DEVICE)
    p_fused, p_online = softmax_mod.plan(x, "softmax", "fused"), softmax_mod.plan(x, "log_softmax", "online")
    assert p_fused["kernel"] == "fused" and p_online["kernel"] == "online"
    assert p_fused["unsupported"] is None and p_fused["kernel_fn"] == "_softmax_fused_kernel"
    assert p_fused["constexprs"]["BLOCK"] == 1024 and p_fused["constexprs"]["ALIGN"] == 8
    assert not p_fused["constexprs"]["PAIRS"]  # narrower than FUSED_PAIRS_MIN_COLS
    assert p_fused["constexprs"]["INTERPRETER"] == (DEVICE == "cpu")
    # wide 16-bit rows are held as pairs: BLOCK counts 32-bit words of two values
    wide = softmax_mod.plan(torch.empty(2, fused.FUSED_PAIRS_MIN_COLS, dtype=torch.float16, device=DEVICE),
                            "softmax", "fused")
    assert wide["constexprs"]["PAIRS"] and wide["constexprs"]["BLOCK"] == fused.FUSED_PAIRS_MIN_COLS // 2
    assert not p_fused["constexprs"]["LOG_SOFTMAX"] and p_online["constexprs"]["LOG_SOFTMAX"]
    assert softmax_mod.plan(x, "softmax")["kernel"] == "fused"
    if DEVICE == "cpu":  # interpreter: one program per row block / row, small tiles
        assert p_fused["grid"] == math.ceil(7 / p_fused["constexprs"]["ROWS"])
        assert p_online["grid"] == 7 and p_online["constexprs"]["TILE"] == online.INTERPRET_ONLINE_TILE


def test_public_functions_match_torch():
    x = make_rows(3, 50, torch.float32, DEVICE)
    torch.testing.assert_close(softmax(x, backend="triton"), torch.softmax(x, -1))
    torch.testing.assert_close(log_softmax(x, 0, backend="triton", variant="online"),
                               torch.log_softmax(x, 0))
    assert log_softmax(torch.empty(0, dtype=torch.float16, device=DEVICE), 0, backend="triton").shape == (0,)


def test_writes_into_the_given_output():
    x = make_rows(7, 129, torch.float32, DEVICE)
    for op in OPS:
        for variant in VARIANTS:
            out = torch.full((7, 129), float("nan"), device=DEVICE)
            assert BACKEND.run_into(x, op, variant, out) is out
            agreement = check(op, x, out)
            assert agreement.ok, agreement.summary()


# -- any tensor: an answer, never an exception ------------------------------------------------

def odd_tensors(device):
    """(name, tensor) pairs the op modules may be handed: every rank, empty in each
    dimension, layouts with and without a rows view, and dtypes the kernels do not take."""
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
        ("bf16 1-D", base[0].to(torch.bfloat16)),
        ("int32", base.to(torch.int32)),
        ("int64", base.to(torch.int64)),
        ("fp64", base.double()),
        ("bool", base > 0),
        ("0-dim int", torch.tensor(3, device=device)),
    ]


def expected_softmax(op, x):
    fn = torch.softmax if op == "softmax" else torch.log_softmax
    return fn(x.float(), -1).to(x.dtype) if x.dim() else fn(x.float().reshape(1), 0).to(x.dtype).reshape(())


@pytest.mark.parametrize("name", [name for name, _ in odd_tensors("cpu")])
def test_any_tensor_gets_an_answer(name):
    softmax_mod, *_ = _modules()
    x = dict(odd_tensors(DEVICE))[name]
    for op in OPS:
        for variant in ("auto", *softmax_mod.VARIANTS[op]):
            support = BACKEND.supports(x, op, variant)                # the backend's own question
            assert isinstance(bool(support), bool)
            why = softmax_mod.why_unsupported(x, op, variant)          # the op module's, as given
            assert why is None or (isinstance(why, str) and why)
            p = softmax_mod.plan(x, op, variant)
            assert p["unsupported"] == why
            if why is not None:
                assert p["kernel"] is None
                error = TypeError if x.dtype not in DTYPES else ValueError
                with pytest.raises(error) as raised:
                    softmax_mod.run(x, op, variant)
                assert str(raised.value) == why
                continue
            assert p["kernel"] in softmax_mod.FAMILIES and (p["grid"] == 0) == (x.numel() == 0)
            out = softmax_mod.run(x, op, variant)
            assert out.shape == x.shape and out.dtype == x.dtype and out.is_contiguous()
            torch.testing.assert_close(out, expected_softmax(op, x), atol=1e-6, rtol=1e-2 if
                                       x.dtype == torch.bfloat16 else 1e-5)
    if x.dtype in (torch.int32, torch.int64, torch.float64, torch.bool):
        assert not BACKEND.supports(x, "softmax") and "dtype" in softmax_mod.why_unsupported(x, "softmax", "auto")
    if name == "1-D strided":
        assert "no such view" in softmax_mod.why_unsupported(x, "softmax", "auto")


def test_unknown_ops_and_variants_get_a_reason():
    softmax_mod, *_ = _modules()
    x = torch.zeros(2, 3, device=DEVICE)
    assert "reduce_sum" in softmax_mod.why_unsupported(x, "reduce_sum", "auto")
    assert "'block'" in softmax_mod.why_unsupported(x, "softmax", "block")
    assert softmax_mod.plan(x, "softmax", "block")["kernel"] is None


# -- bf16 rounding ------------------------------------------------------------------------------

if BACKEND.is_available():  # Triton is importable (and TRITON_INTERPRET set where needed)
    import triton
    import triton.language as tl

    from kernels_triton import downcast, pairs

    @triton.jit
    def _convert_kernel(x_ptr, y_ptr, w_ptr, n, INTERPRETER: tl.constexpr, BLOCK: tl.constexpr):
        # fp32 x through downcast.rounded into y (y's dtype), and through pairs.pack (bf16)
        # two values per word into w.
        i = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + i, mask=i < n)
        tl.store(y_ptr + i, downcast.rounded(x, y_ptr.dtype.element_ty, INTERPRETER), mask=i < n)
        lo = tl.load(x_ptr + 2 * i, mask=2 * i < n)
        hi = tl.load(x_ptr + 2 * i + 1, mask=2 * i + 1 < n)
        tl.store(w_ptr + i, pairs.pack(lo, hi, True, INTERPRETER), mask=2 * i + 1 < n)


def _interpreted() -> bool:
    from kernels_triton.backend import interpreting
    return interpreting()


def _truncated_bf16(y32: torch.Tensor) -> torch.Tensor:
    """fp32 values cut to bf16 by dropping the low 16 bits: what Triton's interpreter's
    own fp32 -> bf16 conversion does."""
    return (y32.view(torch.int32) >> 16).to(torch.int16).view(torch.bfloat16)


def _same_bits(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Elementwise: equal bits, or both NaN (NaN payloads differ between devices)."""
    return (a.view(torch.int16) == b.view(torch.int16)) | (a.isnan() & b.isnan())


def test_bf16_rounding_helpers_round_to_nearest_even():
    # downcast.rounded and pairs.pack on values chosen for rounding: ties to even both
    # ways, values just off a tie, the largest finite values (which round to inf),
    # subnormals, signed zeros, infinities and NaNs with payloads that truncation or a
    # careless rounding turns into inf. Compared bit for bit with torch's conversion.
    bits = [0x3F808000, 0x3F818000, 0x3F808001, 0x3F807FFF, 0x3F817FFF, 0xBF808000, 0xBF818000,
            0x7F7FFFFF, 0x7F7F8000, 0x7F7F7FFF, 0xFF7FFFFF, 0x00008000, 0x00018000, 0x00000001,
            0x80000001, 0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001,
            0xFF800001, 0x7FFFFFFF, 0xFFC00001]
    special = torch.tensor(bits, dtype=torch.int64).to(torch.int32).view(torch.float32)
    gen = torch.Generator().manual_seed(0)
    spread = torch.randn(4000, generator=gen) * torch.logspace(-40, 38, 4000)
    x = torch.cat([special, spread.float()]).to(DEVICE)
    n = x.numel()
    expected = x.to(torch.bfloat16)
    assert not _same_bits(_truncated_bf16(x), expected).all()  # the data tells truncation apart
    for interpreter in ((True,) if _interpreted() else (False, True)):  # GPU: cvt.rn and the bit path
        y = torch.empty(n, dtype=torch.bfloat16, device=DEVICE)
        w = torch.empty(n // 2, dtype=torch.int32, device=DEVICE)
        _convert_kernel[(1,)](x, y, w, n, INTERPRETER=interpreter, BLOCK=1 << (n - 1).bit_length())
        assert _same_bits(y, expected).all(), x[~_same_bits(y, expected)]
        packed = w.view(torch.bfloat16)  # little-endian: low halves are the even values
        assert _same_bits(packed, expected[: 2 * (n // 2)]).all()


@pytest.mark.parametrize("variant", ["fused", "online", "split"])
@pytest.mark.parametrize("op", OPS)
def test_bf16_results_are_rounded_to_nearest_even(op, variant):
    # A kernel's bf16 output is its fp32 result rounded to nearest even. The fp32 result
    # of the same arithmetic is what the kernel gives for the same values as fp32 input
    # (same tiles under the interpreter: `online` and `split` take one tile or chunk per
    # row here; `fused` widens the 16-bit values to the same fp32 ones), so the bf16
    # output must equal torch's rounding of the fp32 output bit for bit. Truncation (the
    # interpreter's own conversion) differs on about half the elements.
    softmax_mod, *_ = _modules()
    x16 = make_rows(7, 200, torch.bfloat16, DEVICE, seed=11)
    p16, p32 = softmax_mod.plan(x16, op, variant), softmax_mod.plan(x16.float(), op, variant)
    same = ("ROWS", "BLOCK", "TILE", "SPLIT", "CHUNK", "ALIGN")  # the premise: the same tiles
    assert [p16["constexprs"].get(k) for k in same] == [p32["constexprs"].get(k) for k in same]
    assert p16["num_warps"] == p32["num_warps"] and not p16["constexprs"].get("PAIRS")
    y16 = OP_FUNCTIONS[op](x16, -1, backend="triton", variant=variant)
    y32 = OP_FUNCTIONS[op](x16.float(), -1, backend="triton", variant=variant)
    finite = y32.isfinite()
    assert not _same_bits(_truncated_bf16(y32), y32.to(torch.bfloat16))[finite].all()
    assert _same_bits(y16, y32.to(torch.bfloat16)).all()


# -- GPU only --------------------------------------------------------------------------------

GPU_WIDTHS = [
    1, 3,           # degenerate rows: up to 512 rows per fused block, element-by-element loads
    127, 128, 129,  # narrow: 32-64 rows per 16 KiB fused block; 129: ALIGN 1
    512,            # fused 8-16 rows per block
    1000,           # ALIGN 8: 16-byte loads through the divisibility hint
    1024, 1025,     # 1025: fused BLOCK 2048, ALIGN 1
    4096, 4099,     # one row per fused block; 4099 odd
    8192,           # online: exactly one tile (second tile of the pair empty)
    16384,          # fused 16 warps; online: one full pair of tiles
    16385,          # odd: widest odd fused row is 16384, so fused refuses; split: 4096 chunks
    32768,          # FUSED_MAX_COLS: fused 32 warps (16-bit: 16 warps of pairs)
    32769,          # first odd width past fused (refuses); auto: split, ALIGN 1 (4096 chunks)
    65536,          # fused: paired 16-bit only; split: 16 (fp32) or 8 (16-bit) programs per row
    262144,         # split: 32-64 programs per row; online: rows in flight exceed L2
]
GPU_ROWS = [1, 2, 7, 1000]  # 1000: more rows than SMs, so persistent programs loop


@pytest.mark.gpu
@pytest.mark.slow
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("cols", GPU_WIDTHS)
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_sweep(op, variant, cols, dtype):
    softmax_mod, _, fused, *_ = _modules()
    for rows in GPU_ROWS:
        x = make_rows(rows, cols, dtype, "cuda", seed=rows)
        support = BACKEND.supports(x, op, variant)
        if not support:
            # Only fused refuses, and only past its register limit for the row's alignment.
            assert variant == "fused" and cols > fused.max_cols(x)
            assert "'online'" in support.reason
            continue
        if variant == "split" and cols >= 65536:  # several programs per row do exchange
            assert softmax_mod.plan(x, op, variant)["constexprs"]["SPLIT"] >= 4
        run_and_check(op, x, variant)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_compiled_kernels_do_not_spill(op, dtype):
    # Each configuration's widest case, compiled (plan compiles, nothing is launched).
    softmax_mod, _, fused, *_ = _modules()
    shifted = torch.empty(4, fused.FUSED_MAX_COLS + 2, dtype=dtype, device="cuda")
    cases = [
        ("fused", torch.empty(1 << 16, 128, dtype=dtype, device="cuda")),  # 32-64 rows per block
        ("fused", torch.empty(1 << 16, 1, dtype=dtype, device="cuda")),    # 512 rows, scalar loads
        ("fused", torch.empty(4, fused.FUSED_MAX_COLS, dtype=dtype, device="cuda")),
        ("fused", shifted[:, 2:]),                                          # misaligned, ALIGN 2
        ("fused", torch.empty(4, fused.FUSED_MAX_COLS_ODD - 1, dtype=dtype, device="cuda")),
        ("fused", torch.empty(4, fused.FUSED_PAIRS_MIN_COLS, dtype=dtype, device="cuda")),  # 16-bit: pairs
        ("fused", torch.empty(4, fused.FUSED_MAX_COLS_PAIRS.get(dtype, fused.FUSED_MAX_COLS),
                              dtype=dtype, device="cuda")),
        ("online", torch.empty(1000, 65536, dtype=dtype, device="cuda")),   # 8192 tiles
        ("online", torch.empty(1000, 65537, dtype=dtype, device="cuda")),   # odd: 4096 tiles
        ("online", torch.empty(1000, 262144, dtype=dtype, device="cuda")),
        ("split", torch.empty(1000, 65536, dtype=dtype, device="cuda")),    # SPLIT_CHUNK_BYTES chunks
        ("split", torch.empty(1000, 16384, dtype=dtype, device="cuda")),    # one chunk, a whole row
        ("split", torch.empty(1000, 65537, dtype=dtype, device="cuda")),    # odd: SPLIT_CHUNK_ODD
    ]
    for kernel, x in cases:
        p = softmax_mod.plan(x, op, kernel)
        where = f"{kernel} {tuple(x.shape)} stride {x.stride()}: {p}"
        assert p["n_spills"] == 0, where
        assert p["programs_per_sm"] >= 1, where
        assert p["constexprs"]["INTERPRETER"] is False, where
        if kernel == "fused":  # one-shot: a program per row block
            assert p["grid"] == math.ceil(x.shape[0] / p["constexprs"]["ROWS"]), where
        else:                  # persistent: never more programs than stay resident
            assert p["grid"] <= p["sm_count"] * p["programs_per_sm"], where
        if kernel == "split":  # whole groups, every one of which must be resident
            assert p["grid"] % p["constexprs"]["SPLIT"] == 0, where


# Row stride cols + 1 is odd (ALIGN 1): 4096 fused; 20000 past the odd-row fused limit
# (fused refuses, auto takes online); 40000 online.
@pytest.mark.gpu
@pytest.mark.parametrize("cols", [4096, 20000, 40000])
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_misaligned_view_and_side_stream(op, variant, cols):
    base = make_rows(301, cols + 1, torch.bfloat16, "cuda")
    view = base[1:, 1:]  # 2-byte offset: not 16-byte aligned
    support = BACKEND.supports(view, op, variant)
    if not support:
        assert variant == "fused" and cols > _modules()[2].FUSED_MAX_COLS_ODD, support.reason
        return
    expected = run_and_check(op, view, variant)
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        out = OP_FUNCTIONS[op](view, -1, backend="triton", variant=variant)
    stream.synchronize()
    assert torch.equal(out, expected)


@pytest.mark.gpu
@pytest.mark.slow
@pytest.mark.parametrize("variant", ["auto", "online", "split"])  # auto: fused, 4096 wide
def test_gpu_more_than_2_to_the_31_elements(variant):
    rows, cols = 2 ** 31 // 4096 + 8, 4096
    x = make_rows(rows, cols, torch.float16, "cuda")
    assert x.numel() > 2 ** 31
    out = softmax(x, backend="triton", variant=variant)
    tail = slice(rows - 64, rows)  # rows past element 2**31: 64-bit offsets
    agreement = check("softmax", x[tail], out[tail])
    assert agreement.ok, agreement.summary()
    agreement = check("softmax", x, out)
    assert agreement.ok, agreement.summary()
    del out
    agreement = check("log_softmax", x[tail], log_softmax(x, backend="triton", variant=variant)[tail])
    assert agreement.ok, agreement.summary()


@pytest.mark.gpu
@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA GPUs")
@pytest.mark.parametrize("variant", VARIANTS)
def test_gpu_runs_on_the_tensors_own_device(variant):
    x = make_rows(300, 3000, torch.float32, "cuda:1")
    with torch.cuda.device(0):
        out = run_and_check("softmax", x, variant)
    assert out.device == x.device
