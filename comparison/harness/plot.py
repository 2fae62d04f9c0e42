"""Figures of a report: % of the copy ceiling against row width, one panel per (op, dtype,
pass), one line per backend/variant (this package's kernels solid, peers dashed).

    python -m comparison plot results.json -o fig.png     # from a saved --format json report
    python -m comparison --cols ... --plot fig.png         # at the end of a sweep

A run without timings (on the CPU, or --check-only) has no milliseconds to draw: its
figure shows each implementation's maximum relative error against float64 instead, and
says so in its title, so it is never mistaken for a benchmark. Needs matplotlib
(``pip install -e ".[plot]"``); it draws through matplotlib's object API (no pyplot, no
display).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

PANEL_INCHES = (5.6, 3.9)
MAX_PANEL_COLUMNS = 3
ERROR_FLOOR = 1e-12        # exact results (relative error 0) drawn here on the log axis


def matplotlib_missing() -> str | None:
    """None when matplotlib can be imported, else what to do about it."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return "plots need matplotlib, which is not installed: pip install -e \".[plot]\" (or pip install matplotlib)"
    return None


def _width_label(cols: int) -> str:
    if cols >= 1 << 20 and cols % (1 << 20) == 0:
        return f"{cols >> 20}M"
    if cols >= 1 << 10 and cols % (1 << 10) == 0:
        return f"{cols >> 10}K"
    return str(cols)


def _panels(results: list[dict]) -> dict[tuple, list[dict]]:
    panels: dict[tuple, list[dict]] = {}
    for r in results:
        panels.setdefault((r["op"], r["dtype"], r["pass"]), []).append(r)
    return panels


def _lines(subset: list[dict]) -> dict[str, list[dict]]:
    """Results of a panel by line: backend/variant, and the row count when a sweep took
    several (so that one line never mixes two input heights)."""
    several_rows = len({r["rows"] for r in subset}) > len({r["cols"] for r in subset})
    lines: dict[str, list[dict]] = {}
    for r in subset:
        label = f"{r['backend']}/{r['variant']}" + (f" ({r['rows']} rows)" if several_rows else "")
        lines.setdefault(label, []).append(r)
    return lines


def _title(doc: dict, timed: bool) -> str:
    device = doc.get("device", "unknown device")
    date = str(doc.get("date", ""))[:10]
    first = f"{device}, {date}"
    versions = f"torch {doc.get('torch')}, Triton {doc.get('triton')}, CUDA {doc.get('cuda')}"
    if timed:
        copy = doc.get("copy_gbps")
        ceiling = f"; copy ceiling {copy:.0f} GB/s" if copy else ""
        return f"{first}\n{versions}{ceiling}: bandwidth as % of a device-to-device copy"
    return (f"{first}\n{versions}\nno GPU timings in this run (agreement checks only"
            f"{', on the CPU' if str(device).startswith('CPU') else ''}): max relative error against float64")


def plot_results(doc: dict, path: str | Path) -> Path:
    """Draw the report `doc` (the JSON format's fields) into the PNG `path`."""
    from matplotlib.figure import Figure

    results = doc.get("results") or []
    timed = bool(doc.get("timing")) and any(r.get("pct_of_copy") is not None for r in results)
    metric = "pct_of_copy" if timed else "max_rel_err"
    panels = _panels(results)
    if not panels:
        raise ValueError("the report holds no results to plot")
    columns = min(MAX_PANEL_COLUMNS, len(panels))
    rows = math.ceil(len(panels) / columns)
    fig = Figure(figsize=(PANEL_INCHES[0] * columns, PANEL_INCHES[1] * rows + 0.9), layout="constrained")
    axes = fig.subplots(rows, columns, squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    for ax, ((op, dtype, pass_), subset) in zip(axes.flat, panels.items()):
        widths = sorted({r["cols"] for r in subset})
        lines = _lines(subset)
        if len(lines) > 10:  # past the default cycle's 10 colours (a ladder of variants)
            from matplotlib import colormaps

            ax.set_prop_cycle(color=[colormaps["tab20"](i % 20) for i in range(len(lines))])
        for label, line in lines.items():
            points = sorted(((r["cols"], r[metric], r) for r in line if r.get(metric) is not None),
                            key=lambda p: p[0])
            if not points:
                continue  # not run at any width (unsupported): nothing to draw
            own = points[0][2].get("own", False)
            xs = [c for c, _, _ in points]
            ys = [max(v, ERROR_FLOOR) if not timed else v for _, v, _ in points]
            disagrees = any(r.get("ok") is False for _, _, r in points)
            ax.plot(xs, ys, marker="o" if own else "s", markersize=3.5, linewidth=1.4 if own else 1.1,
                    linestyle="-" if own else "--", label=label + (" (fails the check)" if disagrees else ""))
        ax.set_xscale("log", base=2)
        ax.set_xticks(widths, [_width_label(c) for c in widths], fontsize=7, rotation=45 if len(widths) > 8 else 0)
        ax.minorticks_off()
        ax.set_xlabel("row width (columns)", fontsize=8)
        if timed:
            ax.axhline(100, color="0.6", linewidth=0.8, linestyle=":")
            ax.set_ylabel("% of copy bandwidth", fontsize=8)
            ax.set_ylim(bottom=0)
        else:
            ax.set_yscale("log")
            ax.set_ylabel(f"max relative error (0 drawn at {ERROR_FLOOR:g})", fontsize=8)
        ax.set_title(f"{op} {pass_} {dtype}", fontsize=9)
        ax.tick_params(axis="y", labelsize=7)
        ax.grid(True, linewidth=0.3, alpha=0.6)
        ax.legend(fontsize=6.5, loc="best")
    fig.suptitle(_title(doc, timed), fontsize=9.5)
    path = Path(path)
    fig.savefig(path, dpi=110)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m comparison plot",
        description="Draw a saved JSON report (python -m comparison ... --format json --output R.json): "
                    "% of copy bandwidth against row width, a panel per (op, dtype, pass); without "
                    "timings (CPU runs), the maximum relative error against float64 instead.")
    parser.add_argument("results", help="a report written with --format json")
    parser.add_argument("-o", "--output", required=True, metavar="FIG.png", help="the PNG to write")
    args = parser.parse_args(argv)
    from .cli import check_output

    check_output(parser, args.output)
    why = matplotlib_missing()
    if why:
        parser.error(why)
    try:
        doc = json.loads(Path(args.results).read_text())
    except OSError as exc:
        parser.error(f"cannot read {args.results}: {exc.strerror or exc}")
    except json.JSONDecodeError as exc:
        parser.error(f"{args.results} is not a JSON report (--format json): {exc}")
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), list):
        parser.error(f"{args.results} is not a JSON report of python -m comparison (no 'results' list)")
    try:
        plot_results(doc, args.output)
    except ValueError as exc:
        parser.error(f"{args.results}: {exc}")
    print(f"wrote {args.output}", file=sys.stderr)
    return 0
