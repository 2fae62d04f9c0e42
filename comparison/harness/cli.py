"""`python -m comparison`: agreement and throughput of every backend/variant, side by side.

For each (op, pass, dtype, width) one input set is made, every selected backend/variant
(this package's kernels, torch, and the peers of `comparison.peers`) runs on it, the
result is checked element by element against the float64 reference, and (on a GPU)
timed against the device-to-device copy ceiling (see `sweep`). `--latency` times single
calls of the public functions on small inputs instead (`latency`), `--plot` draws the
result (`plot`).

Subcommands: `python -m comparison plot R.json -o FIG.png` draws a saved JSON report;
`python -m comparison record` regenerates a GPU's record in benchmarks/ (`record`).

Exit status: 0 when this package's kernels agree (a peer's disagreement is reported as a
finding), 1 when one of them fails, 2 for bad arguments, 3 when nothing could be checked.
"""
from __future__ import annotations

import argparse
import os
import shlex
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import torch

from ..backend import OPS, SOFTMAX_OPS
from ..registry import get_backend, list_backends
from . import report as reporting
from .sweep import PASSES, pass_op, passes_for, run_sweep

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


# -- argument parsing -------------------------------------------------------------------

def comma_items(text: str) -> list[str]:
    """The items of a comma-separated option value (no empty ones: "512,,2048" is an error)."""
    items = [v.strip() for v in text.split(",")]
    if not text.strip() or any(not v for v in items):
        raise argparse.ArgumentTypeError(f"expected a comma-separated list without empty items, got {text!r}")
    return items


def _int_list(text: str) -> list[int]:
    try:
        values = [int(v) for v in comma_items(text)]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}")
    if any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"expected positive integers, got {text!r}")
    return values


def _choice_list(choices):
    def parse(text: str) -> list[str]:
        values = comma_items(text)
        bad = [v for v in values if v not in choices]
        if bad:
            raise argparse.ArgumentTypeError(
                f"invalid choice(s) {', '.join(bad)}; choose from {', '.join(choices)}")
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
        description="Compare softmax-family kernels (this package's cuda and triton, and peers such as "
                    "torch) for agreement with a float64 reference and for bandwidth against the "
                    "device-to-device copy ceiling.",
        epilog="Exit status: 0 when this package's kernels agree (peers' disagreements are findings), "
               "1 when one of them fails, 2 for bad arguments, 3 when nothing could be checked. "
               "Subcommands: `python -m comparison plot RESULTS.json -o FIG.png` draws a saved JSON "
               "report; `python -m comparison record` regenerates a GPU's record in benchmarks/ "
               "(each takes --help).")
    p.add_argument("--cols", type=_int_list, required=True, help="row widths, e.g. 512,2048,8192")
    p.add_argument("--rows", type=_int_list, default=None,
                   help="rows per input, or a list for a fixed-rows sweep (e.g. 1,4,16); default: enough "
                        f"that each input is at least --min-bytes ({reporting_default_size()}); small on CPU")
    p.add_argument("--min-bytes", type=_size, default=None,
                   help="smallest input when --rows is not given, e.g. 1GiB (GPU runs only)")
    p.add_argument("--dtype", type=_choice_list(tuple(DTYPES)), default=["fp32", "bf16"],
                   help="fp32,bf16,fp16 (default: fp32,bf16)")
    p.add_argument("--op", type=_choice_list(user_ops()), default=list(SOFTMAX_OPS),
                   help=f"{','.join(user_ops())} (default: softmax,log_softmax)")
    p.add_argument("--pass", dest="passes", type=_choice_list(PASSES), default=["fwd"],
                   help="fwd (the op), bwd (its backward op: read y and dy, write dx), fwd+bwd (a "
                        "training step through autograd); comma-separated; default: fwd")
    p.add_argument("--backends", type=_choice_list(tuple(list_backends())), default=None,
                   help=f"{','.join(list_backends())} (default: all; unavailable ones are listed with the reason)")
    p.add_argument("--variants", default="auto",
                   help="auto | all | comma-separated variant names (default: auto)")
    p.add_argument("--format", choices=reporting.FORMATS, default="table",
                   help="table (plain text), markdown, csv or json (every field; `pass` names the pass)")
    p.add_argument("--layout", choices=reporting.LAYOUTS, default="auto",
                   help="wide (a column group per implementation), long (a row per implementation and "
                        "width), or auto: long when wide would not fit the terminal (default)")
    p.add_argument("--output", default=None, help="write the report to FILE instead of stdout")
    p.add_argument("--plot", default=None, metavar="FILE.png",
                   help="also draw %% of copy against width, a panel per (op, dtype, pass), to FILE.png "
                        "(needs matplotlib: pip install -e \".[plot]\"); see also `python -m comparison plot`")
    p.add_argument("--check-only", action="store_true", help="agreement checks only, no timing")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default: 0)")
    p.add_argument("--device", default=None, help="e.g. cuda:1 (default: cuda if available, else cpu)")
    p.add_argument("--latency", action="store_true",
                   help="GPU only: instead of bandwidth, microseconds per call of the public function (a CUDA "
                        "graph of 20 calls replayed, per call; triton's do_bench; a loop of eager calls) and kernel "
                        "launches per call, beside an empty kernel's; rows default to 1 (--rows for more)")
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    return p


