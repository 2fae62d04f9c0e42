"""Triton reductions (kernels_triton/reduce.py, reductions.py): every variant against the
float64 reference.

Without a GPU the kernels run on CPU tensors under Triton's interpreter (tests/conftest.py
sets TRITON_INTERPRET=1); with one, the same tests run compiled on it, and the `gpu`
tests add the full width sweep, 2**28-element whole-tensor sums, misaligned views and
side streams. fp32, fp16 and bf16 run everywhere (bf16 results are rounded to nearest
even under the interpreter too: kernels_triton/downcast.py).
"""
from __future__ import annotations

import pytest
import torch

from comparison import get_backend, reduce_sum
from comparison.api import OP_FUNCTIONS
from comparison.inputs import make_rows
from reduce_cases import (CPU_ROWS, CPU_WIDTHS, GPU_DTYPES, GPU_ROWS, GPU_WIDTHS, OPS,
                          WHOLE_SIZES_CPU, WHOLE_SIZES_GPU, assert_like_torch,
                          check_whole_deterministic, run_and_check, special_rows, whole_input)

BACKEND = get_backend("triton")
pytestmark = [
    pytest.mark.skipif(not BACKEND.is_available(),
                       reason=f"triton backend unavailable: {BACKEND.unavailable_reason()}"),
    # The interpreter computes with numpy, which warns where torch would quietly give
    # inf (fp16 sums past 65504) or NaN (inf - inf): the results are checked instead.
    pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning"),
]
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROW_VARIANTS = ["block", "tiled", "auto"]
WHOLE_VARIANTS = ["two_stage", "auto"]
DTYPES = [torch.float32, torch.float16, torch.bfloat16]
DTYPE_IDS = ["fp32", "fp16", "bf16"]


def _modules():
    """(op module, kernels and launch parameters); imports Triton: only after the skip check."""
    from kernels_triton import reduce, reductions
    return reduce, reductions


