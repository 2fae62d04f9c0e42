"""The test matrix: every (backend, op, variant) the registry lists, on every case of
tests/softmax_cases.py, checked by its one `run_and_check`.

Targets come from `comparison.list_backends()`, `get_backend(b).variants(op)` for op in
`comparison.OPS` and, per input, `supports()`: a backend registered later, or a variant
or op a backend adds later (the backward ops of cuda and triton), is tested with no edit
here. An unavailable backend is one skipped test with its reason. Peers (backends that
are neither this package's nor the torch baseline; torch_compile compiles per shape, a
few seconds each on the CPU) run the cases marked `peer` only.

Without a GPU: torch, and Triton under its interpreter on CPU tensors, on the small cases;
with one, every backend on the same cases plus the `gpu` sweep (widths to 262144, 1000
rows, larger views, 2**28-element whole-tensor reductions); its cases of 2**24 elements
and more are also marked `slow` (``-m "not slow"`` leaves them out).

    python -m pytest tests/test_matrix.py -q -k "triton and log_softmax"
"""
from __future__ import annotations

import pytest
import torch

import comparison
from comparison import get_backend
from comparison.agreement import check
from comparison.inputs import make_rows
from softmax_cases import (BACKWARD_OPS, DEVICE, DTYPES, FORWARD_OPS, HAS_GPU, OTHER_DTYPES, REDUCE_OPS,
                           SPECIAL_ROWS, Case, Target, cases_for, check_declined, check_gradient, expand_dtypes,
                           judge, matrix_params, reduce_cases, row_op_cases, run_and_check, targets)

pytestmark = [
    # Triton's interpreter computes with numpy, which warns where a GPU quietly gives NaN
    # or inf (rows of -inf, +inf - +inf, fp16 overflow): the results are checked instead.
    pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:divide by zero encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:All-NaN slice encountered:RuntimeWarning"),
]


def target_params(ops=comparison.OPS) -> list:
    found, unavailable = targets(ops)
    return [pytest.param(t, id=t.id) for t in found] + [
        pytest.param(None, id=f"{name}-unavailable", marks=pytest.mark.skip(reason=f"backend {name!r} is "
                                                                                  f"unavailable: {why}"))
        for name, why in unavailable.items()]


def test_every_op_has_cases():
    """A new op in comparison.OPS needs its cases here before anything can test it."""
    assert set(comparison.OPS) == {*FORWARD_OPS, *BACKWARD_OPS, *REDUCE_OPS}


@pytest.mark.parametrize("target", target_params())
def test_every_listed_variant_serves_some_case(target):
    """`auto` comes first, and no variant declines every case (a blanket refusal would
    pass the matrix unnoticed)."""
    backend = get_backend(target.backend)
    assert backend.variants(target.op)[0] == "auto"
    for case in cases_for(target.op, gpu=False):
        x, _ = case.input()
        if x.numel() and backend.supports(x, target.op, target.variant, dim=case.dim):
            return
    pytest.fail(f"{target.id} declines every case")


# -- the matrix -------------------------------------------------------------------------------

@pytest.mark.parametrize("target, case", matrix_params())
def test_matrix(target: Target, case: Case):
    if target.op in BACKWARD_OPS:
        y, dy = case.backward_inputs(target.op)
        run_and_check(target, y, case.dim, dy=dy)
    else:
        x, _ = case.input()
        run_and_check(target, x, case.dim, keepdim=case.keepdim)


# Gradients through autograd: the forward variant's output feeds the backward kernels of
# the same backend where it has them (else auto's choice).
GRADIENT_CASES = expand_dtypes([Case("7x129", (7, 129), peer=True)]) + expand_dtypes([
    Case("3x1000", (3, 1000), seed=3),
    Case("transposed, dim=0", (9, 33), lambda t: t.t(), dim=0),
    Case("3-D, dim=1", (2, 5, 3), dim=1),
    Case("expanded rows", (1, 130), lambda t: t.expand(3, 130)),
    Case("1-D", (129,), dim=0),
    Case("0-dim", (), dim=0),
    Case("special rows x5", (len(SPECIAL_ROWS), 5), values="special"),
], (torch.float32,)) + expand_dtypes([
    Case(f"{r}x{c}", (r, c), gpu=True, seed=c) for r, c in [(1000, 1000), (1000, 4096), (7, 70000), (2, 262144)]
] if HAS_GPU else [])


