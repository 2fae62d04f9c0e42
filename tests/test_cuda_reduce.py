"""CUDA reductions (kernels_cuda/reduce.py, csrc/reduce.cu) against the float64 reference.

Without a GPU only the launch plan and the Python/C++ code tables are checked (the .cu
itself is compiled by tests/test_cuda_compile.py); with one, every variant runs on the
width/dtype table, the whole-tensor form on up to 2**28 elements twice (same bits),
misaligned views, a side stream and a second device.
"""
from __future__ import annotations

import pathlib
import re

import pytest
import torch

import kernels_cuda.reduce as cuda_reduce
from comparison import get_backend
from comparison.api import OP_FUNCTIONS
from comparison.inputs import make_rows
from reduce_cases import (GPU_DTYPES, GPU_ROWS, GPU_WIDTHS, OPS, WHOLE_SIZES_GPU, assert_like_torch,
                          check_whole_deterministic, run_and_check, special_rows, whole_input)

BACKEND = get_backend("cuda")
VARIANTS = ["warp_xor", "warp_down", "smem_tree", "vectorized", "auto"]
SOURCE = pathlib.Path(cuda_reduce.__file__).parent / "csrc" / "reduce.cu"
H100_SMS = 132


@pytest.fixture
def sm_count(monkeypatch):
    """Plans computed as for an H100 (132 SMs), on any machine."""
    monkeypatch.setattr(cuda_reduce, "_sm_count", lambda index: H100_SMS)
    return H100_SMS


# -- no GPU needed: the plan and the code tables ------------------------------------------

def test_variant_table_matches_the_backend():
    for op in OPS:
        assert list(cuda_reduce.VARIANTS[op]) == VARIANTS[:-1]
        assert set(cuda_reduce.VARIANT_CODES) == set(cuda_reduce.VARIANTS[op])


def test_codes_match_the_cuda_source():
    text = SOURCE.read_text()

    def enum(name):
        body = re.search(rf"enum {name} : int64_t \{{([^}}]*)\}}", text).group(1)
        return {k.strip(): int(v) for k, v in (item.split("=") for item in body.split(","))}

    variants = enum("Variant")
    assert {"kWarpXor": 0, "kWarpDown": 1, "kSmemTree": 2, "kVectorized": 3} == variants
    assert [variants[k] for k in ("kWarpXor", "kWarpDown", "kSmemTree", "kVectorized")] == \
        [cuda_reduce.VARIANT_CODES[v] for v in ("warp_xor", "warp_down", "smem_tree", "vectorized")]
    assert enum("OpCode") == {"kSum": cuda_reduce.OP_CODES["reduce_sum"], "kMax": cuda_reduce.OP_CODES["reduce_max"]}
    assert enum("Layout") == {"kWarpPerRow": cuda_reduce.LAYOUT_CODES["warp_per_row"],
                              "kBlockPerRow": cuda_reduce.LAYOUT_CODES["block_per_row"]}
    assert cuda_reduce.DTYPE_CODES == {torch.float32: 0, torch.float16: 1, torch.bfloat16: 2}
    assert "#include <torch" not in text and "ATen" not in text and "c10" not in text


@pytest.mark.parametrize("cols, layout", [
    (1, "warp_per_row"), (1024, "warp_per_row"),            # up to WARP_ROW_MAX_COLS
    (1025, "block_per_row"), (65536, "block_per_row"),
])
def test_layout_switches_at_the_named_width(sm_count, cols, layout):
    assert cuda_reduce.WARP_ROW_MAX_COLS == 1024
    p = cuda_reduce.plan(torch.zeros(3, cols), "reduce_sum", "warp_xor")
    assert p["layout"] == layout and p["form"] == "rows"
    assert p["threads"] % 32 == 0 and 32 <= p["threads"] <= 1024
    assert p["grid"] <= sm_count * cuda_reduce.MAX_THREADS_PER_SM // p["threads"]