def reporting_default_size() -> str:
    from .sweep import L2_MULTIPLE, MEMORY_FRACTION

    return f"{L2_MULTIPLE}x the GPU's L2 cache, at most 1/{round(1 / MEMORY_FRACTION)} of its memory"


def user_ops() -> tuple[str, ...]:
    """The ops the CLI sweeps: forward ops and reductions (backward ops come with --pass)."""
    return tuple(op for op in OPS if not op.endswith("_backward"))


# -- choosing what runs -----------------------------------------------------------------------

def _offered(backend, op: str) -> list[str]:
    try:
        return backend.variants(op)
    except ImportError:
        return []


def select_variants(spec: str, backends, ops, passes) -> dict[tuple[str, str, str], list[str]]:
    """(backend, op, pass) -> variants to run; ValueError for names that no backend has,
    or that belong to a backend not selected or not available here (with which one)."""
    chosen: dict[tuple[str, str, str], list[str]] = {}
    names = [] if spec in ("auto", "all") else comma_items(spec)
    for b in backends:
        for op in ops:
            for pass_ in passes_for(op, passes):
                offered = _offered(b, op if pass_ == "fwd+bwd" else pass_op(op, pass_))
                if spec == "auto":
                    chosen[(b.name, op, pass_)] = ["auto"] if offered else []
                elif spec == "all":
                    chosen[(b.name, op, pass_)] = offered
                else:
                    chosen[(b.name, op, pass_)] = [v for v in names if v in offered]
    if names:
        selected = {v for vs in chosen.values() for v in vs}
        missing = [v for v in names if v not in selected]
        if missing:
            raise ValueError(_explain_missing(missing, backends))
    return chosen


def _explain_missing(missing: list[str], backends) -> str:
    owners: dict[str, set[str]] = {}
    for name in list_backends():
        try:
            backend = get_backend(name)
        except ImportError:
            continue
        for op in OPS:
            for v in _offered(backend, op):
                owners.setdefault(v, set()).add(name)
    running = {b.name for b in backends}
    parts = []
    for v in missing:
        if v not in owners:
            continue
        where = sorted(owners[v])
        if not set(where) & running:
            parts.append(f"{v!r} belongs to {', '.join(where)}, which is not selected or is unavailable here")
        else:
            parts.append(f"{v!r} is not a variant of the selected ops or passes")
    unknown = [v for v in missing if v not in owners]
    if unknown:
        valid = sorted(v for v in owners if v != "auto")
        parts.insert(0, f"unknown variant(s) {', '.join(unknown)}; valid: auto, all, {', '.join(valid)}")
    return "; ".join(parts)


# -- main ---------------------------------------------------------------------------------

def _device(parser, arg: str | None) -> torch.device:
    if arg is None:
        return torch.device("cuda", torch.cuda.current_device()) if torch.cuda.is_available() else torch.device("cpu")
    try:
        device = torch.device(arg)
    except RuntimeError as exc:
        parser.error(f"--device: {exc}")
    if device.type == "cuda":
        if not torch.cuda.is_available():
            parser.error(f"--device {arg}: no CUDA GPU is visible")
        index = torch.cuda.current_device() if device.index is None else device.index
        if index >= torch.cuda.device_count():
            parser.error(f"--device {arg}: only {torch.cuda.device_count()} CUDA device(s) are visible")
        device = torch.device("cuda", index)
    return device


def check_output(parser, path: str | None, option: str = "--output") -> None:
    if path is None:
        return
    target = Path(path)
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        parser.error(f"{option} {path}: the folder {parent} does not exist")
    if target.is_dir():
        parser.error(f"{option} {path}: is a folder, not a file")
    if not os.access(parent, os.W_OK):
        parser.error(f"{option} {path}: the folder {parent} is not writable")


def quiet_interpreter_warnings() -> None:
    """Triton's CPU interpreter runs kernels through numpy, which warns (RuntimeWarning:
    overflow or invalid value) on the -inf and NaN rows the agreement inputs carry on
    purpose; the checker judges those results, so the warnings are noise on stderr."""
    warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"triton\.runtime\.interpreter")


@dataclass
class Plan:
    """What a parsed command line will run."""

    args: argparse.Namespace
    device: torch.device
    backends: list
    unavailable: list[tuple[str, str]]
    chosen: dict
    notes: list[str] = field(default_factory=list)

    @property
    def timing(self) -> bool:
        return self.device.type == "cuda" and not self.args.check_only

    def total(self) -> int:
        a = self.args
        return sum(len(v) for v in self.chosen.values()) * len(a.dtype) * len(a.cols) * len(a.rows or [None])


