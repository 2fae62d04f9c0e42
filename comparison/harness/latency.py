"""`python -m comparison --latency`: what one call of the public function costs, small inputs.

The bandwidth sweep times kernels on inputs far larger than L2; at a few rows the cost of a
call is launch latency and host overhead instead. For each case this measures the public
call (`comparison.softmax(x, backend=..., variant=...)`, or the op's function) three ways,
in microseconds per call:

* ``graph``: GRAPH_CALLS calls captured in one CUDA graph, replayed back to back, per
  call: the GPU time of the call's kernels with no host overhead between them (a graph
  of one call measured the host's replay rate instead: 5-10 us per replay on the
  machines we use, whatever the kernel, empty ones included);
* ``bench``: `triton.testing.do_bench` (median; L2 flushed before each call): the GPU time
  of one eager call on a cold cache;
* ``loop``: N eager calls back to back and one synchronize, wall clock: what a Python
  loop of calls costs, host overhead included (if it exceeds ``graph``, the host is the
  bottleneck);

and ``launches``: the kernels one eager call runs (torch.profiler). The same four are
measured for an empty kernel (`torch.cuda._sleep(0)`) in the same run: the floor. GPU only.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import torch

from ..api import BACKWARD_FUNCTIONS, OP_FUNCTIONS
from ..backend import BACKWARD_OF
from ..inputs import make_gradient, make_rows
from ..reference import reference
from .sweep import pass_op, passes_for, report_dict

LATENCY_ROWS = (1,)        # rows when --rows is not given: one row, the latency regime
TARGET_SECONDS = 0.1       # per loop and replay measurement
MAX_REPEATS = 10_000
WARMUP_CALLS = 3
GRAPH_CALLS = 20           # calls per captured graph, so that a replay's host cost is spread thin
GRAPH_POOL_BYTES = 2 << 30  # fewer calls where their outputs (each kept by the graph) would pass this


@dataclass
class Latency:
    op: str
    pass_: str
    dtype: str
    rows: int
    cols: int
    backend: str
    variant: str
    graph_us: float | None = None
    bench_us: float | None = None
    loop_us: float | None = None
    launches: int | None = None
    note: str = ""
    # Filled by `compare_to_peers` once every backend of the case has run:
    loop_speedup: float | None = None     # torch's loop us / this loop us
    graph_vs_quack: float | None = None   # this graph us / Quack's graph us

    def to_dict(self) -> dict:
        return report_dict(self)


def _repeats(estimate_s: float) -> int:
    return int(min(MAX_REPEATS, max(10, TARGET_SECONDS / max(estimate_s, 1e-7))))


def loop_us(fn: Callable[[], object], device: torch.device) -> float:
    """Wall-clock microseconds per call of N back-to-back calls, one synchronize at the end."""
    torch.cuda.synchronize(device)
    start = time.perf_counter()
    for _ in range(10):
        fn()
    torch.cuda.synchronize(device)
    n = _repeats((time.perf_counter() - start) / 10)
    start = time.perf_counter()
    for _ in range(n):
        fn()
    torch.cuda.synchronize(device)
    return (time.perf_counter() - start) / n * 1e6


def graph_calls(x: torch.Tensor, pass_: str) -> int:
    """Calls per graph for inputs like x: GRAPH_CALLS, fewer where the outputs the graph
    keeps (one per call; the gradient pass also keeps y) would pass GRAPH_POOL_BYTES."""
    per_call = x.numel() * x.element_size() * (1 if pass_ == "fwd" else 3)
    return max(1, min(GRAPH_CALLS, GRAPH_POOL_BYTES // max(per_call, 1)))


def graph_us(fn: Callable[[], object], device: torch.device, calls: int = GRAPH_CALLS) -> float:
    """Microseconds per call of a CUDA graph holding `calls` calls, replayed back to back
    (captured after warm-up on a side stream, as CUDA graphs require)."""
    side = torch.cuda.Stream(device)
    side.wait_stream(torch.cuda.current_stream(device))
    with torch.cuda.stream(side):
        for _ in range(WARMUP_CALLS):
            fn()
    torch.cuda.current_stream(device).wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(calls):
            fn()
    graph.replay()
    torch.cuda.synchronize(device)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(10):
        graph.replay()
    end.record()
    end.synchronize()
    n = _repeats(start.elapsed_time(end) / 10 * 1e-3)
    start.record()
    for _ in range(n):
        graph.replay()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / (n * calls) * 1e3


def bench_us(fn: Callable[[], object]) -> float:
    from triton.testing import do_bench

    return do_bench(fn, return_mode="median") * 1e3


def launches(fn: Callable[[], object], device: torch.device) -> int:
    """Kernels one call runs (memory copies and sets not counted)."""
    from torch.profiler import ProfilerActivity, profile

    fn()
    torch.cuda.synchronize(device)
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize(device)
    gpu = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    return sum(not e.name.startswith(("Memcpy", "Memset")) for e in gpu)


def measure(fn: Callable[[], object], device: torch.device, r: Latency,
            calls: int = GRAPH_CALLS) -> Latency:
    """Fill r's four measurements (`calls` per captured graph); a method that fails leaves
    its field empty and says why."""
    problems = []
    for field, method in (("launches", lambda: launches(fn, device)), ("bench_us", lambda: bench_us(fn)),
                          ("loop_us", lambda: loop_us(fn, device)),
                          ("graph_us", lambda: graph_us(fn, device, calls))):
        try:
            setattr(r, field, method())
        except Exception as exc:  # e.g. a call that synchronizes cannot be captured in a graph
            problems.append(f"{field.replace('_us', '')}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
            torch.cuda.synchronize(device)
    r.note = "; ".join(problems)
    return r


def public_call(op: str, pass_: str, backend: str, variant: str, x: torch.Tensor, dy: torch.Tensor | None
                ) -> Callable[[], object]:
    """The closure of one public call of the case (built outside the timed region)."""
    if pass_ == "fwd":
        fn = OP_FUNCTIONS[op]
        return lambda: fn(x, -1, backend=backend, variant=variant)
    if pass_ == "bwd":
        fn = BACKWARD_FUNCTIONS[BACKWARD_OF[op]]
        y = reference(op, x).to(x.dtype)
        return lambda: fn(y, dy, -1, backend=backend, variant=variant)
    fn = OP_FUNCTIONS[op]
    xg = x.detach().clone().requires_grad_()
    return lambda: torch.autograd.grad(fn(xg, -1, backend=backend, variant=variant), xg, dy)[0]


def run_latency(args, device: torch.device, backends, chosen, progress) -> tuple[list[Latency], Latency]:
    """Every case of the run, and the empty-kernel floor measured first."""
    with torch.cuda.device(device):
        floor = measure(lambda: torch.cuda._sleep(0), device,
                        Latency("empty kernel", "", "", 0, 0, "torch.cuda._sleep(0)", ""))
        out: list[Latency] = []
        for op in args.op:
            for pass_ in passes_for(op, args.passes):
                for dname in args.dtype:
                    dtype = args.dtype_map[dname]
                    for cols in args.cols:
                        for rows in args.rows or LATENCY_ROWS:
                            x = make_rows(rows, cols, dtype, device, seed=args.seed)
                            dy = make_gradient(rows, cols, dtype, device, seed=args.seed) if pass_ != "fwd" else None
                            for b in backends:
                                for variant in chosen.get((b.name, op, pass_), []):
                                    progress.set_postfix_str(f"{op} {pass_} {dname} {rows}x{cols} {b.name}/{variant}",
                                                             refresh=False)
                                    r = Latency(op, pass_, dname, rows, cols, b.name, variant)
                                    out.append(r)
                                    # (bwd: y has x's shape and dtype)
                                    support = b.supports_canonical(x, pass_op(op, pass_), variant)
                                    if not support:
                                        r.note = f"skipped: {support.reason}"
                                    else:
                                        try:
                                            fn = public_call(op, pass_, b.name, variant, x, dy)
                                            fn()  # compile or build on this call, never in a measurement
                                            measure(fn, device, r, graph_calls(x, pass_))
                                        except Exception as exc:
                                            r.note = f"error: {type(exc).__name__}: {exc}"
                                    progress.update(1)
    compare_to_peers(out)
    return out, floor


def compare_to_peers(results: list[Latency]) -> None:
    """Set each result's loop speedup over torch and graph time against Quack's, from the
    torch and quack results of the same case (op, pass, dtype, rows, cols) when those ran."""
    def case(r):
        return r.op, r.pass_, r.dtype, r.rows, r.cols

    baseline = {}
    for r in results:
        if r.backend in ("torch", "quack") and r.variant == "auto":
            baseline[(r.backend, *case(r))] = r
    for r in results:
        torch_r, quack_r = baseline.get(("torch", *case(r))), baseline.get(("quack", *case(r)))
        if torch_r is not None and torch_r.loop_us and r.loop_us:
            r.loop_speedup = torch_r.loop_us / r.loop_us
        if quack_r is not None and quack_r.graph_us and r.graph_us:
            r.graph_vs_quack = r.graph_us / quack_r.graph_us


def summary_lines(results: list[Latency], floor: Latency) -> list[str]:
    """Per backend of this package (`own`): the range of its loop speedup over torch and of
    its graph time against Quack's (or, where Quack did not run, against the empty-kernel
    floor), each with the case at the worst end."""
    from ..registry import get_backend

    def where(r):
        return f"{r.op} {r.pass_} {r.dtype} {r.rows}x{r.cols}"

    def own(name):
        try:
            return get_backend(name).own
        except Exception:  # a peer that is not installed here
            return False

    lines = []
    for name in dict.fromkeys(r.backend for r in results):
        if not own(name):
            continue
        mine = [r for r in results if r.backend == name and r.loop_us is not None]
        if not mine:
            lines.append(f"{name}: nothing measured")
            continue
        parts = []
        loops = [r for r in mine if r.loop_speedup is not None]
        if loops:
            worst = min(loops, key=lambda r: r.loop_speedup)
            parts.append(f"loop {worst.loop_speedup:.2f}-{max(r.loop_speedup for r in loops):.2f}x faster than "
                         f"torch (least: {where(worst)})")
        graphs = [r for r in mine if r.graph_vs_quack is not None]
        if graphs:
            worst = max(graphs, key=lambda r: r.graph_vs_quack)
            parts.append(f"graph {min(r.graph_vs_quack for r in graphs):.2f}-{worst.graph_vs_quack:.2f}x Quack's "
                         f"(most: {where(worst)})")
        elif floor.graph_us:
            timed = [r for r in mine if r.graph_us is not None]
            if timed:
                worst = max(timed, key=lambda r: r.graph_us)
                parts.append(f"graph up to {worst.graph_us / floor.graph_us:.1f}x the empty kernel's "
                             f"({where(worst)})")
        lines.append(f"{name}: " + "; ".join(parts))
    return lines


def to_doc(results: list[Latency], floor: Latency, header: list[str], extra: dict) -> dict:
    """The JSON document of a latency run: `extra` (device, versions, date, command, ...),
    the header lines, the summary, the floor and every result."""
    return {**extra, "header": header, "summary": summary_lines(results, floor), "floor": floor.to_dict(),
            "results": [r.to_dict() for r in results]}


def _fmt(v) -> str:
    return "" if v is None else (f"{v:.1f}" if isinstance(v, float) else str(v))


def _ratio(v) -> str:
    return "" if v is None else f"{v:.2f}"


def render(results: list[Latency], floor: Latency, fmt: str, header: list[str], extra: dict | None = None) -> str:
    """The latency report: header, the floor, a summary, a table per (op, pass, dtype)
    (long layout); JSON: `to_doc` with `extra`."""
    import csv
    import io
    import json

    if fmt == "json":
        return json.dumps(to_doc(results, floor, header, extra or {}), indent=2) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        fields = list(floor.to_dict())
        writer = csv.DictWriter(buf, fieldnames=fields)
        writer.writeheader()
        for r in [floor, *results]:
            writer.writerow(r.to_dict())
        return buf.getvalue()
    from tabulate import tabulate

    markdown = fmt == "markdown"
    prefix = "    " if markdown else ""
    text = "\n".join(prefix + line for line in header) + "\n"
    text += (f"{prefix}floor (an empty kernel, torch.cuda._sleep(0)): graph {_fmt(floor.graph_us)} us, "
             f"bench {_fmt(floor.bench_us)} us, loop {_fmt(floor.loop_us)} us, launches {_fmt(floor.launches)}"
             + (f" ({floor.note})" if floor.note else "") + "\n")
    text += (f"{prefix}us per call of the public function: graph = CUDA graph of {GRAPH_CALLS} calls replayed, "
             f"per call, bench = triton's do_bench (median, cold L2), loop = back-to-back eager calls with one synchronize (host included); "
             f"loop x torch = torch's loop us / this loop us, graph / quack = this graph us / Quack's\n")
    text += "".join(f"{prefix}summary: {line}\n" for line in summary_lines(results, floor))
    groups: dict[tuple, list[Latency]] = {}
    for r in results:
        groups.setdefault((r.op, r.pass_, r.dtype), []).append(r)
    for (op, pass_, dtype), subset in groups.items():
        body = [[f"{r.backend}/{r.variant}", r.rows, r.cols, _fmt(r.graph_us), _fmt(r.bench_us), _fmt(r.loop_us),
                 _fmt(r.launches), _ratio(r.loop_speedup), _ratio(r.graph_vs_quack), r.note] for r in subset]
        text += f"\n{'### ' if markdown else ''}{op} {pass_} {dtype} (latency)\n\n"
        text += tabulate(body, headers=["backend/variant", "rows", "cols", "graph us", "bench us", "loop us",
                                        "launches", "loop x torch", "graph / quack", "note"],
                         tablefmt="github" if markdown else "simple", disable_numparse=True) + "\n"
    return text