@pytest.mark.parametrize("cols, variant, group", [
    (1, "warp_xor", 1), (3, "smem_tree", 4), (31, "warp_down", 32), (1000, "warp_xor", 32),
    (64, "vectorized", 16),    # 16 packs of 4 fp32: 16 lanes per row, 2 rows per warp
    (128, "vectorized", 32),
])
def test_narrow_rows_share_a_warp(sm_count, cols, variant, group):
    p = cuda_reduce.plan(torch.zeros(1000, cols), "reduce_max", variant)
    assert p["layout"] == "warp_per_row" and p["group"] == group
    assert p["grid"] == min(-(-1000 // (p["threads"] // group)), sm_count * 2048 // p["threads"])


def test_block_per_row_grows_with_the_width(sm_count):
    threads = [cuda_reduce.plan(torch.zeros(2, c), "reduce_sum", "vectorized")["threads"]
               for c in (2048, 8192, 65536)]
    assert threads == sorted(threads) and threads[-1] == 1024 and threads[0] >= 128


@pytest.mark.parametrize("dtype, full", [(torch.float32, 4), (torch.float16, 8), (torch.bfloat16, 8)])
def test_pack_width_follows_alignment(sm_count, dtype, full):
    base = torch.zeros(8, 1032, dtype=dtype)
    plan = cuda_reduce.plan
    assert plan(base, "reduce_sum", "vectorized")["pack"] == full            # aligned rows, width % 16 B
    assert plan(base, "reduce_sum", "auto")["pack"] == full                   # auto is vectorized
    assert plan(base, "reduce_sum", "warp_xor")["pack"] == 1                  # scalar variants
    assert plan(base[:, 1:], "reduce_sum", "vectorized")["pack"] == 1         # one-element offset, odd width
    assert plan(base[:, 2:1026], "reduce_sum", "vectorized")["pack"] == 2     # two-element offset
    assert plan(base[:1, 4:], "reduce_sum", "vectorized")["pack"] == min(full, 4)  # one row: stride irrelevant
    assert plan(torch.zeros(3, 1025, dtype=dtype), "reduce_max", "vectorized")["pack"] == 1
    flat = torch.zeros(1001, dtype=dtype)
    assert plan(flat, "reduce_sum", "vectorized")["pack"] == full             # 1-D: tail handled in-kernel
    assert plan(flat[1:], "reduce_sum", "vectorized")["pack"] == 1


def test_whole_tensor_plan_is_fixed_and_bounded(sm_count):
    p = cuda_reduce.plan(torch.zeros(1 << 20), "reduce_sum", "smem_tree")
    assert p["form"] == "whole" and p["pack"] == 1
    assert p["grid"] == sm_count * cuda_reduce.MAX_THREADS_PER_SM // cuda_reduce.WHOLE_THREADS
    assert p["finish_threads"] >= min(p["grid"], 1024) and p["finish_threads"] & (p["finish_threads"] - 1) == 0
    small = cuda_reduce.plan(torch.zeros(5), "reduce_max", "warp_down")
    assert small["grid"] == 1 and small["finish_threads"] == 32


def _declared_parameters(function: str) -> list[str]:
    text = (SOURCE.parent / "bindings.cpp").read_text()
    params = re.search(rf"\b{function}\(([^)]*)\);", text).group(1)
    return [p.split()[-1] for p in params.split(",")]


@pytest.mark.parametrize("x, function", [
    (torch.zeros(6, 1032, dtype=torch.float16)[:, 8:], "reduce_rows"),   # block per row, pack 8
    (torch.zeros(6, 48)[:, 2:], "reduce_rows"),                          # warp per row, pack 2
    (torch.zeros(1001, dtype=torch.bfloat16), "reduce_whole"),
])
def test_launcher_arguments_match_the_bindings(sm_count, monkeypatch, x, function):
    """The Python call passes each argument in the position bindings.cpp declares."""
    calls = []

    class Recorder:
        def __getattr__(self, name):
            return lambda *args: calls.append((name, args))

    import kernels_cuda.build as build
    monkeypatch.setattr(build, "extension", lambda: Recorder())
    monkeypatch.setattr(torch.cuda, "current_stream", lambda device: type("S", (), {"cuda_stream": 1234})())
    p = cuda_reduce.plan(x, "reduce_max", "vectorized")
    out = torch.empty(x.shape[:1] if x.dim() == 2 else (), dtype=x.dtype)
    cuda_reduce.run(x, "reduce_max", "vectorized", out=out)
    (name, args), = [c for c in calls if c[0] == function]
    got = dict(zip(_declared_parameters(function), args, strict=True))
    assert got["x"] == x.data_ptr() and got["out"] == out.data_ptr()
    assert got["dtype"] == cuda_reduce.DTYPE_CODES[x.dtype] and got["op"] == cuda_reduce.OP_CODES["reduce_max"]
    assert got["variant"] == cuda_reduce.VARIANT_CODES["vectorized"]
    assert (got["pack"], got["threads"], got["grid"]) == (p["pack"], p["threads"], p["grid"])
    assert got["device"] == x.device.index and got["stream"] == 1234
    if function == "reduce_rows":
        assert (got["rows"], got["cols"], got["row_stride"]) == (x.shape[0], x.shape[1], x.stride(0))
        assert got["layout"] == cuda_reduce.LAYOUT_CODES[p["layout"]] and got["group"] == p["group"]
    else:
        assert got["n"] == x.numel() and got["finish_threads"] == p["finish_threads"]


def test_every_variant_supports_both_forms():
    for variant in VARIANTS:
        assert cuda_reduce.why_unsupported(torch.zeros(3, 5), "reduce_sum", variant) is None
        assert cuda_reduce.why_unsupported(torch.zeros(15), "reduce_max", variant) is None


# -- GPU ----------------------------------------------------------------------------------

def _require_backend():
    if not BACKEND.is_available():
        pytest.skip(f"cuda backend unavailable: {BACKEND.unavailable_reason()}")


@pytest.mark.gpu
@pytest.mark.slow
@pytest.mark.parametrize("dtype", GPU_DTYPES, ids=["fp32", "fp16", "bf16"])
@pytest.mark.parametrize("cols", GPU_WIDTHS)
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_rows_sweep(op, variant, cols, dtype):
    _require_backend()
    for rows in GPU_ROWS:
        run_and_check(op, make_rows(rows, cols, dtype, "cuda"), -1, "cuda", variant)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", GPU_DTYPES, ids=["fp32", "fp16", "bf16"])
@pytest.mark.parametrize("n", WHOLE_SIZES_GPU)
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_whole_tensor_is_deterministic(op, variant, n, dtype):
    _require_backend()
    check_whole_deterministic(op, whole_input(n, dtype, "cuda"), "cuda", variant)


@pytest.mark.gpu
@pytest.mark.parametrize("cols", [3, 1000, 4099])  # warp per row / warp per row / block per row
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_nan_and_inf_like_torch(op, variant, cols):
    _require_backend()
    x = special_rows(cols, torch.float32, "cuda")
    assert_like_torch(op, x, OP_FUNCTIONS[op](x, -1, backend="cuda", variant=variant), -1)
    for row in x:
        assert_like_torch(op, row, OP_FUNCTIONS[op](row, None, backend="cuda", variant=variant), None)


@pytest.mark.gpu
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_misaligned_views(op, variant):
    _require_backend()
    base = make_rows(1001, 4104, torch.float16, "cuda")
    run_and_check(op, base[1:, 1:], -1, "cuda", variant)        # 2-byte offset: pack 1
    run_and_check(op, base[1:, 2:1026], -1, "cuda", variant)    # 4-byte offset: pack 2
    run_and_check(op, base[:, 8:], -1, "cuda", variant)         # 16-byte offset: full packs
    run_and_check(op, base[:, 3:600], -1, "cuda", variant)      # warp per row, odd width
    run_and_check(op, base.reshape(-1)[3:100_003], None, "cuda", variant)  # 1-D, odd start
    run_and_check(op, base.t(), 0, "cuda", variant)             # columns of a transpose (copied)


@pytest.mark.gpu
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", OPS)
def test_gpu_side_stream_and_output_buffer(op, variant):
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
    out = torch.full((1000,), float("nan"), dtype=x.dtype, device="cuda")
    BACKEND.run_into(x, op, variant, out)
    assert torch.equal(out, reference)


@pytest.mark.gpu
@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA GPUs")
def test_gpu_second_device():
    _require_backend()
    x = make_rows(7, 3000, torch.float32, "cuda:1")
    for variant in VARIANTS:
        for op in OPS:
            run_and_check(op, x, -1, "cuda", variant)
            run_and_check(op, x, None, "cuda", variant)
    assert torch.cuda.current_device() == 0
