"""Triton reductions (kernels_triton/reduce.py): every variant against the float64 reference.

Without a GPU the kernels run on CPU tensors under Triton's interpreter (tests/conftest.py
sets TRITON_INTERPRET=1); with one, the same tests run compiled on it, and the `gpu`
tests add the full width/dtype sweep, 2**28-element whole-tensor sums, misaligned views
and side streams.
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


def _reduce_module():
    import kernels_triton.reduce as module
    return module


# -- every device: compiled on a GPU, interpreted on CPU --------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=["fp32", "fp16"])
@pytest.mark.parametrize("cols", CPU_WIDTHS)
@pytest.mark.parametrize("variant", ROW_VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_rows(op, variant, cols, dtype):
    for rows in CPU_ROWS:
        run_and_check(op, make_rows(rows, cols, dtype, DEVICE), -1, "triton", variant)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=["fp32", "fp16"])
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


@pytest.mark.parametrize("cols", [3, 1000, 4099])  # block / tiled tail only / tiled full tile + tail
@pytest.mark.parametrize("variant", ROW_VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_nan_and_inf_rows_like_torch(op, variant, cols):
    x = special_rows(cols, torch.float32, DEVICE)
    out = OP_FUNCTIONS[op](x, -1, backend="triton", variant=variant)
    assert_like_torch(op, x, out, -1)


@pytest.mark.parametrize("op", OPS)
def test_nan_and_inf_whole_tensor_like_torch(op):
    for row in special_rows(5000, torch.float32, DEVICE):
        out = OP_FUNCTIONS[op](row, None, backend="triton", variant="two_stage")
        assert_like_torch(op, row, out, None)


@pytest.mark.parametrize("variant", ROW_VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_sliced_and_misaligned_views(op, variant):
    base = make_rows(9, 1030, torch.float16, DEVICE)
    run_and_check(op, base[1:, 3:1003], -1, "triton", variant)  # offset, row stride 1030
    run_and_check(op, base[::2, 1:], -1, "triton", variant)     # 2-byte offset, row stride 2060
    run_and_check(op, base.t(), 0, "triton", variant)           # column reduction of a transpose


def test_writes_into_the_given_output():
    x = make_rows(7, 129, torch.float32, DEVICE)
    for op in OPS:
        for variant in ["block", "tiled"]:
            out = torch.full((7,), float("nan"), device=DEVICE)
            BACKEND.run_into(x, op, variant, out)
            torch.testing.assert_close(out, x.sum(-1) if op == "reduce_sum" else x.amax(-1))


def test_variants_name_the_form_they_need():
    rows = torch.zeros(3, 5, device=DEVICE)
    whole = torch.zeros(15, device=DEVICE)
    for op in OPS:
        for variant in ["block", "tiled"]:
            support = BACKEND.supports(whole, op, variant)
            assert not support and "dim=None" in support.reason and "two_stage" in support.reason
        support = BACKEND.supports(rows, op, "two_stage")
        assert not support and "block" in support.reason
    wide = torch.zeros(1, _reduce_module().BLOCK_MAX_COLS + 1, device=DEVICE)
    support = BACKEND.supports(wide, "reduce_sum", "block")
    assert not support and "tiled" in support.reason
    with pytest.raises(ValueError, match="two_stage"):
        reduce_sum(whole, None, backend="triton", variant="block")


def test_auto_plan_follows_the_thresholds():
    module = _reduce_module()
    limit = module.AUTO_BLOCK_MAX_COLS
    assert module.plan(torch.zeros(4, limit, device=DEVICE), "reduce_sum")["variant"] == "block"
    assert module.plan(torch.zeros(4, limit + 1, device=DEVICE), "reduce_sum")["variant"] == "tiled"
    whole = module.plan(torch.zeros(100_000, device=DEVICE), "reduce_max")
    assert whole["variant"] == "two_stage" and whole["BLOCK_P"] >= whole["grid"]
    narrow = module.plan(torch.zeros(1000, 3, device=DEVICE), "reduce_sum", "block")
    assert narrow["BLOCK_N"] == 4 and narrow["BLOCK_M"] * 4 == module.BLOCK_TILE_ELEMENTS


# -- GPU only -----------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.slow
@pytest.mark.parametrize("dtype", GPU_DTYPES, ids=["fp32", "fp16", "bf16"])
@pytest.mark.parametrize("cols", GPU_WIDTHS)
@pytest.mark.parametrize("variant", ROW_VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_rows_sweep(op, variant, cols, dtype):
    for rows in GPU_ROWS:
        x = make_rows(rows, cols, dtype, "cuda")
        support = BACKEND.supports(x, op, variant)
        if not support:
            assert variant == "block" and cols > _reduce_module().BLOCK_MAX_COLS, support.reason
            pytest.skip(support.reason)
        run_and_check(op, x, -1, "triton", variant)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", GPU_DTYPES, ids=["fp32", "fp16", "bf16"])
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