# -- every device: compiled on a GPU, interpreted on CPU --------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("cols", CPU_WIDTHS)
@pytest.mark.parametrize("variant", ROW_VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_rows(op, variant, cols, dtype):
    for rows in CPU_ROWS:
        run_and_check(op, make_rows(rows, cols, dtype, DEVICE), -1, "triton", variant)


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("n", WHOLE_SIZES_CPU)
@pytest.mark.parametrize("variant", WHOLE_VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_whole_tensor_is_deterministic(op, variant, n, dtype):
    check_whole_deterministic(op, whole_input(n, dtype, DEVICE), "triton", variant)


@pytest.mark.parametrize("op", OPS)
def test_dim0_of_a_3d_tensor(op):
    x = make_rows(6 * 5, 7, torch.float32, DEVICE).reshape(6, 5, 7)  # rows_view copies: stride(-1) != 1
    run_and_check(op, x, 0, "triton", "auto")
    run_and_check(op, x, 1, "triton", "tiled")


# Widths: 3 (block; tiled: several rows per tile), 1000 (tiled: tail only), 4099 (tiled:
# a full tile plus a tail). 16-bit rows take 4099 through `tiled` only: `block` and
# `auto` there repeat the 1000-wide masked tile at eight times the interpreter's cost.
NAN_ROW_CASES = [(variant, cols, dtype) for variant in ROW_VARIANTS for cols in (3, 1000, 4099)
                 for dtype in DTYPES if cols < 4099 or dtype == torch.float32 or variant == "tiled"]


@pytest.mark.parametrize("variant,cols,dtype", NAN_ROW_CASES,
                         ids=[f"{v}-{c}-{str(d)[6:]}" for v, c, d in NAN_ROW_CASES])
@pytest.mark.parametrize("op", OPS)
def test_nan_and_inf_rows_like_torch(op, variant, cols, dtype):
    x = special_rows(cols, dtype, DEVICE)
    out = OP_FUNCTIONS[op](x, -1, backend="triton", variant=variant)
    assert_like_torch(op, x, out, -1)


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("op", OPS)
def test_nan_and_inf_whole_tensor_like_torch(op, dtype):
    for row in special_rows(5000, dtype, DEVICE):
        out = OP_FUNCTIONS[op](row, None, backend="triton", variant="two_stage")
        assert_like_torch(op, row, out, None)


@pytest.mark.parametrize("variant", ROW_VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_sliced_and_misaligned_views(op, variant):
    for dtype in (torch.float16, torch.bfloat16):
        base = make_rows(9, 1030, dtype, DEVICE)
        run_and_check(op, base[1:, 3:1003], -1, "triton", variant)  # offset, row stride 1030
        run_and_check(op, base[::2, 1:], -1, "triton", variant)     # 2-byte offset, row stride 2060
        run_and_check(op, base.t(), 0, "triton", variant)           # column reduction of a transpose


def test_writes_into_the_given_output():
    x = make_rows(7, 129, torch.float32, DEVICE)
    for op in OPS:
        for variant in ["block", "tiled"]:
            out = torch.full((7,), float("nan"), device=DEVICE)
            assert BACKEND.run_into(x, op, variant, out) is out
            torch.testing.assert_close(out, x.sum(-1) if op == "reduce_sum" else x.amax(-1))


def test_variants_name_the_form_they_need():
    reduce, reductions = _modules()
    rows = torch.zeros(3, 5, device=DEVICE)
    whole = torch.zeros(15, device=DEVICE)
    for op in OPS:
        for variant in ["block", "tiled"]:
            support = BACKEND.supports(whole, op, variant, dim=None)
            assert not support and "dim=None" in support.reason and "two_stage" in support.reason
        support = BACKEND.supports(rows, op, "two_stage", dim=-1)
        assert not support and "block" in support.reason
        assert "block" in reduce.why_unsupported(rows, op, "two_stage")  # the op module, asked directly
    wide = torch.zeros(1, reductions.BLOCK_MAX_COLS + 1, device=DEVICE)
    support = BACKEND.supports(wide, "reduce_sum", "block", dim=-1)
    assert not support and "tiled" in support.reason
    with pytest.raises(ValueError, match="two_stage"):
        reduce_sum(whole, None, backend="triton", variant="block")


def test_auto_plan_follows_the_thresholds():
    reduce, reductions = _modules()
    limit = reductions.AUTO_BLOCK_MAX_COLS
    assert reduce.plan(torch.zeros(4, limit, device=DEVICE), "reduce_sum")["kernel"] == "block"
    assert reduce.plan(torch.zeros(4, limit + 1, device=DEVICE), "reduce_sum")["kernel"] == "tiled"
    whole = reduce.plan(torch.zeros(100_000, device=DEVICE), "reduce_max")
    assert whole["kernel"] == "two_stage" and whole["finish_constexprs"]["BLOCK_P"] >= whole["grid"]
    narrow = reduce.plan(torch.zeros(1000, 3, device=DEVICE), "reduce_sum", "block")
    assert narrow["constexprs"]["BLOCK_N"] == 4
    tile = reductions.BLOCK_TILE_ELEMENTS if DEVICE == "cuda" else reductions.INTERPRETER_TILE_ELEMENTS
    assert narrow["constexprs"]["BLOCK_M"] * 4 == tile
    constexprs, warps, units = reductions.launch_params(torch.zeros(1000, 3), "block", interpreted=False)
    assert (constexprs["BLOCK_M"] * 4, warps, units) == (reductions.BLOCK_TILE_ELEMENTS, 8, 1)


def test_tiled_takes_short_rows_several_at_a_time():
    # Rows of at most half a stream tile go ROWS at a time (one whole tile per iteration);
    # wider rows one at a time, the loop the GPU runs on wide rows.
    reduce, reductions = _modules()
    tile = reductions.STREAM_TILE
    for cols, tile_n, rows_per_tile in [(3, 4, tile // 4), (1000, 1024, tile // 1024),
                                        (tile // 2, tile // 2, 2), (tile // 2 + 1, tile, 1),
                                        (3 * tile + 5, tile, 1)]:
        # the GPU's parameters (computed here without one)
        constexprs, warps, units = reductions.launch_params(torch.zeros(10, cols), "tiled", interpreted=False)
        assert (constexprs["TILE_N"], constexprs["ROWS"]) == (tile_n, rows_per_tile), cols
        assert warps == 8 and units == -(-10 // rows_per_tile)  # a whole tile's worth of warps either way
        # what runs here: the same on a GPU; under the interpreter tiles of at most
        # INTERPRETER_TILE_ELEMENTS
        p = reduce.plan(torch.zeros(10, cols, device=DEVICE), "reduce_sum", "tiled")
        expected = rows_per_tile if DEVICE == "cuda" else max(1, min(
            rows_per_tile, reductions.INTERPRETER_TILE_ELEMENTS // tile_n))
        assert p["constexprs"]["ROWS"] == expected
    # 5000 rows of 3 (dim 0 of a 3 x 5000 tensor): took 19 s under the interpreter one row
    # per iteration. The grid: a few programs looping over row tiles, masked last tile.
    x = make_rows(3, 5000, torch.float32, DEVICE)
    for op in OPS:
        run_and_check(op, x, 0, "triton", "tiled")


# -- any tensor: an answer, never an exception ----------------------------------------------

def odd_tensors(device):
    """(name, tensor) pairs the op module may be handed: canonical forms, empty in each
    dimension, layouts that are not canonical, and dtypes the kernels do not take."""
    base = make_rows(6, 10, torch.float32, device)
    return [
        ("1-D", base[0].clone()),
        ("1-D strided", base[:, 0]),
        ("0-dim", base[0, 0].clone()),
        ("empty 1-D", torch.empty(0, device=device)),
        ("0 rows", torch.empty(0, 5, device=device)),
        ("0 cols", torch.empty(4, 0, device=device)),
        ("0 x 0", torch.empty(0, 0, device=device)),
        ("3-D", base.reshape(2, 3, 10)),
        ("2-D transposed", base.t()),
        ("2-D offset view", base[1:, 3:]),
        ("bf16 rows", base.to(torch.bfloat16)),
        ("int32", base.to(torch.int32)),
        ("fp64", base.double()),
        ("bool", base > 0),
        ("0-dim int", torch.tensor(3, device=device)),
    ]


def expected_reduction(op, x):
    """What torch gives for the op module's forms (2-D: along rows; 1-D or 0-dim: whole),
    or the exception type it raises (the max of nothing)."""
    try:
        if op == "reduce_sum":
            return x.float().sum(-1 if x.dim() == 2 else None).to(x.dtype)
        return x.amax(-1) if x.dim() == 2 else x.amax()
    except (IndexError, RuntimeError) as exc:
        return type(exc)


@pytest.mark.parametrize("name", [name for name, _ in odd_tensors("cpu")])
def test_any_tensor_gets_an_answer(name):
    reduce, _ = _modules()
    x = dict(odd_tensors(DEVICE))[name]
    for op in OPS:
        for variant in ("auto", *reduce.VARIANTS[op]):
            for dim in (-1, None):                                        # the backend's question
                assert isinstance(bool(BACKEND.supports(x, op, variant, dim=dim)), bool)
            why = reduce.why_unsupported(x, op, variant)                  # the op module's, as given
            assert why is None or (isinstance(why, str) and why)
            p = reduce.plan(x, op, variant)
            assert p["unsupported"] == why
            if why is not None:
                assert p["kernel"] is None
                error = TypeError if x.dtype not in DTYPES else ValueError
                with pytest.raises(error) as raised:
                    reduce.run(x, op, variant)
                assert str(raised.value) == why
                continue
            assert (p["grid"] == 0) == (x.numel() == 0)
            expected = expected_reduction(op, x)
            if isinstance(expected, type):  # the max of an empty row or tensor: torch's error
                with pytest.raises(expected, match="amax"):
                    reduce.run(x, op, variant)
                continue
            out = reduce.run(x, op, variant)
            assert out.shape == expected.shape and out.dtype == x.dtype
            torch.testing.assert_close(out, expected, atol=1e-5, rtol=1e-2 if x.dtype == torch.bfloat16 else 1e-5)
    if name == "3-D":
        assert "3-D" in reduce.why_unsupported(x, "reduce_sum", "auto")
    if name in ("int32", "fp64", "bool", "0-dim int"):
        assert "dtype" in reduce.why_unsupported(x, "reduce_sum", "auto")


def test_bf16_results_are_rounded_to_nearest_even():
    # The bf16 result of a reduction is its fp32 result rounded to nearest even: the same
    # kernel on the same values as fp32 input (the same tiles: they depend on the width
    # only) gives that fp32 result, and torch rounds it. Truncation (the interpreter's own
    # conversion) would differ on about half the rows.
    x16 = make_rows(200, 300, torch.bfloat16, DEVICE, seed=4, extremes=False)
    bits = torch.int16
    for variant in ("block", "tiled"):
        y16 = reduce_sum(x16, -1, backend="triton", variant=variant)
        y32 = reduce_sum(x16.float(), -1, backend="triton", variant=variant)
        truncated = (y32.view(torch.int32) >> 16).to(torch.int16)
        assert (truncated != y32.to(torch.bfloat16).view(bits)).any()
        assert torch.equal(y16.view(bits), y32.to(torch.bfloat16).view(bits)), variant
    whole16 = x16.reshape(-1)
    y16 = reduce_sum(whole16, None, backend="triton", variant="two_stage")
    y32 = reduce_sum(whole16.float(), None, backend="triton", variant="two_stage")
    assert torch.equal(y16.view(bits), y32.to(torch.bfloat16).view(bits))


# -- GPU only -----------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.slow
@pytest.mark.parametrize("dtype", GPU_DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("cols", GPU_WIDTHS)
@pytest.mark.parametrize("variant", ROW_VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_rows_sweep(op, variant, cols, dtype):
    for rows in GPU_ROWS:
        x = make_rows(rows, cols, dtype, "cuda")
        support = BACKEND.supports(x, op, variant, dim=-1)
        if not support:
            assert variant == "block" and cols > _modules()[1].BLOCK_MAX_COLS, support.reason
            pytest.skip(support.reason)
        run_and_check(op, x, -1, "triton", variant)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", GPU_DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("n", WHOLE_SIZES_GPU)
@pytest.mark.parametrize("variant", WHOLE_VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_whole_tensor_is_deterministic(op, variant, n, dtype):
    check_whole_deterministic(op, whole_input(n, dtype, "cuda"), "triton", variant)


@pytest.mark.gpu
@pytest.mark.parametrize("variant", ROW_VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_misaligned_view_and_side_stream(op, variant):
    base = make_rows(1001, 4097, torch.bfloat16, "cuda")
    view = base[1:, 1:]                        # 2-byte offset, odd row stride: no 16-byte packs
    run_and_check(op, view, -1, "triton", variant)
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        out = OP_FUNCTIONS[op](view, -1, backend="triton", variant=variant)
    stream.synchronize()
    ref = run_and_check(op, view, -1, "triton", variant)
    assert torch.equal(out, ref)
