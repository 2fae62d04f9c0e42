"""CUDA reductions (kernels_cuda/reduce.py, csrc/reduce/): what the test matrix does not
check.

Agreement with float64 is the matrix's (tests/test_matrix.py on the reduction cases of
tests/softmax_cases.py, checked by its one `run_and_check`): every variant on the GPU
width sweep x rows x dtype, whole tensors up to 2**28 elements (fp32: the same bits
twice), views with int, tuple and None dims, misaligned views, special values, empty
tensors, outputs written through `run_into`. This file keeps:

* without a GPU: the variant table, that `run` passes each argument where bindings.cpp
  declares it (the .cu itself is compiled, and its code tables compared with Python's,
  by tests/test_cuda_compile.py), and that every variant takes both forms;
* with one: the C++ plan (layouts, group, pack width, grid, the whole-tensor form's
  partials); NaN and inf in whole tensors spread over several blocks' partials (the
  matrix's whole-tensor special values are 7 elements: one partial); a side stream and
  a second device.
"""
from __future__ import annotations

import pathlib
import re

import pytest
import torch

import comparison
import kernels_cuda.reduce as cuda_reduce
from comparison import get_backend
from comparison.api import OP_FUNCTIONS
from comparison.inputs import make_rows
from softmax_cases import REDUCE_OPS as OPS
from softmax_cases import Target, run_and_check, special_rows

BACKEND = get_backend("cuda")
VARIANTS = ["warp_xor", "warp_down", "smem_tree", "vectorized", "auto"]
BINDINGS = pathlib.Path(cuda_reduce.__file__).parent / "csrc" / "bindings.cpp"


# -- no GPU needed: the variant table and the calls into the extension --------------------

def test_variant_table_matches_the_backend():
    for op in OPS:
        assert list(cuda_reduce.VARIANTS[op]) == VARIANTS[:-1]
        assert set(cuda_reduce.VARIANT_CODES) == {*cuda_reduce.VARIANTS[op], "auto"}
    assert [cuda_reduce.VARIANT_CODES[v] for v in VARIANTS[:-1]] == [0, 1, 2, 3]


def _declared_parameters(function: str) -> list[str]:
    params = re.search(rf"\b{function}\(([^)]*)\);", BINDINGS.read_text()).group(1)
    return [p.split()[-1] for p in params.split(",")]


@pytest.mark.parametrize("x, function", [
    (torch.zeros(6, 1032, dtype=torch.float16)[:, 8:], "reduce_rows"),
    (torch.zeros(6, 48)[:, 2:], "reduce_rows"),
    (torch.zeros(1001, dtype=torch.bfloat16), "reduce_whole"),
])
@pytest.mark.parametrize("variant", ["vectorized", "auto"])
def test_launcher_arguments_match_the_bindings(monkeypatch, x, function, variant):
    """run is one call into the extension (plus, for the whole tensor, the constants that
    size the partials), each argument in the position bindings.cpp declares."""
    calls = []

    class Recorder:
        def __getattr__(self, name):
            def call(*args):
                calls.append((name, args))
                return {"WHOLE_MAX_GRID": 7} if name == "reduce_constants" else None
            return call

    monkeypatch.setattr(cuda_reduce, "extension", lambda: Recorder())
    monkeypatch.setattr(cuda_reduce, "current_stream", lambda device: 1234)
    cuda_reduce.constants.cache_clear()
    try:
        out = torch.empty(x.shape[:1] if x.dim() == 2 else (), dtype=x.dtype)
        assert cuda_reduce.run(x, "reduce_max", variant, out=out) is out
    finally:
        cuda_reduce.constants.cache_clear()
    launches = [c for c in calls if c[0] != "reduce_constants"]
    (name, args), = launches
    assert name == function
    got = dict(zip(_declared_parameters(function), args, strict=True))
    assert got["x"] == x.data_ptr() and got["out"] == out.data_ptr()
    assert got["dtype"] == cuda_reduce.DTYPE_CODES[x.dtype] and got["op"] == cuda_reduce.OP_CODES["reduce_max"]
    assert got["variant"] == cuda_reduce.VARIANT_CODES[variant]
    assert got["device"] == x.device.index and got["stream"] == 1234
    if function == "reduce_rows":
        assert (got["rows"], got["cols"], got["row_stride"]) == (x.shape[0], x.shape[1], x.stride(0))
    else:
        assert got["n"] == x.numel() and got["partials_size"] == 7
        assert [c[0] for c in calls] == ["reduce_constants", "reduce_whole"]


