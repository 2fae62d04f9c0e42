"""The sweep's results as text: a header naming the device, versions, date and command,
then tables (wide: one column group per implementation; long: one row per
implementation and width), or JSON / CSV with every field."""
from __future__ import annotations

import csv
import datetime
import io
import json
import platform
import shutil
from dataclasses import dataclass, field

import torch

from .sweep import Result

FORMATS = ("table", "markdown", "csv", "json")
LAYOUTS = ("auto", "wide", "long")
# Wide tables wider than this (or than the terminal, when printing to one) go long.
FILE_WIDTH = 160


@dataclass
class Report:
    device: torch.device
    command: str
    timing: bool
    results: list[Result]
    details: dict
    unavailable: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    extra: dict = field(default_factory=dict)   # more top-level JSON fields (e.g. a record's)
    date: str = field(default_factory=lambda: datetime.datetime.now().isoformat(timespec="seconds"))

    @property
    def copy_gbps(self) -> float | None:
        copies = sorted(r.copy_gbps for r in self.results if r.copy_gbps)
        return copies[len(copies) // 2] if copies else None

    def own_failures(self) -> list[Result]:
        return [r for r in self.results if r.own and r.ok is False]

    def peer_findings(self) -> list[Result]:
        return [r for r in self.results if not r.own and r.ok is False]

    def checked(self) -> int:
        return sum(r.ok is not None for r in self.results)

    def exit_status(self) -> int:
        """0: this package's kernels agree (peers' disagreements are findings); 1: one of
        them failed; 3: nothing was checked at all."""
        if self.own_failures():
            return 1
        return 0 if self.checked() else 3


def versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    try:
        triton = version("triton")
    except PackageNotFoundError:
        triton = "not installed"
    return {"torch": torch.__version__, "triton": triton, "cuda": torch.version.cuda,
            "python": platform.python_version()}


def describe_device(device: torch.device) -> str:
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        l2 = getattr(props, "L2_cache_size", 0) >> 20
        return (f"{props.name} ({device}, {props.multi_processor_count} SMs, "
                f"{props.total_memory / 2**30:.0f} GiB, L2 {l2} MiB)")
    return f"CPU ({platform.processor() or platform.machine()})"


def header_lines(report: Report) -> list[str]:
    v = versions()
    lines = [f"device: {describe_device(report.device)}",
             f"torch {v['torch']} (CUDA {v['cuda']}), triton {v['triton']}, python {v['python']}",
             f"date: {report.date}",
             f"command: {report.command}"]
    if report.timing:
        lines.append(f"copy ceiling (device-to-device copy, read+write): {report.copy_gbps:.0f} GB/s")
    elif report.device.type != "cuda":
        lines.append("timings need a CUDA GPU: agreement checks only (Triton runs in its CPU interpreter)")
    else:
        lines.append("--check-only: agreement checks only")
    return lines


def _fmt(value, spec: str) -> str:
    return "" if value is None else format(value, spec)


def _mark(r: Result) -> str:
    if r.ok is None:
        return "skip"
    if r.ok:
        return "ok"
    return "FAIL" if r.own else "differs (peer)"


def _metrics(r: Result, timing: bool) -> list[str]:
    cells = []
    if timing:
        cells += [_fmt(r.ms, ".4f"), _fmt(r.gbps, ".0f"), _fmt(r.pct_of_copy, ".1f"), _fmt(r.speedup_vs_torch, ".2f")]
    return cells + [_fmt(r.max_rel_err, ".2g"), _mark(r)]


def _metric_names(timing: bool) -> list[str]:
    return (["ms", "GB/s", "% copy", "x torch"] if timing else []) + ["rel err", "ok"]


def _groups(results: list[Result]) -> dict[tuple, list[Result]]:
    groups: dict[tuple, list[Result]] = {}
    for r in results:
        groups.setdefault((r.op, r.pass_, r.dtype), []).append(r)
    return groups


def _title(key: tuple, markdown: bool) -> str:
    op, pass_, dtype = key
    return f"\n{'### ' if markdown else ''}{op} {pass_} {dtype}\n"


def wide_tables(results: list[Result], timing: bool, markdown: bool) -> list[str]:
    from tabulate import tabulate

    out = []
    for key, subset in _groups(results).items():
        impls = list(dict.fromkeys((r.backend, r.variant) for r in subset))
        shapes = list(dict.fromkeys((r.rows, r.cols) for r in subset))
        by_key = {(r.rows, r.cols, r.backend, r.variant): r for r in subset}
        headers = ["rows", "cols"]
        for b, v in impls:
            names = _metric_names(timing)
            headers += [f"{b}/{v} {names[0]}", *names[1:]]
        body = []
        for rows, cols in shapes:
            line = [rows, cols]
            for b, v in impls:
                r = by_key.get((rows, cols, b, v))
                line += _metrics(r, timing) if r else [""] * len(_metric_names(timing))
            body.append(line)
        out.append(_title(key, markdown))
        out.append(tabulate(body, headers=headers, tablefmt="github" if markdown else "simple",
                            disable_numparse=True))
    return out


def long_tables(results: list[Result], timing: bool, markdown: bool) -> list[str]:
    from tabulate import tabulate

    out = []
    for key, subset in _groups(results).items():
        headers = ["backend/variant", "rows", "cols", *_metric_names(timing)]
        body = [[f"{r.backend}/{r.variant}", r.rows, r.cols, *_metrics(r, timing)] for r in subset]
        out.append(_title(key, markdown))
        out.append(tabulate(body, headers=headers, tablefmt="github" if markdown else "simple",
                            disable_numparse=True))
    return out


def choose_layout(layout: str, results: list[Result], timing: bool, markdown: bool, width: int) -> str:
    """`wide` unless a wide table would be wider than `width` characters (then `long`)."""
    if layout != "auto":
        return layout
    tables = wide_tables(results, timing, markdown)
    widest = max((len(line) for t in tables for line in t.splitlines()), default=0)
    return "wide" if widest <= width else "long"


def output_width(to_terminal: bool) -> int:
    return shutil.get_terminal_size((FILE_WIDTH, 40)).columns if to_terminal else FILE_WIDTH


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def summary_lines(report: Report) -> list[str]:
    results = report.results
    agree = sum(r.ok is True for r in results)
    lines = [f"{agree} agree, {len(report.own_failures())} fail, {_plural(len(report.peer_findings()), 'peer finding')}, "
             f"{sum(r.ok is None for r in results)} not run"]
    peers = sorted({r.backend for r in report.peer_findings()})
    if peers:
        lines.append(f"peers that disagree or fail (findings, not this package's failures): {', '.join(peers)}")
    if not report.checked():
        lines.append("nothing was checked: no selected backend could run here (see above)")
    return lines


def to_dict(report: Report) -> dict:
    """Everything the report holds, as the JSON format writes it (and `plot` reads it)."""
    return {"device": describe_device(report.device), **versions(), "date": report.date,
            "command": report.command, "copy_gbps": report.copy_gbps, "timing": report.timing,
            "unavailable": dict(report.unavailable), "notes": report.notes,
            "summary": summary_lines(report), **report.extra,
            "results": [r.to_dict() for r in report.results]}


def render(report: Report, fmt: str, layout: str = "auto", width: int = FILE_WIDTH) -> str:
    if fmt == "json":
        return json.dumps(to_dict(report), indent=2) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=Result.fields())
        writer.writeheader()
        for r in report.results:
            writer.writerow(r.to_dict())
        return buf.getvalue()
    markdown = fmt == "markdown"
    prefix = "    " if markdown else ""
    text = "\n".join(prefix + line for line in header_lines(report)) + "\n"
    for name, why in report.unavailable:
        text += f"{prefix}backend {name} unavailable: {why}\n"
    for note in report.notes:
        text += f"{prefix}note: {note}\n"
    chosen = choose_layout(layout, report.results, report.timing, markdown, width)
    tables = wide_tables if chosen == "wide" else long_tables
    text += "\n".join(tables(report.results, report.timing, markdown)) + "\n"
    skipped = sorted({(r.backend, r.variant, r.note) for r in report.results if r.note.startswith("skipped")})
    if skipped:
        text += "\nnot run:\n" + "".join(f"  {b}/{v} {note}\n" for b, v, note in skipped)
    if report.details:
        text += "\nfailures and findings:\n" + "".join(
            f"  {op} {p} {d} {rows}x{c} {b}/{v}: {msg}\n" for (op, p, d, rows, c, b, v), msg in report.details.items())
    return text + "\n" + "\n".join(summary_lines(report)) + "\n"
