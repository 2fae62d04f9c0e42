"""The sweep behind `python -m comparison`: one input per (op, dtype, width), every
selected backend/variant on it, each result checked against float64 and (on a GPU) timed.

Passes:
  fwd      the op itself: softmax / log-softmax reads x and writes y; a reduction reads x
           and writes one value per row.
  bwd      the backward op alone, from the exact forward output y and a fresh gradient
           dy: reads y and dy, writes dx (2 reads + 1 write).
  fwd+bwd  a training step through autograd: forward and backward kernels, judged against
           float64 autograd next to torch's own autograd on the same input (5 tensor
           passes: read x, write y; read y and dy, write dx).

Bandwidth counts those minimum bytes over the median time, as a fraction of a
device-to-device copy of the input's bytes measured in the same run.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable

import torch

from ..agreement import check, gradient_agreement
from ..api import OP_FUNCTIONS
from ..backend import BACKWARD_OF, REDUCE_OPS, SOFTMAX_OPS, Backend
from ..inputs import make_gradient, make_rows
from ..reference import reference
from .timing import copy_bandwidth_gbps, gbps, time_ms

PASSES = ("fwd", "bwd", "fwd+bwd")
L2_MULTIPLE = 4            # default inputs are at least this many times the L2 cache
MEMORY_FRACTION = 1 / 8    # ...but never more than this share of the GPU's memory
CPU_MAX_ELEMENTS = 1 << 16  # CPU runs (agreement only) stay small: seconds, not minutes
CPU_MIN_ROWS = 4            # keep the extreme rows of comparison.inputs


def report_dict(row) -> dict:
    """A result dataclass (Result, latency.Latency) as its report fields: `pass_` (a
    Python keyword otherwise) is reported as `pass`."""
    d = asdict(row)
    d["pass"] = d.pop("pass_")
    return d


@dataclass
class Result:
    op: str
    pass_: str
    dtype: str
    rows: int
    cols: int
    backend: str
    variant: str
    own: bool                 # one of this package's kernel families (not a peer)
    ms: float | None = None
    gbps: float | None = None
    pct_of_copy: float | None = None
    speedup_vs_torch: float | None = None
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    ok: bool | None = None
    copy_gbps: float | None = None
    note: str = ""

    def to_dict(self) -> dict:
        return report_dict(self)

    @classmethod
    def fields(cls) -> list[str]:
        return ["pass" if f == "pass_" else f for f in cls.__dataclass_fields__]


def passes_for(op: str, passes) -> list[str]:
    """The requested passes that `op` has: reductions have a forward pass only."""
    return [p for p in passes if p == "fwd" or op in SOFTMAX_OPS]


def pass_op(op: str, pass_: str) -> str:
    """The backend op a pass calls: the backward op for `bwd`, else the op itself."""
    return BACKWARD_OF[op] if pass_ == "bwd" else op


def default_rows(cols: int, dtype: torch.dtype, device: torch.device, min_bytes: int | None) -> int:
    if device.type != "cuda":
        return max(CPU_MIN_ROWS, CPU_MAX_ELEMENTS // cols)
    props = torch.cuda.get_device_properties(device)
    if min_bytes is None:
        min_bytes = L2_MULTIPLE * getattr(props, "L2_cache_size", 50 << 20)
        min_bytes = min(min_bytes, int(props.total_memory * MEMORY_FRACTION))
    row_bytes = cols * dtype.itemsize
    return max(1, -(-min_bytes // row_bytes))


def bytes_moved(op: str, pass_: str, rows: int, cols: int, dtype: torch.dtype) -> int:
    """The minimum traffic of one call (bytes read + bytes written)."""
    n = rows * cols * dtype.itemsize
    if op in REDUCE_OPS:
        return n + rows * dtype.itemsize     # read the input, write one value per row
    return {"fwd": 2 * n,                    # read x, write y
            "bwd": 3 * n,                    # read y and dy, write dx
            "fwd+bwd": 5 * n}[pass_]


@dataclass
class Case:
    """One (op, pass, dtype, width) input set and what every backend is checked against."""

    op: str
    pass_: str
    dtype_name: str
    x: torch.Tensor                    # the forward input
    y: torch.Tensor | None = None      # bwd: the forward output, exact then rounded
    dy: torch.Tensor | None = None     # bwd, fwd+bwd: the incoming gradient


def make_case(op: str, pass_: str, dtype_name: str, dtype: torch.dtype, rows: int, cols: int,
              device: torch.device, seed: int) -> Case:
    x = make_rows(rows, cols, dtype, device, seed=seed)
    case = Case(op, pass_, dtype_name, x)
    if pass_ != "fwd":
        case.dy = make_gradient(rows, cols, dtype, device, seed=seed)
    if pass_ == "bwd":
        case.y = reference(op, x).to(dtype)
    return case


def _poisoned(shape, dtype, device) -> torch.Tensor:
    return torch.full(shape, float("nan"), dtype=dtype, device=device)


def check_and_callable(case: Case, backend: Backend, variant: str) -> tuple[object, Callable[[], object]]:
    """Run `backend`/`variant` once on the case into a NaN-poisoned output and judge it;
    return the verdict (Agreement or GradientAgreement) and the closure to time."""
    op, x = case.op, case.x
    if case.pass_ == "fwd":
        out = _poisoned(x.shape if op in SOFTMAX_OPS else x.shape[:-1], x.dtype, x.device)
        backend.run_into(x, op, variant, out)
        return check(op, x, out), (lambda: backend.run(x, op, variant))
    if case.pass_ == "bwd":
        bop, y, dy = BACKWARD_OF[op], case.y, case.dy
        out = _poisoned(y.shape, y.dtype, y.device)
        backend.run_into(y, bop, variant, out, dy=dy)
        return check(bop, y, out, dy=dy), (lambda: backend.run(y, bop, variant, dy=dy))
    fn = OP_FUNCTIONS[op]
    xg = x.detach().clone().requires_grad_()
    dy = case.dy

    def step():
        return torch.autograd.grad(fn(xg, -1, backend=backend.name, variant=variant), xg, dy)[0]

    return gradient_agreement(op, x, dy, step()), step


def run_sweep(args, device: torch.device, backends: list[Backend], chosen: dict,
              progress) -> tuple[list[Result], dict]:
    """Every (op, pass, dtype, width, backend, variant) of the run; `chosen` maps
    (backend name, op, pass) to the variants to run. Returns the results and the failure
    messages by result key."""
    timing = device.type == "cuda" and not args.check_only
    results: list[Result] = []
    details: dict = {}
    for op in args.op:
        for pass_ in passes_for(op, args.passes):
            for dname in args.dtype:
                dtype = args.dtype_map[dname]
                for cols in args.cols:
                    for rows in args.rows or [None]:
                        rows = rows or default_rows(cols, dtype, device, args.min_bytes)
                        case = make_case(op, pass_, dname, dtype, rows, cols, device, args.seed)
                        results += _run_case(case, backends, chosen, timing, device, details, progress)
                        del case
    return results, details


def _run_case(case: Case, backends, chosen, timing, device, details, progress) -> list[Result]:
    x = case.x
    rows, cols = x.shape
    op, pass_ = case.op, case.pass_
    moved = bytes_moved(op, pass_, rows, cols, x.dtype)
    copy = copy_bandwidth_gbps(x.numel() * x.element_size(), device) if timing else None
    inputs = [t for t in (x, case.y, case.dy) if t is not None]
    originals = [t.clone() for t in inputs]
    out: list[Result] = []
    for b in backends:
        for variant in chosen.get((b.name, op, pass_), []):
            progress.set_postfix_str(f"{op} {pass_} {case.dtype_name} {cols} {b.name}/{variant}", refresh=False)
            r = Result(op, pass_, case.dtype_name, rows, cols, b.name, variant, own=b.own, copy_gbps=copy)
            out.append(r)
            key = (op, pass_, case.dtype_name, rows, cols, b.name, variant)
            support = b.supports_canonical(case.y if pass_ == "bwd" else x, pass_op(op, pass_), variant)
            if not support:
                r.note = f"skipped: {support.reason}"
                progress.update(1)
                continue
            try:
                verdict, fn = check_and_callable(case, b, variant)
                if any(not torch.equal(t, o) for t, o in zip(inputs, originals)):
                    raise RuntimeError("the input tensor was modified")
                r.ok = verdict.ok
                if pass_ == "fwd+bwd":
                    r.max_rel_err = verdict.error
                else:
                    r.max_abs_err, r.max_rel_err = verdict.max_abs_err, verdict.max_rel_err
                if not verdict.ok:
                    r.note = verdict.summary()
                    details[key] = r.note
                if timing:
                    r.ms = time_ms(fn, device)
                    r.gbps = gbps(moved, r.ms)
                    r.pct_of_copy = 100.0 * r.gbps / copy
            except Exception as exc:  # a broken kernel or peer is a failed result, not a crash
                r.ok = False
                r.note = f"error: {type(exc).__name__}: {exc}"
                details[key] = r.note
            progress.update(1)
    torch_ms = next((r.ms for r in out if r.backend == "torch" and r.variant == "auto" and r.ms), None)
    if torch_ms is not None:
        for r in out:
            if r.ms:
                r.speedup_vs_torch = torch_ms / r.ms
    return out
