"""`python -m comparison`: agreement and throughput of every backend/variant, side by side.

For each (op, dtype, width) one input is made, every selected backend/variant runs on
it, the result is checked element by element against the float64 reference, and (on a
GPU) timed. Bandwidth counts the minimum traffic (bytes read + bytes written) over the
median time, as a fraction of a device-to-device copy of the same bytes measured in the
same run: the ceiling for a memory-bound op.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import sys
from dataclasses import asdict, dataclass

import torch

from .backend import OPS, SOFTMAX_OPS
from .registry import get_backend, list_backends

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
FORMATS = ("table", "markdown", "csv", "json")
L2_MULTIPLE = 4            # default inputs are at least this many times the L2 cache
MEMORY_FRACTION = 1 / 8    # ...but never more than this share of the GPU's memory
CPU_MAX_ELEMENTS = 1 << 16  # CPU runs (agreement only) stay small: seconds, not minutes
CPU_MIN_ROWS = 4            # keep the extreme rows of comparison.inputs


@dataclass
class Result:
    op: str
    dtype: str
    rows: int
    cols: int
    backend: str
    variant: str
    ms: float | None = None
    gbps: float | None = None
    pct_of_copy: float | None = None
    speedup_vs_torch: float | None = None
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    ok: bool | None = None
    copy_gbps: float | None = None
    note: str = ""


# -- argument parsing -------------------------------------------------------------------

def _int_list(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}")
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"expected positive integers, got {text!r}")
    return values


def _choice_list(choices):
    def parse(text: str) -> list[str]:
        values = [v.strip() for v in text.split(",") if v.strip()]
        bad = [v for v in values if v not in choices]
        if bad or not values:
            raise argparse.ArgumentTypeError(
                f"invalid choice(s) {', '.join(bad) or repr(text)}; choose from {', '.join(choices)}")
        return values
    return parse


def _size(text: str) -> int:
    units = {"": 1, "b": 1, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30,
             "kb": 10 ** 3, "mb": 10 ** 6, "gb": 10 ** 9}
    t = text.strip().lower()
    number = t.rstrip("kmgib")
    unit = t[len(number):]
    try:
        value = float(number) * units[unit]
    except (ValueError, KeyError):
        raise argparse.ArgumentTypeError(f"expected a size such as 256MiB or 1GiB, got {text!r}")
    if value < 1:
        raise argparse.ArgumentTypeError(f"size must be positive, got {text!r}")
    return int(value)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m comparison",
        description="Compare softmax-family kernels (torch, triton, cuda) for agreement with a "
                    "float64 reference and for bandwidth against the device-to-device copy ceiling.")
    p.add_argument("--cols", type=_int_list, required=True, help="row widths, e.g. 512,2048,8192")
    p.add_argument("--rows", type=int, default=None,
                   help="rows per input (default: enough that each input is at least "
                        f"--min-bytes, i.e. {L2_MULTIPLE}x the GPU's L2 cache; small on CPU)")
    p.add_argument("--min-bytes", type=_size, default=None,
                   help="smallest input size when --rows is not given, e.g. 1GiB "
                        f"(default: {L2_MULTIPLE}x L2, capped at 1/8 of GPU memory)")
    p.add_argument("--dtype", type=_choice_list(tuple(DTYPES)), default=["fp32", "bf16"],
                   help="fp32,bf16,fp16 (default: fp32,bf16)")
    p.add_argument("--op", type=_choice_list(OPS), default=list(SOFTMAX_OPS),
                   help=f"{','.join(OPS)} (default: softmax,log_softmax)")
    p.add_argument("--backends", type=_choice_list(tuple(list_backends())), default=None,
                   help="torch,triton,cuda (default: all; unavailable ones are listed with the reason)")
    p.add_argument("--variants", default="auto",
                   help="auto | all | comma-separated variant names (default: auto)")
    p.add_argument("--format", choices=FORMATS, default="table")
    p.add_argument("--output", default=None, help="write the report to FILE instead of stdout")
    p.add_argument("--check-only", action="store_true", help="agreement checks only, no timing")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default: 0)")
    p.add_argument("--device", default=None, help="e.g. cuda:1 (default: cuda if available, else cpu)")
    return p


# -- planning -----------------------------------------------------------------------------

def default_rows(cols: int, dtype: torch.dtype, device: torch.device, min_bytes: int | None) -> int:
    if device.type != "cuda":
        return max(CPU_MIN_ROWS, CPU_MAX_ELEMENTS // cols)
    props = torch.cuda.get_device_properties(device)
    if min_bytes is None:
        min_bytes = L2_MULTIPLE * getattr(props, "L2_cache_size", 50 << 20)
        min_bytes = min(min_bytes, int(props.total_memory * MEMORY_FRACTION))
    row_bytes = cols * torch.tensor([], dtype=dtype).element_size()
    return max(1, -(-min_bytes // row_bytes))


def bytes_moved(op: str, rows: int, cols: int, dtype: torch.dtype) -> int:
    size = torch.tensor([], dtype=dtype).element_size()
    if op in SOFTMAX_OPS:
        return 2 * rows * cols * size          # read the input once, write the output once
    return rows * cols * size + rows * size    # read the input, write one value per row


def select_variants(spec: str, backends, ops) -> dict[tuple[str, str], list[str]]:
    """(backend, op) -> variants to run; raises ValueError for names no backend has."""
    chosen: dict[tuple[str, str], list[str]] = {}
    names = [v.strip() for v in spec.split(",") if v.strip()]
    known: set[str] = set()
    for b in backends:
        for op in ops:
            offered = b.variants(op)
            known.update(offered)
            if spec == "auto":
                chosen[(b.name, op)] = ["auto"] if offered else []
            elif spec == "all":
                chosen[(b.name, op)] = offered
            else:
                chosen[(b.name, op)] = [v for v in names if v in offered]
    if spec not in ("auto", "all"):
        unknown = [v for v in names if v not in known]
        if unknown:
            raise ValueError(f"unknown variant(s) {', '.join(unknown)}; "
                             f"valid: auto, all, {', '.join(sorted(known))}")
    return chosen


# -- running ------------------------------------------------------------------------------

def _poisoned_output(x: torch.Tensor, op: str) -> torch.Tensor:
    shape = x.shape if op in SOFTMAX_OPS else x.shape[:-1]
    return torch.full(shape, float("nan"), dtype=x.dtype, device=x.device)


def run_sweep(args, device, backends, chosen, progress) -> tuple[list[Result], dict]:
    from .agreement import check
    from .inputs import make_rows
    from .timing import copy_bandwidth_gbps, gbps, time_ms

    timing = device.type == "cuda" and not args.check_only
    results: list[Result] = []
    details: dict = {}
    for op in args.op:
        for dname in args.dtype:
            dtype = DTYPES[dname]
            for cols in args.cols:
                rows = args.rows or default_rows(cols, dtype, device, args.min_bytes)
                x = make_rows(rows, cols, dtype, device, seed=args.seed)
                original = x.clone()
                moved = bytes_moved(op, rows, cols, dtype)
                copy = copy_bandwidth_gbps(rows * cols * x.element_size(), device) if timing else None
                torch_ms = None
                for b in backends:
                    for variant in chosen[(b.name, op)]:
                        progress.set_postfix_str(f"{op} {dname} {cols} {b.name}/{variant}")
                        r = Result(op, dname, rows, cols, b.name, variant, copy_gbps=copy)
                        results.append(r)
                        support = b.supports(x, op, variant)
                        if not support:
                            r.note = f"skipped: {support.reason}"
                            progress.update(1)
                            continue
                        try:
                            out = _poisoned_output(x, op)
                            b.run_into(x, op, variant, out)
                            agreement = check(op, x, out)
                            del out
                            if not torch.equal(x, original):
                                raise RuntimeError("the input tensor was modified")
                            r.max_abs_err, r.max_rel_err = agreement.max_abs_err, agreement.max_rel_err
                            r.ok = agreement.ok
                            if not agreement.ok:
                                details[(op, dname, cols, b.name, variant)] = agreement.summary()
                            if timing:
                                fn = (lambda b=b, x=x, op=op, variant=variant: b.run(x, op, variant))
                                r.ms = time_ms(fn, device)
                                r.gbps = gbps(moved, r.ms)
                                r.pct_of_copy = 100.0 * r.gbps / copy
                                if b.name == "torch" and variant == "auto":
                                    torch_ms = r.ms
                        except Exception as exc:  # a broken kernel is a failed result, not a crash
                            r.ok = False
                            r.note = f"error: {type(exc).__name__}: {exc}"
                            details[(op, dname, cols, b.name, variant)] = r.note
                        progress.update(1)
                if torch_ms is not None:
                    for r in results:
                        if (r.op, r.dtype, r.cols) == (op, dname, cols) and r.ms:
                            r.speedup_vs_torch = torch_ms / r.ms
                del x, original
    return results, details


# -- reporting ----------------------------------------------------------------------------

def _fmt(value, spec):
    return "" if value is None else format(value, spec)


def _mark(r: Result) -> str:
    if r.ok is None:
        return "skip"
    return "ok" if r.ok else "FAIL"


def render_tables(results: list[Result], fmt: str, timing: bool) -> str:
    from tabulate import tabulate

    tablefmt = "github" if fmt == "markdown" else "simple"
    out = []
    groups_per_table = 4
    keys = list(dict.fromkeys((r.op, r.dtype) for r in results))
    for op, dname in keys:
        subset = [r for r in results if (r.op, r.dtype) == (op, dname)]
        impls = list(dict.fromkeys((r.backend, r.variant) for r in subset))
        widths = list(dict.fromkeys((r.rows, r.cols) for r in subset))
        for start in range(0, len(impls), groups_per_table):
            part = impls[start:start + groups_per_table]
            headers = ["rows", "cols"]
            for b, v in part:
                name = f"{b}/{v}"
                if timing:
                    headers += [f"{name} ms", "GB/s", "% copy", "x torch"]
                headers += [f"{name} rel err" if not timing else "rel err", "ok"]
            body = []
            for rows, cols in widths:
                line = [rows, cols]
                for b, v in part:
                    r = next(r for r in subset if (r.rows, r.cols, r.backend, r.variant) == (rows, cols, b, v))
                    if timing:
                        line += [_fmt(r.ms, ".4f"), _fmt(r.gbps, ".0f"), _fmt(r.pct_of_copy, ".1f"),
                                 _fmt(r.speedup_vs_torch, ".2f")]
                    line += [_fmt(r.max_rel_err, ".2g"), _mark(r)]
                body.append(line)
            title = f"{op} {dname}" + (" (continued)" if start else "")
            out.append(f"\n{'### ' if fmt == 'markdown' else ''}{title}\n")
            out.append(tabulate(body, headers=headers, tablefmt=tablefmt, disable_numparse=True))
    return "\n".join(out) + "\n"


def header_lines(device, copy_gbps, timing, command) -> list[str]:
    lines = [f"device: {describe_device(device)}",
             f"torch {torch.__version__}, triton {_triton_version()}, python {platform.python_version()}",
             f"date: {datetime.datetime.now().isoformat(timespec='seconds')}",
             f"command: {command}"]
    if timing:
        lines.append(f"copy ceiling (device-to-device copy, read+write): {copy_gbps:.0f} GB/s")
    else:
        lines.append("timings need a CUDA GPU: agreement checks only" if device.type != "cuda"
                     else "--check-only: agreement checks only")
    return lines


def describe_device(device: torch.device) -> str:
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        l2 = getattr(props, "L2_cache_size", 0) >> 20
        return (f"{props.name} ({device}, {props.multi_processor_count} SMs, "
                f"{props.total_memory / 2**30:.0f} GiB, L2 {l2} MiB)")
    return f"CPU ({platform.processor() or platform.machine()})"


def _triton_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("triton")
    except PackageNotFoundError:
        return "not installed"


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.rows is not None and args.rows < 1:
        parser.error("--rows must be a positive integer")
    if args.device is not None:
        try:
            device = torch.device(args.device)
        except RuntimeError as exc:
            parser.error(f"--device: {exc}")
        if device.type == "cuda" and not torch.cuda.is_available():
            parser.error(f"--device {args.device}: no CUDA GPU is visible")
    else:
        device = torch.device("cuda", torch.cuda.current_device()) if torch.cuda.is_available() else torch.device("cpu")
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    if device.type != "cuda":
        # Triton's CPU interpreter has to be chosen before Triton is first imported.
        os.environ.setdefault("TRITON_INTERPRET", "1")

    names = args.backends or list_backends()
    backends, unavailable = [], []
    for name in names:
        b = get_backend(name)
        why = b.unavailable_reason()
        if why is None:
            why = b.device_reason(torch.empty(0, device=device))
        (unavailable.append((name, why)) if why else backends.append(b))
    try:
        chosen = select_variants(args.variants, backends, args.op)
    except ValueError as exc:
        parser.error(f"--variants: {exc}")

    from tqdm import tqdm

    timing = device.type == "cuda" and not args.check_only
    total = len(args.dtype) * len(args.cols) * sum(len(chosen[(b.name, op)]) for b in backends for op in args.op)
    with tqdm(total=total, desc="comparing", unit="run", file=sys.stderr, disable=None, leave=False) as progress:
        results, details = run_sweep(args, device, backends, chosen, progress)

    copies = sorted(r.copy_gbps for r in results if r.copy_gbps)
    copy_gbps = copies[len(copies) // 2] if copies else None
    command = "python -m comparison " + " ".join(shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv))
    report = format_report(args.format, results, details, unavailable, device, copy_gbps, timing, command)
    if args.output:
        with open(args.output, "w") as f:
            f.write(report)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(report)
    return 1 if any(r.ok is False for r in results) else 0


def format_report(fmt, results, details, unavailable, device, copy_gbps, timing, command) -> str:
    if fmt == "json":
        doc = {"device": describe_device(device), "torch": torch.__version__, "triton": _triton_version(),
               "date": datetime.datetime.now().isoformat(timespec="seconds"), "command": command,
               "copy_gbps": copy_gbps,
               "unavailable": {name: why for name, why in unavailable},
               "results": [asdict(r) for r in results]}
        return json.dumps(doc, indent=2) + "\n"
    if fmt == "csv":
        import csv
        import io

        buf = io.StringIO()
        fields = list(Result.__dataclass_fields__)
        writer = csv.DictWriter(buf, fieldnames=fields)
        writer.writeheader()
        for r in results:
            writer.writerow(asdict(r))
        return buf.getvalue()
    lines = header_lines(device, copy_gbps, timing, command)
    prefix = "" if fmt == "table" else "    "
    text = "\n".join(prefix + line for line in lines) + "\n"
    for name, why in unavailable:
        text += f"{prefix}backend {name} unavailable: {why}\n"
    text += render_tables(results, fmt, timing)
    skipped = sorted({(r.backend, r.variant, r.note) for r in results if r.note.startswith("skipped")})
    if skipped:
        text += "\nnot run:\n" + "".join(f"  {b}/{v} {note}\n" for b, v, note in skipped)
    if details:
        text += "\nfailures:\n" + "".join(
            f"  {op} {d} cols={c} {b}/{v}: {msg}\n" for (op, d, c, b, v), msg in details.items())
    ok = sum(r.ok is True for r in results)
    bad = sum(r.ok is False for r in results)
    text += f"\n{ok} agree, {bad} fail, {sum(r.ok is None for r in results)} not run\n"
    return text
