"""Triton softmax / log-softmax (kernels_triton/softmax.py) against the float64 reference.

Without a GPU the kernels run on CPU tensors under Triton's interpreter (tests/conftest.py
sets TRITON_INTERPRET=1), with tiles capped small so that the test widths take several
`online` tiles and several `fused` row blocks; with a GPU the same tests run compiled,
and the `gpu` tests add the full sweep (bf16, widths to 262144, 1000 rows), compiled
register/spill checks, misaligned views, a tensor over 2**31 elements, side streams
and a second device. bf16 is GPU-only: the interpreter converts fp32 to bf16 by
truncation (the GPU rounds to nearest), which biases every row sum.
"""
from __future__ import annotations

import math

import pytest
import torch

from comparison import get_backend, log_softmax, softmax
from comparison.agreement import check
from comparison.api import OP_FUNCTIONS
from comparison.dispatch import rows_view
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
BITS = {torch.float32: torch.int32, torch.float16: torch.int16, torch.bfloat16: torch.int16}


def _softmax_module():
    import kernels_triton.softmax as module  # imports Triton: only after the skip check
    return module


# Widths for every device, with the paths they take. Under the interpreter `online` tiles
# are 256 wide and `fused` blocks at most 2048 elements (INTERPRET_* in softmax.py).
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

@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=["fp32", "fp16"])
@pytest.mark.parametrize("cols", CPU_WIDTHS)
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_rows(op, variant, cols, dtype):
    for rows in CPU_ROWS:
        run_and_check(op, make_rows(rows, cols, dtype, DEVICE, seed=rows), variant)


@pytest.mark.parametrize("thread_sums", [False, True], ids=["two_pass", "thread_sums"])
@pytest.mark.parametrize("op", OPS)
def test_fused_paired_rows(op, thread_sums, monkeypatch):
    # 16-bit rows held two values per 32-bit word (pairs.py). `fused` pairs only rows of
    # FUSED_PAIRS_MIN_COLS and more (and reduces max and sum in one pass only from
    # FUSED_THREAD_SUMS_MIN_COLS); lower that so the narrow CPU widths take the path:
    # even widths with 1-2 words per row, masked word tails, multi-row tiles, special
    # values, and the views that must not be paired.
    module = _softmax_module()
    monkeypatch.setattr(module, "FUSED_PAIRS_MIN_COLS", 2)
    monkeypatch.setattr(module, "FUSED_THREAD_SUMS_MIN_COLS", 2 if thread_sums else 2 ** 40)
    for cols in (2, 4, 32, 34, 128, 1000, 4098):
        for rows in CPU_ROWS:
            x = make_rows(rows, cols, torch.float16, DEVICE, seed=rows)
            constexprs = module.plan(x, op, "fused")["constexprs"]
            assert constexprs["PAIRS"] and (constexprs["SEGMENTS"] > 0) == thread_sums
            run_and_check(op, x, "fused")
    special = special_rows(130, torch.float16, DEVICE)
    assert module.plan(special, op, "fused")["constexprs"]["PAIRS"]
    out = run_and_check(op, special, "fused")
    assert torch.isnan(out[[0, 3, 4, 5, 6, 8]]).all() and not torch.isnan(out[[1, 2, 7, 9]]).any()
    # One finite value in a row of -inf: all lanes but one (here lane l holds words
    # l + 512 * s of the 8 segments s) and most merges of their pairs see only -inf.
    lone = torch.full((3, 4098), -math.inf, dtype=torch.float16, device=DEVICE)
    lone[0, 0], lone[1, 42], lone[2, 3877] = 1.0, -3.0, 7.0  # lanes 0, 21, 402
    run_and_check(op, lone, "fused")
    # Values up to 6e4 apart: the max-sum merges rescale by exp(-huge) = 0.
    big = make_rows(3, 130, torch.float32, DEVICE, seed=5)
    run_and_check(op, (big * (6e4 / big.abs().max())).to(torch.float16), "fused")
    base = make_rows(6, 2 * 200, torch.float16, DEVICE)
    for view, paired in [(base[:, 4:204], True),     # 8-byte offset, row stride 400
                         (base[::2, 2:130], True),   # 4-byte offset, row stride 800
                         (base[:, 1:201], False),    # 2-byte offset: not 4-byte aligned
                         (base[:, 2:203], False)]:   # odd width
        assert module.plan(view, op, "fused")["constexprs"]["PAIRS"] == paired
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


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=["fp32", "fp16"])
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
    for dtype, big in [(torch.float32, 1e30), (torch.float16, 6e4), (torch.float32, 1e4)]:
        x = ((torch.rand(5, 300, generator=gen, device=DEVICE) * 2 - 1) * big).to(dtype)
        run_and_check(op, x, variant)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_offset_views_with_wide_row_stride(op, variant):
    base = make_rows(9, 1000 + 37, torch.float32, DEVICE)
    run_and_check(op, base[1:, 5:1005], variant)   # 20-byte offset, odd row stride 1037 (ALIGN 1)
    run_and_check(op, base[::2, 1:], variant)      # 4-byte offset, row stride 2074 (ALIGN 2)
    wide = make_rows(5, 2 * 160, torch.float16, DEVICE)
    run_and_check(op, wide[:, 16:144], variant)    # aligned start, row stride 320 (ALIGN 16)
    run_and_check(op, wide[:, 1:129], variant)     # ALIGN 16 but a 2-byte offset: not paired


