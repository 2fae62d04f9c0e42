"""Does a result agree with the float64 reference? Per-dtype tolerances, every element.

Elementwise rule (like `torch.allclose`): |out - ref| <= atol + rtol * |ref|, on the
elements where the reference, rounded to the output dtype, is finite; elsewhere the
NaN/+inf/-inf pattern must match exactly. The relative error is reported with a floor
of atol/rtol so that values near zero do not dominate it.

Softmax rows must also sum to what the correctly rounded reference sums to, within a
statistical bound: a kernel whose sum misses one vector pack scales a whole row by
~0.2%, which bf16's 1-ulp elementwise tolerance cannot see but the row sum can
(rounding errors have random signs; a bias does not).

Sums accumulate in fp32, so their tolerance grows with the width:
    atol + rtol * |ref| + 2 * ceil(log2(n)) * 2^-24 * sum(|x|)
(the pairwise-summation error bound). Maxima are exact: tolerance zero.

Backward ops take y and dy as given and compute in fp32; their results are differences
(softmax: y * (dy - s) with s = sum(dy * y); log-softmax: dy - exp(y) * S with
S = sum(dy)), which can cancel, so the bound adds the fp32 error of each term on top of
the output's rounding: the sum's accumulation bound (as for sums) carried through the
product, and a few fp32 roundings of each operand of the difference. A kernel that
evaluates the chain rule in fp16/bf16, or whose sum misses a pack, exceeds it.

`gradient_agreement` judges a whole training gradient (forward and backward kernels,
through autograd) against float64 autograd: its normwise error may be at most twice
that of torch's own autograd on the same input (or within a floor of one unit roundoff
of the dtype, at least four of fp32).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch

from .backend import BACKWARD_OPS, ROW_OPS
from .reference import reference

# (atol, rtol) per output dtype. fp32: exp/sum rounding of a few ulp, scaled by the
# exponent argument (up to ~100 in our inputs); fp16/bf16: one ulp (two unit roundoffs) of the output.
TOLERANCES = {
    torch.float64: (1e-12, 1e-10),
    torch.float32: (1e-6, 1e-5),
    torch.float16: (1e-6, 2.0 ** -10),
    torch.bfloat16: (1e-6, 2.0 ** -7),
}
UNIT_ROUNDOFF = {torch.float64: 2.0 ** -53, torch.float32: 2.0 ** -24,
                 torch.float16: 2.0 ** -11, torch.bfloat16: 2.0 ** -8}
FP32_ACCUM = 2.0 ** -24
# fp32 roundings allowed per operand of a backward difference (products, the
# subtraction, exp2's ~2^-22 and the conversion of its argument), with room to spare.
BACKWARD_FP32_ROUNDINGS = 8
ROW_SUM_COMPUTE_SLACK = 1e-5
ROWS_PER_CHUNK_ELEMENTS = 1 << 26  # bounds the float64 temporaries for huge inputs


@dataclass
class Agreement:
    op: str
    dtype: torch.dtype
    shape: tuple
    max_abs_err: float = 0.0
    max_rel_err: float = 0.0
    max_row_sum_dev: float | None = None
    n_checked: int = 0
    n_bad: int = 0
    pattern_mismatches: int = 0
    row_sum_failures: int = 0
    first_bad: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.n_bad == 0 and self.pattern_mismatches == 0 and self.row_sum_failures == 0

    def __bool__(self) -> bool:
        return self.ok

    def summary(self) -> str:
        head = (f"{self.op} {str(self.dtype).replace('torch.', '')} {tuple(self.shape)}: "
                f"max abs err {self.max_abs_err:.3g}, max rel err {self.max_rel_err:.3g}")
        if self.max_row_sum_dev is not None:
            head += f", max |row sum - 1| {self.max_row_sum_dev:.3g}"
        if self.ok:
            return head + f" - ok ({self.n_checked} elements)"
        parts = []
        if self.n_bad:
            parts.append(f"{self.n_bad} of {self.n_checked} elements outside tolerance "
                         f"(first at {self.first_bad})")
        if self.pattern_mismatches:
            parts.append(f"{self.pattern_mismatches} elements with a different NaN/Inf pattern")
        if self.row_sum_failures:
            parts.append(f"{self.row_sum_failures} rows whose sum is off")
        return head + " - FAIL: " + "; ".join(parts)


def _special_pattern(t: torch.Tensor) -> torch.Tensor:
    """0 finite, 1 nan, 2 +inf, 3 -inf."""
    code = torch.zeros(t.shape, dtype=torch.int8, device=t.device)
    code[torch.isnan(t)] = 1
    code[t == math.inf] = 2
    code[t == -math.inf] = 3
    return code


def _record_bad(result: Agreement, bad: torch.Tensor, row0: int) -> None:
    count = int(bad.sum())
    if not count:
        return
    result.n_bad += count
    if len(result.first_bad) < 5:
        idx = bad.nonzero()[: 5 - len(result.first_bad)].tolist()
        for i in idx:
            if len(i) == 2:
                i[0] += row0
            result.first_bad.append(tuple(i))


def _sum_growth(n: int) -> float:
    """Relative error bound of an fp32 (pairwise or blocked) sum of n terms."""
    return 2 * max(1, math.ceil(math.log2(max(n, 2)))) * FP32_ACCUM


def _backward_allowance(op: str, y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    """The fp32 compute error a correct backward kernel may add, per element (see the
    module docstring)."""
    y, dy = y.to(torch.float64), dy.to(torch.float64)
    growth = _sum_growth(y.shape[-1])
    per_op = BACKWARD_FP32_ROUNDINGS * FP32_ACCUM
    if op == "softmax_backward":
        s = (dy * y).sum(-1, keepdim=True)
        s_err = growth * (dy * y).abs().sum(-1, keepdim=True)
        return y.abs() * (s_err + per_op * (dy.abs() + s.abs()))
    e = torch.exp(y)
    total = dy.sum(-1, keepdim=True)
    total_err = growth * dy.abs().sum(-1, keepdim=True)
    # exp(y) in fp32: its argument y * log2(e) is rounded, which scales exp by |y| ulps.
    e_err = e * per_op * (1 + y.abs())
    return e * total_err + e_err * total.abs() + per_op * (dy.abs() + e * total.abs())


def _check_chunk(result: Agreement, op: str, x: torch.Tensor, out: torch.Tensor, row0: int,
                 dy: torch.Tensor | None = None) -> None:
    ref = reference(op, x, dy)
    atol, rtol = TOLERANCES[out.dtype]
    out64 = out.to(torch.float64)
    # What a perfect kernel would return: the reference rounded to the output dtype.
    ref_rounded = ref.to(out.dtype).to(torch.float64)
    pattern_ref = _special_pattern(ref_rounded)
    mismatch = pattern_ref != _special_pattern(out64)
    result.pattern_mismatches += int(mismatch.sum())
    finite = (pattern_ref == 0) & ~mismatch
    err = torch.where(finite, (out64 - ref).abs(), torch.zeros_like(ref))
    mag = ref.abs().where(finite, torch.zeros_like(ref))
    if op == "reduce_max":
        allowed = torch.zeros_like(ref)
    elif op == "reduce_sum":
        n = x.shape[-1] if x.dim() == 2 else x.numel()
        growth = _sum_growth(n)
        abs_sum = x.to(torch.float64).abs().sum(-1) if x.dim() == 2 else x.to(torch.float64).abs().sum()
        allowed = atol + rtol * mag + growth * abs_sum
    elif dy is not None:
        allowed = atol + rtol * mag + _backward_allowance(op, x, dy).where(finite, torch.zeros_like(ref))
    else:
        allowed = atol + rtol * mag
    bad = err > allowed
    _record_bad(result, bad, row0)
    result.max_abs_err = max(result.max_abs_err, float(err.max()) if err.numel() else 0.0)
    rel = err / mag.clamp_min(atol / rtol) if rtol else err
    result.max_rel_err = max(result.max_rel_err, float(rel.max()) if rel.numel() else 0.0)
    result.n_checked += out.numel()
    if op == "softmax":
        finite_rows = torch.isfinite(ref).all(-1)
        zero = torch.zeros_like(finite_rows, dtype=torch.float64)
        dev = (out64.sum(-1) - 1.0).abs().where(finite_rows, zero)
        # Measured against what the correctly rounded reference sums to (quantized inputs
        # repeat values, whose rounding errors then do not cancel). Independent rounding
        # errors (uniform in +-u*y_i) sum to sigma = u*sqrt(sum y_i^2)/sqrt(3): allow ~7
        # sigma, plus fp32 compute error.
        drift = (out64.sum(-1) - ref_rounded.sum(-1)).abs().where(finite_rows, zero)
        bound = 4 * UNIT_ROUNDOFF[out.dtype] * ref.pow(2).sum(-1).sqrt() + ROW_SUM_COMPUTE_SLACK
        result.row_sum_failures += int((drift > bound).sum())
        current = float(dev.max()) if dev.numel() else 0.0
        result.max_row_sum_dev = max(result.max_row_sum_dev or 0.0, current)


def check(op: str, x: torch.Tensor, out: torch.Tensor, dy: torch.Tensor | None = None) -> Agreement:
    """Compare `out` with the float64 reference of `op` on the canonical input `x` (backward
    ops: x is the forward output y and `dy` the incoming gradient).

    Every element is checked; huge inputs are processed in chunks of rows.
    """
    if (dy is None) != (op not in BACKWARD_OPS):
        raise ValueError(f"{op}: dy must be given for backward ops and only for them")
    expected_shape = x.shape if op in ROW_OPS else (x.shape[:-1] if x.dim() == 2 else ())
    if tuple(out.shape) != tuple(expected_shape):
        raise ValueError(f"{op}: output shape {tuple(out.shape)} != expected {tuple(expected_shape)}")
    result = Agreement(op, out.dtype, tuple(x.shape))
    if x.dim() != 2 or x.numel() == 0:
        _check_chunk(result, op, x, out, 0, dy)
        return result
    step = max(1, ROWS_PER_CHUNK_ELEMENTS // max(1, x.shape[1]))
    for r in range(0, x.shape[0], step):
        _check_chunk(result, op, x[r:r + step], out[r:r + step], r, None if dy is None else dy[r:r + step])
    return result


@dataclass
class GradientAgreement:
    """A training gradient against float64 autograd, next to torch's own on the same input."""

    op: str
    dtype: torch.dtype
    shape: tuple
    error: float             # ||dx - ref|| / ||ref|| over the finite reference elements
    torch_error: float       # the same for torch's own autograd
    allowed: float           # max(GRADIENT_ERROR_RATIO * torch_error, floor)
    pattern_mismatches: int  # elements whose NaN/inf pattern differs from the reference

    @property
    def ok(self) -> bool:
        return self.pattern_mismatches == 0 and self.error <= self.allowed

    def __bool__(self) -> bool:
        return self.ok

    def summary(self) -> str:
        head = (f"{self.op} gradient {str(self.dtype).replace('torch.', '')} {tuple(self.shape)}: "
                f"error {self.error:.3g} (torch's own {self.torch_error:.3g}, allowed {self.allowed:.3g})")
        if self.ok:
            return head + " - ok"
        parts = []
        if self.error > self.allowed:
            parts.append("error above the allowance")
        if self.pattern_mismatches:
            parts.append(f"{self.pattern_mismatches} elements with a different NaN/Inf pattern")
        return head + " - FAIL: " + "; ".join(parts)