@pytest.mark.parametrize("target, case", matrix_params(FORWARD_OPS, lambda op: GRADIENT_CASES))
def test_gradient(target: Target, case: Case):
    check_gradient(target, case)


# -- what the matrix leaves out: other dtypes, dtype=, determinism ---------------------------

def _other_dtype_input(dtype):
    x = make_rows(3, 7, torch.float32, seed=5)
    return (x > 0) if dtype == torch.bool else (x * 10).to(dtype)


@pytest.mark.parametrize("dtype", OTHER_DTYPES.values(), ids=OTHER_DTYPES.keys())
@pytest.mark.parametrize("target", target_params())
def test_other_dtypes_are_served_or_declined_as_a_type_error(target, dtype):
    backend = get_backend(target.backend)
    x = _other_dtype_input(dtype).to(DEVICE)
    if target.op in BACKWARD_OPS:
        y, dy = (x.softmax(-1), x.flip(-1)) if dtype.is_floating_point else (x, x)
        support = backend.supports(y, target.op, target.variant)
        if not support:
            check_declined(target, support, y, -1, dy=dy)
            assert dtype in backend.dtypes_for(target.op) or support.error is TypeError, support
            return
        run_and_check(target, y, -1, dy=dy)
        return
    support = backend.supports(x, target.op, target.variant)
    if not support:
        check_declined(target, support, x, -1)
        assert dtype in backend.dtypes_for(target.op) or support.error is TypeError, support
        return
    run_and_check(target, x, -1)
    if target.op in REDUCE_OPS:
        run_and_check(target, x, None)


@pytest.mark.parametrize("target", target_params(FORWARD_OPS))
def test_dtype_argument_casts_first(target):
    x = make_rows(7, 129, torch.float16, DEVICE, seed=9)
    if not get_backend(target.backend).supports(x.float(), target.op, target.variant):
        pytest.skip("the variant declines the cast input (checked by the matrix)")
    out = getattr(comparison, target.op)(x, -1, dtype=torch.float32, backend=target.backend, variant=target.variant)
    assert out.dtype == torch.float32 and out.shape == x.shape
    judge(target.backend, [check(target.op, x.float(), out)])


WHOLE_CASES = [c for c in reduce_cases() if c.name.startswith("whole ") and c.dtype == torch.float32]


def _own(params) -> list:
    """The params of this package's backends (and the unavailable ones' skips)."""
    return [p for p in params if p.values[0] is None or get_backend(p.values[0].backend).own]


@pytest.mark.parametrize("target, case", _own(matrix_params(REDUCE_OPS, lambda op: WHOLE_CASES)))
def test_whole_tensor_reductions_give_the_same_bits_twice(target, case):
    """This package's whole-tensor reductions are deterministic (fixed grids, fp32
    partials reduced in a fixed order, no atomics); peers and torch promise nothing."""
    x, _ = case.input()
    if not get_backend(target.backend).supports(x, target.op, target.variant, dim=None):
        return  # refusals: checked by the matrix
    first, again = (getattr(comparison, target.op)(x, None, backend=target.backend, variant=target.variant)
                    for _ in range(2))
    bits = {4: torch.int32, 2: torch.int16}[x.element_size()]
    assert torch.equal(first.view(bits), again.view(bits))


@pytest.mark.gpu
def test_the_gpu_sweep_is_in_the_matrix():
    """With a GPU the matrix adds the full sweep: widths to 262144, 1000 rows."""
    assert any(c.gpu and c.base_shape == (1000, 262144) for c in row_op_cases())
    assert any(c.gpu and c.base_shape == (2 ** 28,) for c in reduce_cases())
    assert {d for c in row_op_cases() if c.gpu for d in [c.dtype]} >= set(DTYPES.values())