@pytest.mark.parametrize("kernel", ["online", "split"])
@pytest.mark.parametrize("op", OPS)
def test_persistent_loop_with_fewer_programs_than_work(op, kernel):
    # On a GPU the grid is sized to the SMs, so programs loop over rows; the interpreter
    # launches one program per row. Force grids of 1 and 2 to run that loop here.
    module = _softmax_module()
    x = make_rows(40, 130, torch.float32, DEVICE)
    p = module.plan(x, op, kernel)
    for grid in (1, 2):
        out = module._launch(x, dict(p, grid=grid))
        agreement = check(op, x, out)
        assert agreement.ok, agreement.summary()


@pytest.mark.parametrize("op", OPS)
def test_fused_lays_blocks_past_the_grid_limit_on_a_second_grid_dimension(op, monkeypatch):
    # `fused` is one-shot: one program per row block, on a (x, y) grid once the blocks
    # exceed CUDA's 2^31 - 1 programs in x. Lower that limit so that the interpreter runs
    # the y programs too, including a last y row of programs past the final block.
    module = _softmax_module()
    monkeypatch.setattr(module, "MAX_GRID", 3)
    for dtype in (torch.float32, torch.float16):
        x = make_rows(100, 130, dtype, DEVICE)
        p = module.plan(x, op, "fused")
        assert p["grid"] == math.ceil(100 / p["constexprs"]["ROWS"]) > 3 * 2
        out = module._launch(x, p)
        agreement = check(op, x, out)
        assert agreement.ok, agreement.summary()


def test_fused_refuses_rows_past_its_register_limit():
    module = _softmax_module()
    cases = [
        (module.FUSED_MAX_COLS, module.FUSED_MAX_COLS + 2, 2),       # even widths, ALIGN >= 2
        (module.FUSED_MAX_COLS_ODD - 1, module.FUSED_MAX_COLS_ODD + 1, 1),  # odd widths, ALIGN 1
    ]
    for op in OPS:
        for fits, too_wide, align in cases:
            assert BACKEND.supports(torch.empty(2, fits, device=DEVICE), op, "fused")
            x = torch.empty(2, too_wide, device=DEVICE)
            assert module._row_align(x) == align
            support = BACKEND.supports(x, op, "fused")
            limit = module._fused_max_cols(x)
            assert not support and "'online'" in support.reason and str(limit) in support.reason
            assert BACKEND.supports(x, op, "online") and BACKEND.supports(x, op, "auto")
            with pytest.raises(ValueError, match="online"):
                OP_FUNCTIONS[op](x, backend="triton", variant="fused")