def plan(parser, args) -> Plan:
    """Check the arguments against this machine (exit 2 through `parser.error`) and choose
    the backends and variants; nothing runs yet."""
    device = _device(parser, args.device)
    check_output(parser, args.output)
    notes = []
    if device.type != "cuda":
        # Triton's CPU interpreter has to be chosen before Triton is first imported.
        os.environ.setdefault("TRITON_INTERPRET", "1")
        quiet_interpreter_warnings()
        if args.min_bytes is not None:
            notes.append("--min-bytes sizes GPU inputs; on the CPU inputs stay small (agreement checks only)")
    args.dtype_map = DTYPES

    backends, unavailable = [], []
    for name in args.backends or list_backends():
        try:
            b = get_backend(name)
        except ImportError as exc:  # its module is missing from this install
            unavailable.append((name, f"cannot be imported: {type(exc).__name__}: {exc}"))
            continue
        why = b.unavailable_reason() or b.device_reason(torch.empty(0, device=device))
        (unavailable.append((name, why)) if why else backends.append(b))
    try:
        chosen = select_variants(args.variants, backends, args.op, args.passes)
    except ValueError as exc:
        parser.error(f"--variants: {exc}")
    return Plan(args, device, backends, unavailable, chosen, notes)


def execute(p: Plan, command: str, desc: str = "comparing") -> reporting.Report:
    """Run the sweep of a plan, with a progress bar on stderr (only when stderr is a
    terminal, and not with --quiet), and return its report."""
    from tqdm import tqdm

    with tqdm(total=p.total(), desc=desc, unit="run", file=sys.stderr, leave=False,
              disable=True if p.args.quiet else None) as progress:
        results, details = run_sweep(p.args, p.device, p.backends, p.chosen, progress)
    return reporting.Report(p.device, command, p.timing, results, details, p.unavailable, p.notes)


def command_line(argv: list[str]) -> str:
    return "python -m comparison " + " ".join(shlex.quote(a) for a in argv)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "plot":
        from .plot import main as plot_main

        return plot_main(argv[1:])
    if argv and argv[0] == "record":
        from .record import main as record_main

        return record_main(argv[1:])
    return compare(argv)


def measure_latency(parser, p: Plan, command: str, desc: str = "latency"):
    """Run the `--latency` cases of plan `p`: (results, floor, header lines, the JSON
    document's fields beside them: device, versions, date, command, unavailable)."""
    import datetime

    args = p.args
    if p.device.type != "cuda":
        parser.error("--latency measures kernel launches on a CUDA GPU, and none is in use here")
    if args.plot is not None:
        parser.error("--plot draws bandwidth; it does not combine with --latency")
    from tqdm import tqdm

    from . import latency

    rows = len(args.rows or latency.LATENCY_ROWS)
    total = sum(len(v) for v in p.chosen.values()) * len(args.dtype) * len(args.cols) * rows
    with tqdm(total=total, desc=desc, unit="run", file=sys.stderr, leave=False,
              disable=True if args.quiet else None) as progress:
        results, floor = latency.run_latency(args, p.device, p.backends, p.chosen, progress)
    v = reporting.versions()
    date = datetime.datetime.now().isoformat(timespec="seconds")
    device = reporting.describe_device(p.device)
    header = [f"device: {device}",
              f"torch {v['torch']} (CUDA {v['cuda']}), triton {v['triton']}, python {v['python']}",
              f"date: {date}", f"command: {command}",
              *(f"backend {name} unavailable: {why}" for name, why in p.unavailable)]
    extra = {"device": device, **v, "date": date, "command": command,
             "unavailable": dict(p.unavailable)}
    return results, floor, header, extra


def latency_view(parser, p: Plan, command: str) -> int:
    """`--latency`: the latency table instead of the bandwidth sweep (see `latency`)."""
    from . import latency

    results, floor, header, extra = measure_latency(parser, p, command)
    text = latency.render(results, floor, p.args.format, header, extra)
    if p.args.output:
        Path(p.args.output).write_text(text)
        print(f"wrote {p.args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return latency_status(results)


def latency_status(results) -> int:
    """1 when a call of this package's own backends raised; else 0."""
    failed = [r for r in results if r.note.startswith("error") and get_backend(r.backend).own]
    return 1 if failed else 0


def compare(argv: list[str]) -> int:
    """`python -m comparison --cols ...`: one sweep, its report on stdout or --output."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.plot is not None:
        check_output(parser, args.plot, "--plot")
        from .plot import matplotlib_missing

        why = matplotlib_missing()
        if why:
            parser.error(f"--plot: {why}")
    p = plan(parser, args)
    if args.latency:
        return latency_view(parser, p, command_line(argv))
    rep = execute(p, command_line(argv))
    to_terminal = args.output is None and sys.stdout.isatty()
    text = reporting.render(rep, args.format, args.layout, reporting.output_width(to_terminal))
    if args.output:
        Path(args.output).write_text(text)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    if args.plot is not None:
        from .plot import plot_results

        plot_results(reporting.to_dict(rep), args.plot)
        print(f"wrote {args.plot}", file=sys.stderr)
    return rep.exit_status()