def test_every_variant_supports_both_forms():
    for variant in VARIANTS:
        assert cuda_reduce.why_unsupported(torch.zeros(3, 5), "reduce_sum", variant) is None
        assert cuda_reduce.why_unsupported(torch.zeros(15), "reduce_max", variant) is None


# -- GPU: the C++ plan ----------------------------------------------------------------------

def _require_backend():
    if not BACKEND.is_available():
        pytest.skip(f"cuda backend unavailable: {BACKEND.unavailable_reason()}")


@pytest.fixture
def limits():
    """The plan's constants on cuda:0 (from the extension), and the GPU's SM count."""
    _require_backend()
    values = dict(cuda_reduce.constants(0))
    values["SMS"] = torch.cuda.get_device_properties(0).multi_processor_count
    return values


@pytest.mark.gpu
@pytest.mark.parametrize("cols, layout", [
    (1, "warp_per_row"), (1024, "warp_per_row"),            # up to WARP_ROW_MAX_COLS
    (1025, "block_per_row"), (65536, "block_per_row"),
])
def test_layout_switches_at_the_named_width(limits, cols, layout):
    assert limits["WARP_ROW_MAX_COLS"] == 1024
    p = cuda_reduce.plan(torch.zeros(3, cols, device="cuda"), "reduce_sum", "warp_xor")
    assert p["layout"] == layout and p["form"] == "rows" and p["variant"] == "warp_xor"
    assert p["threads"] % 32 == 0 and 32 <= p["threads"] <= 1024
    assert p["grid"] <= limits["SMS"] * limits["MAX_THREADS_PER_SM"] // p["threads"]


