"""Property-based tests (Hypothesis): random inputs against float64 and torch's own semantics.

Each example draws an op's target (backend, variant), a rank 0-4 with sizes that include
0 and 1, a `dim` (negative too; for reductions None, an int or a tuple, and keepdim), a
layout (contiguous, transposed, sliced with steps, offset by a few elements, expanded
with stride 0), a dtype (fp32, fp16, bf16) and values (normal with offsets that overflow
exp() unless the maximum is subtracted, +-inf and NaN at random places, huge values near
the dtype's maximum, all-equal tensors). Properties:

* a declined input comes with a reason that an explicit call raises;
* results have torch's shape and dtype, are contiguous, leave the input unchanged, and
  every element agrees with float64 (`comparison.agreement`), through the public API and
  through `run_into` into a NaN-filled output (`softmax_cases.run_and_check`);
* the NaN/inf pattern is torch's (torch's op on the float64 input, rounded), maxima are
  exactly torch.amax, softmax lies in [0, 1] and log-softmax at or below 0;
* gradients through autograd are no worse than twice torch's own (`gradient_agreement`),
  or, on ill-conditioned rows where torch's own error is no yardstick, within the
  first-order propagation of a few ulps of forward error (`propagation_bound`).

Backends: every available backend that is this package's, and the torch baseline; peers
are left out (torch_compile compiles once per shape: seconds per example). A disagreement
of the baseline is a finding, recorded as a Hypothesis event rather than a failure, as in
the matrix. Example counts come from the settings profile in conftest.py (bounded and
derandomized: CI is reproducible); HYPOTHESIS_PROFILE=dev searches longer.

`test_a_wrong_kernel_is_caught` proves that each property can fail: it swaps the torch
backend's `run` for a deliberately wrong kernel and requires Hypothesis to find an input
on which the property rejects it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import pytest
import torch

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, Phase, event, find, given, note, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import comparison  # noqa: E402
from comparison import get_backend, list_backends  # noqa: E402
from comparison.agreement import UNIT_ROUNDOFF, check, gradient_agreement  # noqa: E402
from comparison.torch_backend import TorchBackend  # noqa: E402
from softmax_cases import (BACKWARD_OPS, DEVICE, FORWARD_OF, FORWARD_OPS, REDUCE_OPS, Case, Target,  # noqa: E402
                           canonical_pair, check_declined, expected_shape, is_peer, run_and_check, torch_reduce)

pytestmark = [
    pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:divide by zero encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:All-NaN slice encountered:RuntimeWarning"),
]
DTYPES = (torch.float32, torch.float16, torch.bfloat16)
TORCH_FORWARD = {"softmax": torch.softmax, "log_softmax": torch.log_softmax}


def _property_backends() -> list[str]:
    names = []
    for name in list_backends():
        backend = get_backend(name)
        if backend.is_available() and not is_peer(backend):
            names.append(name)
    return names


BACKENDS = _property_backends()


def _targets(op: str, backends=None) -> list[tuple[str, str]]:
    return [(b, v) for b in (backends or BACKENDS) for v in get_backend(b).variants(op)]


# -- drawing inputs -------------------------------------------------------------------------

@dataclass(frozen=True)
class Spec:
    """One drawn input, small enough to read in a falsifying example; `build` makes it."""

    op: str
    backend: str
    variant: str
    shape: tuple
    dtype: torch.dtype
    layout: tuple     # ("contiguous",) ("transposed", i, j) ("sliced", starts, steps) ("offset", k) ("expanded", i)
    values: tuple     # ("normal", scale, offset) ("specials", fraction, kinds) ("huge",) ("equal", value)
    seed: int
    dim: object = -1
    keepdim: bool = False

    @property
    def target(self) -> Target:
        return Target(self.backend, self.op, self.variant)

    def case(self) -> Case:
        kind, *args = self.layout
        shape = list(self.shape)
        if kind == "transposed":
            i, j = args
            shape[i], shape[j] = shape[j], shape[i]
            return Case("drawn", tuple(shape), lambda t: t.transpose(i, j), self.dim, self.keepdim)
        if kind == "sliced":
            starts, steps = args
            base = tuple(s0 + n * sp for s0, n, sp in zip(starts, self.shape, steps))
            index = tuple(slice(s0, s0 + n * sp, sp) for s0, n, sp in zip(starts, self.shape, steps))
            return Case("drawn", base, lambda t: t[index], self.dim, self.keepdim)
        if kind == "offset":
            (k,) = args
            n = math.prod(self.shape)
            return Case("drawn", (n + k,), lambda t: t[k:].view(self.shape), self.dim, self.keepdim)
        if kind == "expanded":
            (i,) = args
            shape[i] = 1
            return Case("drawn", tuple(shape), lambda t: t.expand(self.shape), self.dim, self.keepdim)
        return Case("drawn", self.shape, dim=self.dim, keepdim=self.keepdim)

    def values_for(self, shape, seed_offset: int = 0) -> torch.Tensor:
        """A contiguous tensor of `shape` holding this spec's kind of values, in its dtype."""
        gen = torch.Generator().manual_seed(self.seed + seed_offset)
        kind, *args = self.values
        top = torch.finfo(self.dtype).max
        if kind == "huge":
            sign = torch.randint(0, 2, shape, generator=gen) * 2 - 1
            t = sign * (0.5 + 0.49 * torch.rand(shape, generator=gen)) * top
        elif kind == "equal":
            (value,) = args
            t = torch.full(shape, {"max": 0.9 * top, "-max": -0.9 * top}.get(value, value))
        else:
            scale, offset = (args if kind == "normal" else (3.0, 0.0))
            t = torch.randn(shape, generator=gen) * scale + offset
            if kind == "specials":
                fraction, kinds = args
                hit = torch.rand(shape, generator=gen) < fraction
                pick = torch.randint(0, len(kinds), shape, generator=gen)
                specials = torch.tensor([{"inf": math.inf, "-inf": -math.inf, "nan": math.nan}[k] for k in kinds])
                t = torch.where(hit, specials[pick], t)
        return t.to(self.dtype).to(DEVICE)

    def build(self) -> tuple[torch.Tensor, torch.Tensor]:
        """(the input, its contiguous base)."""
        case = self.case()
        base = self.values_for(case.base_shape)
        return case.view(base), base