def test_auto_follows_the_thresholds():
    module = _softmax_module()
    def rows_of(cols, dtype, paired=True):
        if paired:
            return torch.empty(4, cols, dtype=dtype, device=DEVICE)
        # even width and row stride, but a start 2 bytes past a 4-byte boundary
        return torch.empty(4, cols + 2, dtype=dtype, device=DEVICE)[:, 1:-1]

    for key, op, dtype, paired in [("fp32", "softmax", torch.float32, False),
                                   ("pairs", "softmax", torch.bfloat16, True),
                                   ("pairs", "log_softmax", torch.bfloat16, True),
                                   ("pairs", "softmax", torch.float16, True),
                                   ("16-bit", "softmax", torch.float16, False)]:
        widest = module.AUTO_FUSED_MAX_COLS[key]
        if paired:  # and no wider than fused holds pairs of this dtype
            widest = min(widest, module.FUSED_MAX_COLS_PAIRS[dtype])
        for cols, kernel in [(widest, "fused"), (widest + 16, "split")]:
            x = rows_of(cols, dtype, paired or dtype == torch.float32)
            assert module._paired(x, module._row_align(x)) == paired
            assert module.plan(x, op)["kernel"] == kernel, (key, cols)
    odd = module.FUSED_MAX_COLS_ODD
    assert module.plan(torch.empty(4, odd, device=DEVICE), "log_softmax")["kernel"] == "fused"
    assert module.plan(torch.empty(4, odd + 1, device=DEVICE), "log_softmax")["kernel"] == "split"
    if DEVICE == "cuda":  # past what a GPU keeps resident at one program per SM: online
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        too_wide = torch.empty(1, 2 * sms * module.SPLIT_CHUNK_BYTES[4] // 4, device=DEVICE)
        assert module.plan(too_wide, "softmax")["kernel"] == "online"
        assert not BACKEND.supports(too_wide, "softmax", "split")


def test_row_align_divides_width_and_stride():
    module = _softmax_module()
    base = torch.empty(4, 1037, device=DEVICE)
    cases = [(torch.empty(3, 1000), 8), (torch.empty(3, 4096), 16), (torch.empty(3, 129), 1),
             (base[:, :1000], 1), (base[::2, :1000], 2), (torch.empty(1, 8).expand(5, 8), 8)]
    for x, align in cases:
        assert module._row_align(x) == align, (tuple(x.shape), x.stride())


def test_occupancy_and_grid_arithmetic():
    from kernels_triton import launch
    module = _softmax_module()
    h100 = launch.DeviceLimits(index=0, name="H100-like", sm_count=132, regs_per_sm=65536,
                               smem_per_sm=233472, max_threads_per_sm=2048, warp_size=32,
                               l2_bytes=50 * 2**20)
    assert launch.programs_per_sm(64, 0, 4, h100) == (8, "registers")   # 64 x 128 threads
    assert launch.programs_per_sm(57, 0, 4, h100)[0] == 8               # 57 rounds up to 64
    assert launch.programs_per_sm(16, 0, 4, h100) == (16, "warps")      # 2048 / 128 threads
    assert launch.programs_per_sm(32, 100_000, 4, h100) == (2, "shared memory")
    assert launch.programs_per_sm(255, 0, 32, h100)[0] == 1             # never below one
    # fused: one program per row block (one-shot grid), capped at CUDA's grid limit
    assert module._persistent_grid("fused", 10**6, 512, 8, h100) == (10**6, 8)
    assert module._persistent_grid("fused", 2**40, 512, 8, h100) == (2**40, 8)  # 2-D past MAX_GRID
    assert module._persistent_grid("fused", 100, 512, 8, h100) == (100, 8)
    # online: the rows in flight must fit half the L2 (25 MiB here)...
    assert module._persistent_grid("online", 10**6, 32768 * 2, 4, h100) == (132 * 3, 3)
    # ...but every SM gets a program even when they do not (256 KiB rows: 33 MiB)
    assert module._persistent_grid("online", 10**6, 65536 * 4, 4, h100) == (132, 1)
    # split: whole groups, all resident at once (132 x 3 = 396 programs: 49 groups of 8)...
    assert module._persistent_grid("split", 10**6, 65536 * 4, 3, h100, group=8) == (49 * 8, 3)
    # ...and no more groups than rows
    assert module._persistent_grid("split", 5, 65536 * 4, 3, h100, group=8) == (40, 3)
    # SPLIT: one chunk up to SPLIT_WHOLE_ROW_BYTES, else the fewest power-of-two chunks of
    # at most SPLIT_CHUNK_BYTES (odd rows: SPLIT_CHUNK_ODD elements)
    whole = module.SPLIT_WHOLE_ROW_BYTES
    assert module._split_chunks(whole // 2, 2, 16, False) == (1, whole // 2)
    assert module._split_chunks(100, 4, 4, False) == (1, 128)
    for elem in (4, 2):
        chunk = module.SPLIT_CHUNK_BYTES[elem] // elem
        assert module._split_chunks(8 * chunk, elem, 16, False) == (8, chunk)
        assert module._split_chunks(8 * chunk + 16, elem, 16, False) == (16, chunk)
        assert module._split_chunks(5 * chunk, elem, 16, False) == (8, chunk)  # 5 rounds up
    odd = module.SPLIT_CHUNK_ODD
    assert module._split_chunks(4 * odd, 4, 1, False) == (4, odd)
    assert module._split_chunks(10**6, 4, 16, True) == (1, 2**20)  # interpreter: one chunk


def test_plan_reports_the_launch():
    module = _softmax_module()
    x = make_rows(7, 1000, torch.float16, DEVICE)
    fused, online = module.plan(x, "softmax", "fused"), module.plan(x, "log_softmax", "online")
    assert fused["kernel"] == "fused" and online["kernel"] == "online"
    assert fused["constexprs"]["BLOCK"] == 1024 and fused["constexprs"]["ALIGN"] == 8
    assert not fused["constexprs"]["PAIRS"]  # narrower than FUSED_PAIRS_MIN_COLS
    # wide 16-bit rows are held as pairs: BLOCK counts 32-bit words of two values
    wide = module.plan(torch.empty(2, module.FUSED_PAIRS_MIN_COLS, dtype=torch.float16, device=DEVICE),
                       "softmax", "fused")
    assert wide["constexprs"]["PAIRS"] and wide["constexprs"]["BLOCK"] == module.FUSED_PAIRS_MIN_COLS // 2
    assert not fused["constexprs"]["LOG_SOFTMAX"] and online["constexprs"]["LOG_SOFTMAX"]
    assert module.plan(x, "softmax")["kernel"] == "fused"
    if DEVICE == "cpu":  # interpreter: one program per row block / row, small tiles
        assert fused["grid"] == math.ceil(7 / fused["constexprs"]["ROWS"])
        assert online["grid"] == 7 and online["constexprs"]["TILE"] == module.INTERPRET_ONLINE_TILE


def test_public_functions_match_torch():
    x = make_rows(3, 50, torch.float32, DEVICE)
    torch.testing.assert_close(softmax(x, backend="triton"), torch.softmax(x, -1))
    torch.testing.assert_close(log_softmax(x, 0, backend="triton", variant="online"),
                               torch.log_softmax(x, 0))


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
GPU_DTYPES = [torch.float32, torch.float16, torch.bfloat16]
GPU_DTYPE_IDS = ["fp32", "fp16", "bf16"]


@pytest.mark.gpu
@pytest.mark.slow
@pytest.mark.parametrize("dtype", GPU_DTYPES, ids=GPU_DTYPE_IDS)
@pytest.mark.parametrize("cols", GPU_WIDTHS)
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_sweep(op, variant, cols, dtype):
    module = _softmax_module()
    for rows in GPU_ROWS:
        x = make_rows(rows, cols, dtype, "cuda", seed=rows)
        support = BACKEND.supports(x, op, variant)
        if not support:
            # Only fused refuses, and only past its register limit for the row's alignment.
            assert variant == "fused" and cols > module._fused_max_cols(x)
            assert "'online'" in support.reason
            continue
        if variant == "split" and cols >= 65536:  # several programs per row do exchange
            assert module.plan(x, op, variant)["constexprs"]["SPLIT"] >= 4
        run_and_check(op, x, variant)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", GPU_DTYPES, ids=GPU_DTYPE_IDS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_compiled_kernels_do_not_spill(op, dtype):
    # Each configuration's widest case, compiled (plan compiles, nothing is launched).
    module = _softmax_module()
    shifted = torch.empty(4, module.FUSED_MAX_COLS + 2, dtype=dtype, device="cuda")
    cases = [
        ("fused", torch.empty(1 << 16, 128, dtype=dtype, device="cuda")),  # 32-64 rows per block
        ("fused", torch.empty(1 << 16, 1, dtype=dtype, device="cuda")),    # 512 rows, scalar loads
        ("fused", torch.empty(4, module.FUSED_MAX_COLS, dtype=dtype, device="cuda")),
        ("fused", shifted[:, 2:]),                                          # misaligned, ALIGN 2
        ("fused", torch.empty(4, module.FUSED_MAX_COLS_ODD - 1, dtype=dtype, device="cuda")),
        ("fused", torch.empty(4, module.FUSED_PAIRS_MIN_COLS, dtype=dtype, device="cuda")),  # 16-bit: pairs
        ("fused", torch.empty(4, module.FUSED_MAX_COLS_PAIRS.get(dtype, module.FUSED_MAX_COLS),
                              dtype=dtype, device="cuda")),
        ("online", torch.empty(1000, 65536, dtype=dtype, device="cuda")),   # 8192 tiles
        ("online", torch.empty(1000, 65537, dtype=dtype, device="cuda")),   # odd: 4096 tiles
        ("online", torch.empty(1000, 262144, dtype=dtype, device="cuda")),
        ("split", torch.empty(1000, 65536, dtype=dtype, device="cuda")),    # SPLIT_CHUNK_BYTES chunks
        ("split", torch.empty(1000, 16384, dtype=dtype, device="cuda")),    # one chunk, a whole row
        ("split", torch.empty(1000, 65537, dtype=dtype, device="cuda")),    # odd: SPLIT_CHUNK_ODD
    ]
    for kernel, x in cases:
        p = module.plan(x, op, kernel)
        where = f"{kernel} {tuple(x.shape)} stride {x.stride()}: {p}"
        assert p["n_spills"] == 0, where
        assert p["programs_per_sm"] >= 1, where
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
        assert variant == "fused" and cols > _softmax_module().FUSED_MAX_COLS_ODD, support.reason
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