@pytest.mark.gpu
@pytest.mark.parametrize("cols, variant, group", [
    (1, "warp_xor", 1), (3, "smem_tree", 4), (31, "warp_down", 32), (1000, "warp_xor", 32),
    (64, "vectorized", 4),     # 16 packs of 4 fp32, 4 per lane: 4 lanes per row, 8 rows per warp
    (128, "vectorized", 8),
    (1024, "vectorized", 32),  # 256 packs: 8 per lane
])
def test_narrow_rows_share_a_warp(limits, cols, variant, group):
    p = cuda_reduce.plan(torch.zeros(1000, cols, device="cuda"), "reduce_max", variant)
    assert p["layout"] == "warp_per_row" and p["group"] == group
    assert p["grid"] == min(-(-1000 // (p["threads"] // group)), limits["SMS"] * 2048 // p["threads"])


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_vectorized_lanes_take_several_packs_and_warps_hold_rows_to_the_pack_limit(limits, dtype):
    # vectorized keeps LANE_PACKS packs in flight per lane; rows up to WARP_ROW_MAX_PACKS
    # packs (16-bit: past WARP_ROW_MAX_COLS) stay in a warp, wider ones get a block.
    pack = 16 // dtype.itemsize
    widest = limits["WARP_ROW_MAX_PACKS"] * pack
    for cols in (pack, 8 * pack, widest, widest + pack):
        p = cuda_reduce.plan(torch.zeros(4, cols, dtype=dtype, device="cuda"), "reduce_sum", "auto")
        packs = cols // pack
        if packs <= limits["WARP_ROW_MAX_PACKS"]:
            lanes = min(32, 1 << (-(-packs // limits["LANE_PACKS"]) - 1).bit_length())
            assert (p["layout"], p["group"], p["pack"]) == ("warp_per_row", lanes, pack), (cols, p)
        else:
            assert p["layout"] == "block_per_row", (cols, p)
        x = torch.randn(37, cols, device="cuda").to(dtype)
        # fp32 accumulation, then one rounding to dtype (bf16: half an ulp, 2^-9)
        torch.testing.assert_close(comparison.reduce_sum(x, -1, backend="cuda").float(), x.double().sum(-1).float(),
                                   rtol=2 ** -8 if dtype != torch.float32 else 1e-5, atol=1e-3)
        assert torch.equal(comparison.reduce_max(x, -1, backend="cuda"), x.amax(-1))


@pytest.mark.gpu
def test_block_per_row_grows_with_the_width(limits):
    threads = [cuda_reduce.plan(torch.zeros(2, c, device="cuda"), "reduce_sum", "vectorized")["threads"]
               for c in (2048, 8192, 65536)]
    assert threads == sorted(threads) and threads[-1] == 1024 and threads[0] >= limits["BLOCK_ROW_MIN_THREADS"]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype, full", [(torch.float32, 4), (torch.float16, 8), (torch.bfloat16, 8)])
def test_pack_width_follows_alignment(limits, dtype, full):
    base = torch.zeros(8, 1032, dtype=dtype, device="cuda")
    plan = cuda_reduce.plan
    assert plan(base, "reduce_sum", "vectorized")["pack"] == full            # aligned rows, width % 16 B
    assert plan(base, "reduce_sum", "auto")["pack"] == full                   # auto is vectorized
    assert plan(base, "reduce_sum", "auto")["variant"] == "vectorized"
    assert plan(base, "reduce_sum", "warp_xor")["pack"] == 1                  # scalar variants
    assert plan(base[:, 1:], "reduce_sum", "vectorized")["pack"] == 1         # one-element offset, odd width
    assert plan(base[:, 2:1026], "reduce_sum", "vectorized")["pack"] == 2     # two-element offset
    assert plan(base[:1, 4:], "reduce_sum", "vectorized")["pack"] == min(full, 4)  # one row: stride irrelevant
    assert plan(torch.zeros(3, 1025, dtype=dtype, device="cuda"), "reduce_max", "vectorized")["pack"] == 1
    flat = torch.zeros(1001, dtype=dtype, device="cuda")
    assert plan(flat, "reduce_sum", "vectorized")["pack"] == full             # 1-D: tail handled in-kernel
    assert plan(flat[1:], "reduce_sum", "vectorized")["pack"] == 1


@pytest.mark.gpu
def test_whole_tensor_plan_is_fixed_and_bounded(limits):
    p = cuda_reduce.plan(torch.zeros(1 << 20, device="cuda"), "reduce_sum", "smem_tree")
    assert p["form"] == "whole" and p["layout"] == "grid_then_one_block" and p["pack"] == 1
    assert p["grid"] == limits["SMS"] * limits["MAX_THREADS_PER_SM"] // limits["WHOLE_THREADS"]
    assert p["grid"] == limits["WHOLE_MAX_GRID"], "the partials Python allocates are exactly enough"
    assert p["finish_threads"] >= min(p["grid"], 1024) and p["finish_threads"] & (p["finish_threads"] - 1) == 0
    small = cuda_reduce.plan(torch.zeros(5, device="cuda"), "reduce_max", "warp_down")
    assert small["grid"] == 1 and small["finish_threads"] == 32


# -- GPU: what the matrix leaves out -------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("n", [4099, 70000])  # 3-9 / 35-137 blocks of 512 threads (packs of 4 / 1)
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_nan_and_inf_in_a_whole_tensor_over_several_blocks(op, variant, n):
    """Each of the matrix's special rows as a whole tensor of n elements: the blocks' fp32
    partials must combine like torch (NaN beats +inf, +inf meets -inf in another block)."""
    _require_backend()
    for row in special_rows(n, torch.float32, "cuda"):
        run_and_check(Target("cuda", op, variant), row, None)


@pytest.mark.gpu
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_side_stream(op, variant):
    """The same call on a side stream gives the same bits (rows and the whole tensor)."""
    _require_backend()
    x = make_rows(1000, 2049, torch.bfloat16, "cuda")
    reference = OP_FUNCTIONS[op](x, -1, backend="cuda", variant=variant)
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        on_side = OP_FUNCTIONS[op](x, -1, backend="cuda", variant=variant)
        whole = OP_FUNCTIONS[op](x, None, backend="cuda", variant=variant)
    stream.synchronize()
    assert torch.equal(on_side, reference)
    assert torch.equal(whole, OP_FUNCTIONS[op](x, None, backend="cuda", variant=variant))


@pytest.mark.gpu
@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA GPUs")
def test_gpu_second_device():
    _require_backend()
    x = make_rows(7, 3000, torch.float32, "cuda:1")
    for variant in VARIANTS:
        for op in OPS:
            run_and_check(Target("cuda", op, variant), x, -1)
            run_and_check(Target("cuda", op, variant), x, None)
    assert torch.cuda.current_device() == 0
