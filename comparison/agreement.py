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
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch

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


def _check_chunk(result: Agreement, op: str, x: torch.Tensor, out: torch.Tensor, row0: int) -> None:
    ref = reference(op, x)
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
        growth = 2 * max(1, math.ceil(math.log2(max(n, 2)))) * FP32_ACCUM
        abs_sum = x.to(torch.float64).abs().sum(-1) if x.dim() == 2 else x.to(torch.float64).abs().sum()
        allowed = atol + rtol * mag + growth * abs_sum
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


def check(op: str, x: torch.Tensor, out: torch.Tensor) -> Agreement:
    """Compare `out` with the float64 reference of `op` on the canonical input `x`.

    Every element is checked; huge inputs are processed in chunks of rows.
    """
    expected_shape = x.shape if op in ("softmax", "log_softmax") else (
        x.shape[:-1] if x.dim() == 2 else ())
    if tuple(out.shape) != tuple(expected_shape):
        raise ValueError(f"{op}: output shape {tuple(out.shape)} != expected {tuple(expected_shape)}")
    result = Agreement(op, out.dtype, tuple(x.shape))
    if x.dim() != 2 or x.numel() == 0:
        _check_chunk(result, op, x, out, 0)
        return result
    step = max(1, ROWS_PER_CHUNK_ELEMENTS // max(1, x.shape[1]))
    for r in range(0, x.shape[0], step):
        _check_chunk(result, op, x[r:r + step], out[r:r + step], r)
    return result
