"""Triton reductions (kernels_triton/reduce.py, reductions.py): what the test matrix does
not check.

Agreement with float64 is the matrix's (tests/test_matrix.py on the reduction cases of
tests/softmax_cases.py, checked by its one `run_and_check`): every variant (block,
tiled, two_stage, auto) on rows, whole tensors and views with int, tuple and None dims
and keepdim, special values, empty tensors, outputs written through `run_into`, whole
fp32 tensors giving the same bits twice; on the CPU under Triton's interpreter
(tests/conftest.py sets TRITON_INTERPRET=1), on a GPU compiled, with the full sweep
(widths to 262144, 1000 rows, whole tensors of 2**28 elements). This file keeps:

* on the CPU, the interpreter paths that the matrix reaches only on a GPU (its CPU rows
  stop at 600 columns, its CPU whole tensors at one tile): rows of 1000, 1025 and 4099
  (`tiled` loops over whole 4096-wide tiles only from 4096 on; special values there too),
  and a whole tensor of 100_003 elements (`two_stage`'s grid-stride loop: 25 tiles in 4
  programs, 4 partials, the same bits twice);
* NaN and inf in whole tensors of two tiles, whose partials must combine like torch (the
  matrix's whole-tensor special values are 7 elements: one partial);
* the launch policy: the form each variant needs, auto's thresholds, `tiled` taking
  short rows several at a time, the op module's answer for any tensor; bf16 results
  rounded to nearest even where the interpreter's own conversion truncates
  (kernels_triton/downcast.py);
* on a GPU: a side stream.
"""
from __future__ import annotations

import pytest
import torch

from comparison import reduce_sum
from comparison.api import OP_FUNCTIONS
from comparison.inputs import make_rows
from softmax_cases import HAS_GPU, REDUCE_OPS, Target, fill, run_and_check, special_rows
from triton_support import BACKEND, DEVICE, DTYPE_IDS, DTYPES, PYTESTMARK, odd_tensors

pytestmark = PYTESTMARK
OPS = REDUCE_OPS
ROW_VARIANTS = ["block", "tiled", "auto"]
WHOLE_VARIANTS = ["two_stage", "auto"]


def _modules():
    """(op module, kernels and launch parameters); imports Triton: only after the skip check."""
    from kernels_triton import reduce, reductions
    return reduce, reductions


# -- on the CPU: the interpreter paths the matrix's CPU cases do not reach ------------------

@pytest.mark.skipif(HAS_GPU, reason="the matrix's GPU sweep has these widths")
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("cols", [
    1000,   # a multiple of 8, not 16: a masked 1024-wide tile
    1025,   # `block` and `tiled` pad to 2048
    4099,   # `tiled`: one whole 4096-wide tile, then a 3-element tail; `block` (auto) pads to 8192
])
@pytest.mark.parametrize("variant", ROW_VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_rows_wider_than_the_matrix_cpu_shapes(op, variant, cols, dtype):
    target = Target("triton", op, variant)
    for rows in (1, 2, 7):  # 7: every extreme row of make_rows
        run_and_check(target, make_rows(rows, cols, dtype, DEVICE, seed=rows))
    if cols == 4099 and variant == "tiled":  # NaN and inf in the whole tile and in the tail
        run_and_check(target, special_rows(cols, dtype, DEVICE))


@pytest.mark.skipif(HAS_GPU, reason="the matrix has whole tensors of 100_003 and 2**28 elements on a GPU")
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("variant", WHOLE_VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_whole_tensor_over_several_programs(op, variant, dtype):
    # 100_003 elements: 25 tiles of 4096 over the interpreter's 4 programs (the grid-stride
    # loop), 4 partials for stage 2; the same bits twice.
    x = fill((100_003,), dtype, DEVICE, seed=3)
    out, _ = run_and_check(Target("triton", op, variant), x, None)
    again = OP_FUNCTIONS[op](x, None, backend="triton", variant=variant)
    assert torch.equal(out.view(torch.int16 if x.element_size() == 2 else torch.int32),
                       again.view(torch.int16 if x.element_size() == 2 else torch.int32))


# -- every device: compiled on a GPU, interpreted on CPU --------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("op", OPS)
def test_nan_and_inf_in_a_whole_tensor_of_two_tiles(op, dtype):
    # Each of the matrix's special rows, 5000 wide, as a whole tensor: two 4096-wide tiles,
    # two programs, two partials (the matrix's whole-tensor special values are 7 elements,
    # one partial), so that NaN beats +inf and +inf meets -inf across partials.
    for row in special_rows(5000, dtype, DEVICE):
        run_and_check(Target("triton", op, "two_stage"), row, None)


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
        run_and_check(Target("triton", op, "tiled"), x, 0)


# -- any tensor: an answer, never an exception ----------------------------------------------

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


@pytest.mark.parametrize("name", [name for name, _ in odd_tensors("cpu")])
def test_gpu_launch_parameters_for_any_tensor_without_a_gpu(name):
    # A GPU plan sizes its launch with interpreted=False, which the interpreter never
    # asks for: ask here, for every kernel that takes the tensor (empty ones launch nothing).
    reduce, reductions = _modules()
    x = dict(odd_tensors(DEVICE))[name]
    canonical, why = reduce._canonical(x)
    if why is not None or canonical is None or x.dtype not in DTYPES or x.numel() == 0:
        return
    assert reductions.auto_kernel(canonical) in reductions.KERNELS
    for kernel in reductions.KERNELS:
        if reductions.why_unsupported(canonical, kernel) is None:
            constexprs, warps, units = reductions.launch_params(canonical, kernel, interpreted=False)
            assert warps >= 1 and units >= 1, (kernel, constexprs, warps, units)


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
@pytest.mark.parametrize("variant", ROW_VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_side_stream(op, variant):
    # The matrix checks the results on misaligned views; here the same call on a side
    # stream must give the same bits.
    base = make_rows(1001, 4097, torch.bfloat16, "cuda")
    view = base[1:, 1:]                        # 2-byte offset, odd row stride: no 16-byte packs
    expected = OP_FUNCTIONS[op](view, -1, backend="triton", variant=variant)
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        out = OP_FUNCTIONS[op](view, -1, backend="triton", variant=variant)
    stream.synchronize()
    assert torch.equal(out, expected)