VALUES = st.one_of(
    st.tuples(st.just("normal"), st.sampled_from([0.5, 3.0, 30.0]), st.sampled_from([-100.0, -20.0, 0.0, 20.0, 100.0])),
    st.tuples(st.just("specials"), st.sampled_from([0.05, 0.3, 0.9]),
              st.lists(st.sampled_from(["inf", "-inf", "nan"]), min_size=1, max_size=3, unique=True).map(tuple)),
    st.tuples(st.just("huge")),
    st.tuples(st.just("equal"), st.sampled_from([0.0, 1.5, -7.0, "max", "-max", -math.inf])),
)
WIDE = st.sampled_from([17, 33, 130, 300])  # several lanes, a Triton tile, two interpreter tiles


@st.composite
def _layout(draw, shape):
    rank = len(shape)
    kinds = ["contiguous", "offset"] + (["sliced", "expanded"] if rank else []) + (["transposed"] if rank >= 2 else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "transposed":
        i, j = sorted(draw(st.lists(st.integers(0, rank - 1), min_size=2, max_size=2, unique=True)))
        return ("transposed", i, j)
    if kind == "sliced":
        starts = tuple(draw(st.lists(st.integers(0, 2), min_size=rank, max_size=rank)))
        steps = tuple(draw(st.lists(st.integers(1, 3), min_size=rank, max_size=rank)))
        return ("sliced", starts, steps)
    if kind == "offset":
        return ("offset", draw(st.integers(1, 3)))
    if kind == "expanded":
        return ("expanded", draw(st.integers(0, rank - 1)))
    return ("contiguous",)


# Ranks and sizes as lists to sample from: Hypothesis would otherwise favour the smallest
# (0-dim, empty) far more than their share.
RANKS = [0, 1, 1, 2, 2, 2, 3, 3, 4, 4]
SIZES = [0, 1, 2, 3, 4, 5, 2, 3, 4, 5]        # 0 and 1 included, a tenth each
SIZES_HIGH_RANK = [0, 1, 2, 3, 2, 3]          # past rank 2: the interpreter runs a program per row


def _shape(draw, rank: int, wide_dims=()) -> tuple:
    """A shape of `rank`; the dims in `wide_dims` may also be wide."""
    small = st.sampled_from(SIZES if rank <= 2 else SIZES_HIGH_RANK)
    return tuple(draw(st.one_of(small, WIDE) if d in wide_dims else small) for d in range(rank))


@st.composite
def row_specs(draw, ops=FORWARD_OPS, backends=None):
    """Inputs of softmax / log-softmax (or, with ops=BACKWARD_OPS, of their backward ops)."""
    op = draw(st.sampled_from(ops))
    backend, variant = draw(st.sampled_from(_targets(op, backends)))
    rank = draw(st.sampled_from(RANKS))
    dim = draw(st.integers(-max(rank, 1), max(rank, 1) - 1))
    shape = _shape(draw, rank, wide_dims=(dim % rank,) if rank else ())
    return Spec(op, backend, variant, shape, draw(st.sampled_from(DTYPES)), draw(_layout(shape)), draw(VALUES),
                draw(st.integers(0, 2 ** 16)), dim)


@st.composite
def reduce_specs(draw, ops=REDUCE_OPS, backends=None):
    op = draw(st.sampled_from(ops))
    backend, variant = draw(st.sampled_from(_targets(op, backends)))
    rank = draw(st.sampled_from(RANKS))
    wide = (draw(st.integers(0, rank - 1)),) if 0 < rank <= 2 else ()
    shape = _shape(draw, rank, wide)
    axes = st.integers(-max(rank, 1), max(rank, 1) - 1)
    if rank:
        tuples = st.lists(st.integers(0, rank - 1), min_size=1, max_size=rank, unique=True).flatmap(
            lambda ds: st.tuples(*[st.sampled_from([d, d - rank]) for d in ds]))
        dim = draw(st.one_of(st.none(), axes, tuples))
    else:
        dim = draw(st.one_of(st.none(), axes))
    return Spec(op, backend, variant, shape, draw(st.sampled_from(DTYPES)), draw(_layout(shape)), draw(VALUES),
                draw(st.integers(0, 2 ** 16)), dim, draw(st.booleans()))


# -- the properties (plain functions: the tests below and the wrong-kernel check share them) ---

def _pattern(t: torch.Tensor) -> torch.Tensor:
    t = t.to(torch.float64)
    return torch.isnan(t) * 1 + (t == math.inf) * 2 + (t == -math.inf) * 3


def _expect(spec: Spec, ok: bool, what: str) -> None:
    """A value property: a failure for this package's kernels, a finding for the baseline."""
    if ok:
        return
    if get_backend(spec.backend).own:
        raise AssertionError(what)
    event(f"finding ({spec.backend} {spec.op} {str(spec.dtype)[6:]}): {what.splitlines()[0][:80]}")
    note(f"finding: {what}")


def _judge(spec: Spec, agreements) -> None:
    for a in agreements:
        _expect(spec, a.ok, a.summary())


def _declined(spec: Spec, x, dy=None) -> bool:
    support = get_backend(spec.backend).supports(x, spec.op, spec.variant, dim=spec.dim)
    if support:
        return False
    check_declined(spec.target, support, x, spec.dim, spec.keepdim, dy)
    event(f"declined: {spec.backend}/{spec.variant}")
    return True


def forward_property(spec: Spec) -> None:
    x, _ = spec.build()
    if _declined(spec, x):
        return
    out, agreements = run_and_check(spec.target, x, spec.dim, judge_now=False)
    _judge(spec, agreements)
    like = TORCH_FORWARD[spec.op](x.to(torch.float64), spec.dim).to(x.dtype)
    assert out.shape == like.shape
    _expect(spec, torch.equal(_pattern(out), _pattern(like)), "NaN/inf pattern differs from torch's")
    finite = out[torch.isfinite(out)].to(torch.float64)
    if spec.op == "softmax":
        _expect(spec, bool(((finite >= 0) & (finite <= 1)).all()), "softmax outside [0, 1]")
    else:
        _expect(spec, bool((finite <= 0).all()), "log-softmax above 0")


def backward_property(spec: Spec) -> None:
    x, _ = spec.build()
    case = spec.case()
    forward = TORCH_FORWARD[FORWARD_OF[spec.op]]
    y = case.in_layout(forward(x.to(torch.float64), spec.dim).to(x.dtype))
    dy = case.view(Spec(**{**spec.__dict__, "values": ("normal", 1.0, 0.5)}).values_for(case.base_shape, 1))
    if _declined(spec, y, dy):
        return
    dx, agreements = run_and_check(spec.target, y, spec.dim, dy=dy, judge_now=False)
    _judge(spec, agreements)
    backward = torch._softmax_backward_data if spec.op == "softmax_backward" else torch._log_softmax_backward_data
    dim = spec.dim % max(y.dim(), 1)
    like = backward(dy.to(torch.float64), y.to(torch.float64), dim, torch.float64).to(y.dtype)
    _expect(spec, torch.equal(_pattern(dx), _pattern(like)), "NaN/inf pattern differs from torch's")


def gradient_property(spec: Spec) -> None:
    case = spec.case()
    base = spec.values_for(case.base_shape).requires_grad_(True)
    x = case.view(base)
    if _declined(spec, x.detach()):
        return
    y = getattr(comparison, spec.op)(x, spec.dim, backend=spec.backend, variant=spec.variant)
    dy = torch.randn(x.shape, generator=torch.Generator().manual_seed(spec.seed)).to(x.dtype).to(DEVICE)
    (dx,) = torch.autograd.grad(y, x, dy)
    assert dx.shape == x.shape and dx.dtype == x.dtype and dx.device == x.device
    if not x.numel():
        return
    result = gradient_agreement(spec.op, x.detach(), dy, dx, spec.dim)
    if not result.ok and result.pattern_mismatches == 0:
        bound = propagation_bound(spec.op, x.detach(), dy, spec.dim)
        if result.error <= bound:
            event("gradient: within the propagation bound, not within 2x torch's own error")
            return
        _expect(spec, False, f"{result.summary()}; propagation bound {bound:.3g}")
    _expect(spec, result.ok, result.summary())


# A forward within this many units in the last place of each output, and a backward within
# this many fp32 roundings per term, is what the propagation bound allows.
GRADIENT_ULPS = 4


def propagation_bound(op: str, x: torch.Tensor, dy: torch.Tensor, dim: int) -> float:
    """The normwise gradient error (as gradient_agreement measures it) that a forward correct
    to GRADIENT_ULPS ulps, followed by an fp32 backward, may reach on this input.

    `gradient_agreement` allows twice torch's own error, which on ill-conditioned rows (a
    few outputs near 1, dy whose weighted sum nearly cancels) can be far below what even a
    correctly rounded forward achieves: with y rounded correctly from float64 and torch's
    own backward, 4% of random rows (randn(17) * 30 + 20 and the like) exceed it, by up to
    3000x. So the property also accepts the first-order propagation of a few ulps of
    forward error through dx = y (dy - sum(dy y)) (log-softmax: dx = dy - exp(y) sum(dy));
    a backward that drops a term is off by orders of magnitude more.
    """
    u = GRADIENT_ULPS * UNIT_ROUNDOFF[x.dtype]
    x64, dy64 = x.to(torch.float64), dy.to(torch.float64)
    if op == "softmax":
        y = torch.softmax(x64, dim)
        s = (dy64 * y).sum(dim, keepdim=True)
        ref = y * (dy64 - s)
        bound = u * y.abs() * ((dy64 - s).abs() + (dy64.abs() * y).sum(dim, keepdim=True) + dy64.abs() + s.abs())
    else:
        y = torch.log_softmax(x64, dim)
        total = dy64.sum(dim, keepdim=True)
        ref = dy64 - y.exp() * total
        bound = u * (y.exp() * total.abs() * (y.abs() + 2) + dy64.abs())
    finite = torch.isfinite(ref) & torch.isfinite(bound)
    zero = torch.zeros_like(ref)
    scale = ref.where(finite, zero).norm()
    norm = bound.where(finite, zero).norm()
    return float(norm / scale) if scale > 0 else float(norm)


def _order_independent_rows(op: str, x2d: torch.Tensor) -> torch.Tensor:
    """Rows whose fp32 sum cannot overflow in any order: where sum |x| exceeds fp32's range,
    a correct kernel may overflow in a partial sum that float64 does not."""
    if op != "reduce_sum":
        return torch.ones(x2d.shape[:-1] if x2d.dim() == 2 else (), dtype=torch.bool, device=x2d.device)
    abs_sum = x2d.to(torch.float64).abs().nan_to_num(posinf=0.0).sum(-1)
    return abs_sum <= torch.finfo(torch.float32).max / 2


def reduce_property(spec: Spec) -> None:
    x, _ = spec.build()
    if _declined(spec, x):
        return
    if x.numel() and spec.op == "reduce_sum" and not bool(_order_independent_rows(spec.op, x.reshape(-1))):
        # Some sums overflow fp32 in some order: only the rows that cannot are judged.
        out = getattr(comparison, spec.op)(x, spec.dim, spec.keepdim, backend=spec.backend, variant=spec.variant)
        assert tuple(out.shape) == expected_shape(spec.op, x, spec.dim, spec.keepdim)
        xc, oc, _ = canonical_pair(spec.op, x, out, spec.dim)
        keep = _order_independent_rows(spec.op, xc)
        if xc.dim() == 2 and bool(keep.any()):
            _judge(spec, [check(spec.op, xc[keep], oc[keep])])
        event("sums that may overflow fp32: judged on the rows that cannot")
        return
    try:
        like = torch_reduce(spec.op, x.to(torch.float64) if spec.op == "reduce_sum" else x, spec.dim, spec.keepdim)
    except (IndexError, RuntimeError) as exc:  # the max of nothing
        with pytest.raises(type(exc)):
            getattr(comparison, spec.op)(x, spec.dim, spec.keepdim, backend=spec.backend, variant=spec.variant)
        return
    out, agreements = run_and_check(spec.target, x, spec.dim, keepdim=spec.keepdim, judge_now=False)
    _judge(spec, agreements)
    assert out.shape == like.shape, (out.shape, like.shape)
    if spec.op == "reduce_max":  # exact: the same bits as torch.amax
        same = (out == like) | (torch.isnan(out) & torch.isnan(like))
        _expect(spec, bool(same.all()), f"max differs from torch.amax: {out} vs {like}")
    else:
        _expect(spec, torch.equal(_pattern(out), _pattern(like.to(x.dtype))), "NaN/inf pattern differs from torch's")


# -- the tests --------------------------------------------------------------------------------

@given(row_specs())
def test_softmax_and_log_softmax(spec):
    forward_property(spec)


@given(row_specs(ops=BACKWARD_OPS))
def test_backward_ops(spec):
    backward_property(spec)


@given(row_specs())
def test_gradients_through_autograd(spec):
    gradient_property(spec)


@given(reduce_specs())
def test_reductions(spec):
    reduce_property(spec)


# -- the properties reject wrong kernels ----------------------------------------------------------

def _broken_softmax_no_max(x):
    e = torch.exp(x.float())
    return (e / e.sum(-1, keepdim=True)).to(x.dtype)


def _broken_softmax_sum_misses_last(x):
    e = torch.exp(x.float() - x.float().amax(-1, keepdim=True))
    return (e / e[..., :-1].sum(-1, keepdim=True)).to(x.dtype)


def _broken_log_softmax_no_lse(x):
    return (x.float() - x.float().amax(-1, keepdim=True)).to(x.dtype)


def _broken_softmax_backward_no_sum(y, dy):
    return (y.float() * dy.float()).to(y.dtype)


def _broken_log_softmax_backward_no_exp(y, dy):
    return (dy.float() - dy.float().sum(-1, keepdim=True)).to(y.dtype)


def _broken_sum_drops_last(x):
    return (x.float()[..., :-1].sum(-1) if x.dim() == 2 else x.float()[:-1].sum()).to(x.dtype)


def _broken_max_skips_nan(x):
    x = torch.where(torch.isnan(x), -math.inf, x)
    return x.amax(-1) if x.dim() == 2 else x.amax()


# (what is wrong, the op it replaces, the wrong kernel, the property that must reject it)
WRONG_KERNELS = [
    ("softmax without the max subtraction", "softmax", _broken_softmax_no_max, forward_property, row_specs),
    ("softmax whose sum misses the last element", "softmax", _broken_softmax_sum_misses_last, forward_property,
     row_specs),
    ("log-softmax without the log-sum-exp", "log_softmax", _broken_log_softmax_no_lse, forward_property, row_specs),
    ("softmax backward without the sum term", "softmax_backward", _broken_softmax_backward_no_sum,
     backward_property, row_specs),
    ("log-softmax backward without exp(y)", "log_softmax_backward", _broken_log_softmax_backward_no_exp,
     backward_property, row_specs),
    ("a training gradient through a backward without the sum term", "softmax_backward",
     _broken_softmax_backward_no_sum, gradient_property, row_specs),
    ("a sum that drops the last element", "reduce_sum", _broken_sum_drops_last, reduce_property, reduce_specs),
    ("a max that skips NaN", "reduce_max", _broken_max_skips_nan, reduce_property, reduce_specs),
]


def _fails(prop, spec) -> bool:
    try:
        prop(spec)
    except (Exception, pytest.fail.Exception):
        return True
    return False


@pytest.mark.parametrize("what, op, wrong, prop, specs", WRONG_KERNELS, ids=[w[0] for w in WRONG_KERNELS])
def test_a_wrong_kernel_is_caught(monkeypatch, what, op, wrong, prop, specs):
    """The torch backend's kernel for `op` is replaced by a wrong one and, for the length of
    this test, judged as this package's own: Hypothesis must find an input that the
    property rejects."""
    right = TorchBackend.run

    def run(self, x, op_, variant="auto", *, dy=None):
        if op_ != op:
            return right(self, x, op_, variant, dy=dy)
        return wrong(x) if dy is None else wrong(x, dy)

    monkeypatch.setattr(TorchBackend, "run", run)
    monkeypatch.setattr(TorchBackend, "own", True)
    # The torch backend's forward records torch's own node (grad_runner), whose backward
    # never calls `run`: the gradient goes through the Function and the wrong kernel here.
    monkeypatch.setattr(TorchBackend, "grad_runner", lambda self, op, variant: None)
    monkeypatch.setattr(comparison.dispatch, "_GRAD_ROUTES", {})
    fast = settings(max_examples=300, database=None, derandomize=True, phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck), deadline=None)
    spec_ops = (FORWARD_OF[op],) if prop is gradient_property else (op,)
    found = find(specs(ops=spec_ops, backends=["torch"]), lambda spec: _fails(prop, spec), settings=fast)
    assert found.backend == "torch"


def test_the_right_kernels_pass_the_same_search(monkeypatch):
    """The wrong-kernel search finds nothing on torch's own kernels (fp32: no finding to excuse)."""
    monkeypatch.setattr(TorchBackend, "own", True)
    fast = settings(max_examples=60, database=None, derandomize=True, phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck), deadline=None)
    for prop, specs in [(forward_property, row_specs), (backward_property, row_specs),
                        (reduce_property, reduce_specs)]:
        ops = BACKWARD_OPS if prop is backward_property else None
        strategy = specs(ops=ops or (REDUCE_OPS if specs is reduce_specs else FORWARD_OPS), backends=["torch"])
        with pytest.raises(hypothesis.errors.NoSuchExample):
            find(strategy.filter(lambda s: s.dtype == torch.float32), lambda spec, p=prop: _fails(p, spec),
                 settings=fast)
