"""The agreement checker accepts correct results and rejects deliberately wrong kernels.

A checker that cannot fail proves nothing: each broken implementation below models a
real kernel bug, and must be rejected at the tolerances the comparison uses.
"""
import pytest
import torch

from comparison.agreement import check
from comparison.inputs import make_rows

DTYPES = [torch.float32, torch.float16, torch.bfloat16]


def _softmax32(x):
    return torch.softmax(x.float(), -1).to(x.dtype)


def _max_skips_last(x):
    m = x.float()[:, :-1].amax(-1, keepdim=True)
    e = torch.exp(x.float() - m)
    return (e / e.sum(-1, keepdim=True)).to(x.dtype)


def _sum_misses_one_pack(x):
    pack = 16 // x.element_size()                   # one 16-byte vector
    e = torch.exp(x.float() - x.float().amax(-1, keepdim=True))
    return (e / e[:, pack:].sum(-1, keepdim=True)).to(x.dtype)


def _no_max_subtraction(x):
    e = torch.exp(x.float())
    return (e / e.sum(-1, keepdim=True)).to(x.dtype)


def _last_element_unwritten(x):
    y = _softmax32(x)
    y[:, -1] = 0
    return y


def _half_precision_exp(x):
    e = torch.exp((x.float() - x.float().amax(-1, keepdim=True)).to(x.dtype))  # exp rounded first
    return (e.float() / e.float().sum(-1, keepdim=True)).to(x.dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("cols", [1, 7, 128, 1000, 4096])
def test_correct_softmax_passes(dtype, cols):
    x = make_rows(16, cols, dtype, seed=cols)
    assert check("softmax", x, _softmax32(x)).ok
    assert check("log_softmax", x, torch.log_softmax(x.float(), -1).to(dtype)).ok


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("broken", [_max_skips_last, _sum_misses_one_pack, _no_max_subtraction,
                                    _last_element_unwritten])
def test_broken_softmax_is_rejected(dtype, broken):
    x = make_rows(64, 512, dtype, seed=7)
    result = check("softmax", x, broken(x))
    assert not result.ok, result.summary()
    assert "FAIL" in result.summary()


def test_exp_rounded_to_bf16_is_rejected():
    x = make_rows(64, 512, torch.bfloat16, seed=3)
    assert not check("softmax", x, _half_precision_exp(x)).ok


def test_row_scale_bias_visible_only_in_row_sums_is_rejected():
    # 0.2%: below bf16's one-ulp elementwise tolerance, caught by the row-sum bound.
    x = make_rows(64, 4096, torch.bfloat16, seed=3)
    result = check("softmax", x, (torch.softmax(x.float(), -1) * 1.002).to(torch.bfloat16))
    assert result.n_bad == 0 and result.row_sum_failures > 0


@pytest.mark.parametrize("dtype", DTYPES)
def test_reductions(dtype):
    x = make_rows(32, 4099, dtype, seed=5)
    assert check("reduce_sum", x, x.float().sum(-1).to(dtype)).ok
    assert check("reduce_max", x, x.amax(-1)).ok
    flat = x.reshape(-1)
    assert check("reduce_sum", flat, flat.float().sum().to(dtype)).ok
    # A sum that misses one 16-byte pack, a max that skips the last column.
    pack = 16 // x.element_size()
    assert not check("reduce_sum", x, x.float()[:, pack:].sum(-1).to(dtype)).ok
    assert not check("reduce_max", x, x[:, :-1].amax(-1)).ok


def test_nan_pattern_must_match():
    x = torch.tensor([[1.0, 2.0, 3.0], [-float("inf")] * 3])
    good = torch.softmax(x, -1)
    assert check("softmax", x, good).ok
    bad = good.clone()
    bad[1] = 1.0 / 3                                 # "fixing" an all -inf row is wrong
    assert check("softmax", x, bad).pattern_mismatches == 3


def test_inputs_are_fresh_and_never_zero():
    a = make_rows(8, 64, torch.float32, seed=1)
    b = make_rows(8, 64, torch.float32, seed=2)
    assert not torch.equal(a, b)
    assert (a != 0).float().mean() > 0.99
    assert a[0, -1] == a[0].max() and a[1, 0] == a[1].max()


# -- backward ops: the checker accepts an fp32-accumulating kernel and rejects broken ones --

def _backward_inputs(dtype, log, rows=64, cols=512, seed=11):
    from comparison.inputs import make_gradient
    from comparison.reference import reference

    x = make_rows(rows, cols, dtype, seed=seed)
    y = reference("log_softmax" if log else "softmax", x).to(dtype)
    return y, make_gradient(rows, cols, dtype, seed=seed)


def _softmax_bwd32(y, dy):
    y32, dy32 = y.float(), dy.float()
    return (y32 * (dy32 - (dy32 * y32).sum(-1, keepdim=True))).to(y.dtype)


def _log_softmax_bwd32(y, dy):
    return (dy.float() - torch.exp(y.float()) * dy.float().sum(-1, keepdim=True)).to(y.dtype)


def _softmax_bwd_low_precision(y, dy):  # the chain rule in the I/O dtype (what torch ops on fp16 do)
    return y * (dy - (dy * y).sum(-1, keepdim=True))


def _softmax_bwd_sum_misses_a_pack(y, dy):
    pack = 16 // y.element_size()
    y32, dy32 = y.float(), dy.float()
    return (y32 * (dy32 - (dy32 * y32)[:, pack:].sum(-1, keepdim=True))).to(y.dtype)


def _softmax_bwd_no_sum(y, dy):
    return (y.float() * dy.float()).to(y.dtype)


def _log_softmax_bwd_low_precision(y, dy):
    return dy - torch.exp(y) * dy.sum(-1, keepdim=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("cols", [1, 7, 512, 4099])
def test_correct_backward_passes(dtype, cols):
    for log, fn in ((False, _softmax_bwd32), (True, _log_softmax_bwd32)):
        y, dy = _backward_inputs(dtype, log, 16, cols)
        op = "log_softmax_backward" if log else "softmax_backward"
        result = check(op, y, fn(y, dy), dy=dy)
        assert result.ok, result.summary()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("broken", [_softmax_bwd_sum_misses_a_pack, _softmax_bwd_no_sum])
def test_broken_softmax_backward_is_rejected(dtype, broken):
    y, dy = _backward_inputs(dtype, False)
    assert not check("softmax_backward", y, broken(y, dy), dy=dy).ok


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_low_precision_chain_rule_is_rejected(dtype):
    y, dy = _backward_inputs(dtype, False)
    assert not check("softmax_backward", y, _softmax_bwd_low_precision(y, dy), dy=dy).ok
    y, dy = _backward_inputs(dtype, True)
    assert not check("log_softmax_backward", y, _log_softmax_bwd_low_precision(y, dy), dy=dy).ok


def test_backward_needs_dy():
    y, dy = _backward_inputs(torch.float32, False, 4, 8)
    with pytest.raises(ValueError, match="dy must be given"):
        check("softmax_backward", y, _softmax_bwd32(y, dy))
    with pytest.raises(ValueError, match="dy must be given"):
        check("softmax", y, y, dy=dy)


def test_gradient_agreement_against_torch_autograd():
    """Torch's own autograd passes; a gradient without the sum term fails; the chain rule
    evaluated in fp16 (the unfused torch-op backward) fails on some short rows, where it
    is up to ten times further from float64 than torch's own, and an fp32 one never does."""
    from comparison.agreement import gradient_agreement
    from comparison.inputs import make_gradient

    x = make_rows(16, 70, torch.bfloat16, seed=2)
    dy = make_gradient(16, 70, torch.bfloat16, seed=2)
    xt = x.clone().requires_grad_()
    (good,) = torch.autograd.grad(torch.softmax(xt, -1), xt, dy)
    assert gradient_agreement("softmax", x, dy, good).ok
    assert not gradient_agreement("softmax", x, dy, _softmax_bwd_no_sum(torch.softmax(x, -1), dy)).ok
    rejected = 0
    for seed in range(40):
        gen = torch.Generator().manual_seed(seed)
        x = (torch.randn(1, 5, generator=gen) * 3).half()
        dy = torch.randn(1, 5, generator=gen).half()
        y = torch.softmax(x, -1)
        assert gradient_agreement("softmax", x, dy, _softmax_bwd32(y, dy)).ok
        rejected += not gradient_agreement("softmax", x, dy, _softmax_bwd_low_precision(y, dy)).ok
    assert rejected >= 3