# A gradient may be at most this many times as far from float64 as torch's own, or
# within a floor: one unit roundoff of the dtype (the output's own rounding), and at
# least GRADIENT_FP32_FLOOR for fp32 arithmetic, whose sums can land an ulp or two
# away where torch's happen to be exact (a row whose gradient is one dy - sum(dy)).
GRADIENT_ERROR_RATIO = 2.0
GRADIENT_FLOOR_ROUNDOFFS = 1
GRADIENT_FP32_FLOOR = 4 * FP32_ACCUM


def _normwise_error(got: torch.Tensor, ref: torch.Tensor, finite: torch.Tensor) -> float:
    diff = torch.where(finite, got.to(torch.float64) - ref, torch.zeros_like(ref))
    scale = torch.where(finite, ref, torch.zeros_like(ref)).norm()
    return float(diff.norm() / scale) if scale > 0 else float(diff.norm())


def gradient_agreement(op: str, x: torch.Tensor, dy: torch.Tensor, dx: torch.Tensor,
                       dim: int = -1) -> GradientAgreement:
    """Judge `dx`, the gradient of sum(op(x) * dy) with respect to x, against float64
    autograd, allowing GRADIENT_ERROR_RATIO times the error of torch's own autograd
    (torch.softmax / torch.log_softmax in x's dtype) on the same input."""
    fn = {"softmax": torch.softmax, "log_softmax": torch.log_softmax}[op]
    x64 = x.detach().to(torch.float64).requires_grad_()
    (ref,) = torch.autograd.grad(fn(x64, dim), x64, dy.to(torch.float64))
    xt = x.detach().clone().requires_grad_()
    (torch_dx,) = torch.autograd.grad(fn(xt, dim), xt, dy)
    pattern_ref = _special_pattern(ref.to(dx.dtype).to(torch.float64))
    mismatch = pattern_ref != _special_pattern(dx.to(torch.float64))
    finite = (pattern_ref == 0) & ~mismatch
    torch_finite = finite & (_special_pattern(torch_dx.to(torch.float64)) == 0)
    error = _normwise_error(dx, ref, finite)
    torch_error = _normwise_error(torch_dx, ref, torch_finite)
    floor = max(GRADIENT_FLOOR_ROUNDOFFS * UNIT_ROUNDOFF[dx.dtype], GRADIENT_FP32_FLOOR)
    return GradientAgreement(op, dx.dtype, tuple(x.shape), error, torch_error,
                             max(GRADIENT_ERROR_RATIO * torch_error, floor), int(mismatch.sum()))
