"""`python -m comparison record`: regenerate a GPU's benchmark record in benchmarks/<gpu>/.

A record is a set of named sweeps, each one `python -m comparison` command (`SWEEPS`),
run in this process through the CLI's own code (`cli.plan`, `cli.execute`, `report`).
At the end of each sweep its three files are written,

    <sweep>.md     the markdown report: device, versions, date and command in its header,
                   then a table per (op, pass, dtype)
    <sweep>.json   every field of every result (`python -m comparison plot` reads it)
    <sweep>.png    % of the copy ceiling against width (needs matplotlib)

and the folder's README.md is rewritten to index every sweep recorded there, so a record
can be made in several calls (`--sweeps forward`, then `--sweeps backward,step`, ...);
`--index FOLDER` rewrites that README alone, after files of several machines' calls were
gathered in one folder.
`--dtype` / `--op` narrow a sweep further (to keep one call short); the files of a
narrowed sweep carry the narrowing in their name (`forward-fp32.md`).

The folder is named after the GPU: "NVIDIA H100 80GB HBM3" -> h100, "NVIDIA H200" -> h200.
Records time kernels, so they need a CUDA GPU; `--allow-cpu` writes an agreement-only
record (small inputs, no timings, folder `cpu`) to try the command on a machine without one.
"""
from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import torch

from . import report as reporting
from .cli import DTYPES, build_parser, comma_items, execute, plan, user_ops
from .plot import matplotlib_missing, plot_results

WIDTHS = "128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144"
LADDER_WIDTHS = "128,512,1024,2048,4096,8192,16384,32768,65536"
ALL_DTYPES = "fp32,bf16,fp16"
# The vocabulary sizes of well-known language models: the widths a softmax over logits has.
VOCAB_WIDTHS = "32000,50257,128256,151936,256000"
ONE_GIB = ("--min-bytes", "1GiB")


@dataclass(frozen=True)
class Sweep:
    what: str
    argv: tuple[str, ...]     # the `python -m comparison` arguments


SWEEPS: dict[str, Sweep] = {
    "forward": Sweep(
        "softmax and log-softmax, `auto` of every available backend (peers included), 1 GiB inputs",
        ("--cols", WIDTHS, "--dtype", ALL_DTYPES, "--op", "softmax,log_softmax", *ONE_GIB)),
    "forward_wide": Sweep(
        "the forward sweep's ops at 524288 and 1048576 columns",
        ("--cols", "524288,1048576", "--dtype", ALL_DTYPES, "--op", "softmax,log_softmax", *ONE_GIB)),
    "backward": Sweep(
        "the backward ops alone (read y and dy, write dx), `auto` of every available backend, 1 GiB inputs",
        ("--cols", WIDTHS, "--dtype", ALL_DTYPES, "--op", "softmax,log_softmax", "--pass", "bwd", *ONE_GIB)),
    "backward_wide": Sweep(
        "the backward sweep's ops at 524288 and 1048576 columns",
        ("--cols", "524288,1048576", "--dtype", ALL_DTYPES, "--op", "softmax,log_softmax", "--pass", "bwd",
         *ONE_GIB)),
    "step": Sweep(
        "a training step through autograd (forward and backward kernels), `auto` of every available "
        "backend, 1 GiB inputs",
        ("--cols", WIDTHS, "--dtype", ALL_DTYPES, "--op", "softmax,log_softmax", "--pass", "fwd+bwd", *ONE_GIB)),
    "ladder": Sweep(
        "every softmax variant of this package's cuda and triton kernels, 1 GiB inputs",
        ("--cols", LADDER_WIDTHS, "--dtype", "fp32,bf16", "--op", "softmax", "--backends", "cuda,triton",
         "--variants", "all", *ONE_GIB)),
    "reductions": Sweep(
        "row sums and maxima, every variant of every available backend, 1 GiB inputs",
        ("--cols", LADDER_WIDTHS, "--dtype", ALL_DTYPES, "--op", "reduce_sum,reduce_max", "--variants", "all",
         *ONE_GIB)),
    "few_rows": Sweep(
        "the cost of a call on few wide rows (1, 4, 16, 64 rows x 32768-1048576): us per call in a CUDA "
        "graph, do_bench and an eager loop, kernel launches, beside torch, Quack and an empty kernel",
        ("--latency", "--cols", "32768,65536,131072,262144,524288,1048576", "--rows", "1,4,16,64",
         "--dtype", "fp32,bf16", "--op", "softmax,log_softmax")),
    "vocab": Sweep(
        "softmax and log-softmax, forward and backward, at real models' vocabulary widths (Llama 2 32000, "
        "GPT-2 50257: odd, so most rows are not 16-byte aligned, Llama 3 128256, Qwen 151936, Gemma 256000), `auto` of "
        "every available backend, 1 GiB inputs",
        ("--cols", VOCAB_WIDTHS, "--dtype", "fp32,bf16", "--op", "softmax,log_softmax", "--pass", "fwd,bwd",
         *ONE_GIB)),
    "default": Sweep(
        "the README's command as it is (fp32 and bf16, softmax and log-softmax, inputs 4x the L2 cache)",
        ("--cols", "512,2048,8192")),
}


def device_slug(name: str) -> str:
    """A folder name for a GPU: its model, lower case ("NVIDIA H100 80GB HBM3" -> h100,
    "NVIDIA GeForce RTX 4090" -> rtx4090)."""
    words = [w for w in re.split(r"[\s_-]+", name.lower()) if w and w not in ("nvidia", "geforce", "tesla", "quadro")]
    kept = []
    for word in words:
        kept.append(re.sub(r"[^a-z0-9.]", "", word))
        if any(ch.isdigit() for ch in word):
            break  # the model number ends the name: memory size, form factor and the like follow
    return "".join(kept) or "gpu"


def _option(argv: tuple[str, ...], name: str) -> str | None:
    return argv[argv.index(name) + 1] if name in argv else None


def _with_option(argv: tuple[str, ...], name: str, value: str) -> tuple[str, ...]:
    if name in argv:
        i = argv.index(name)
        return (*argv[:i + 1], value, *argv[i + 2:])
    return (*argv, name, value)


def narrowed(name: str, sweep: Sweep, dtypes: list[str] | None, ops: list[str] | None,
             cols: list[str] | None = None) -> tuple[tuple[str, ...], str]:
    """The sweep's arguments with --dtype/--op/--cols narrowed to the requested ones, and the
    file stem (the sweep's name, plus what was narrowed). ValueError when nothing is left."""
    argv, stem = sweep.argv, name
    for option, wanted, default in (("--op", ops, "softmax,log_softmax"), ("--dtype", dtypes, "fp32,bf16"),
                                    ("--cols", cols, "")):
        if wanted is None:
            continue
        own = comma_items(_option(argv, option) or default)
        kept = [v for v in own if v in wanted]
        if not kept:
            raise ValueError(f"sweep {name!r} runs {option} {','.join(own)}: none of {','.join(wanted)}")
        if kept != own:
            argv = _with_option(argv, option, ",".join(kept))
            stem += "-" + ("-".join(kept) if option != "--cols" else f"cols{kept[0]}-{kept[-1]}")
    return argv, stem


def build_record_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m comparison record",
        description="Regenerate this GPU's record: run named sweeps and write, per sweep, its markdown "
                    "tables, JSON and plot into OUT/<gpu>/ (e.g. benchmarks/h100/), with a README.md "
                    "indexing every sweep recorded there.",
        epilog="Sweeps: " + "; ".join(f"{n}: {s.what}" for n, s in SWEEPS.items()) + ". Exit status: 0 "
               "when this package's kernels agree in every sweep, 1 when one fails, 2 for bad arguments.")
    p.add_argument("--sweeps", default=",".join(SWEEPS),
                   help=f"comma-separated sweep names (default: all, in this order: {','.join(SWEEPS)})")
    p.add_argument("--out", default="benchmarks", help="the folder that holds one folder per GPU (default: benchmarks)")
    p.add_argument("--device", default=None, help="e.g. cuda:1 (default: the current CUDA device)")
    p.add_argument("--dtype", default=None,
                   help="run only these of each sweep's dtypes (e.g. fp32), to split a long sweep over calls")
    p.add_argument("--op", default=None, help="run only these of each sweep's ops (e.g. softmax)")
    p.add_argument("--cols", default=None,
                   help="run only these of each sweep's widths (e.g. 128,2048,65536), to fit a call's time")
    p.add_argument("--list", action="store_true", help="print the sweeps and their commands, run nothing")
    p.add_argument("--index", metavar="FOLDER", default=None,
                   help="only rewrite FOLDER/README.md from the sweeps' JSON files there (e.g. after copying the "
                        "files of several device calls into benchmarks/h100/); runs nothing, needs no GPU")
    p.add_argument("--allow-cpu", action="store_true",
                   help="without a GPU, write an agreement-only record (small inputs, no timings) into OUT/cpu/ "
                        "to try the command; never a benchmark")
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    return p


def _list_text() -> str:
    return "".join(f"{name}: {s.what}\n    python -m comparison {shlex.join(s.argv)}\n" for name, s in SWEEPS.items())


def main(argv: list[str] | None = None) -> int:
    parser = build_record_parser()
    args = parser.parse_args(argv)
    if args.list:
        sys.stdout.write(_list_text())
        return 0
    if args.index is not None:
        folder = Path(args.index)
        if not folder.is_dir():
            parser.error(f"--index {args.index}: not a folder")
        if not _records(folder):
            parser.error(f"--index {args.index}: no JSON file written by `python -m comparison record` there")
        print(f"wrote {write_index(folder)}", file=sys.stderr)
        return 0
    names = comma_items(args.sweeps)
    unknown = [n for n in names if n not in SWEEPS]
    if unknown:
        parser.error(f"--sweeps: unknown sweep(s) {', '.join(unknown)}; valid: {', '.join(SWEEPS)}")
    dtypes = None if args.dtype is None else comma_items(args.dtype)
    ops = None if args.op is None else comma_items(args.op)
    for option, values, valid in (("--dtype", dtypes, tuple(DTYPES)), ("--op", ops, user_ops())):
        bad = [v for v in values or [] if v not in valid]
        if bad:
            parser.error(f"{option}: invalid choice(s) {', '.join(bad)}; choose from {', '.join(valid)}")
    try:
        cols = None if args.cols is None else comma_items(args.cols)
        runs = [(name, *narrowed(name, SWEEPS[name], dtypes, ops, cols)) for name in names]
    except ValueError as exc:
        parser.error(str(exc))
    out = Path(args.out)
    if not out.is_dir():
        parser.error(f"--out {args.out}: not a folder")
    gpu = torch.cuda.is_available() if args.device is None else args.device.startswith("cuda")
    if not gpu and not args.allow_cpu:
        parser.error("a record times kernels on a CUDA GPU and none is in use here; --allow-cpu writes an "
                     "agreement-only record (no timings) to try the command, and `python -m comparison "
                     "--check-only` checks agreement")

    statuses = []
    for name, sweep_argv, stem in runs:
        statuses.append(record_sweep(name, sweep_argv, stem, args, out))
    if 1 in statuses:
        return 1
    return 3 if all(s == 3 for s in statuses) else 0


def record_sweep(name: str, sweep_argv: tuple[str, ...], stem: str, args, out: Path) -> int:
    """Run one sweep and write its files and the folder's README.md; the CLI's exit status."""
    cli_argv = [*sweep_argv, *(["--device", args.device] if args.device else []), *(["--quiet"] if args.quiet else [])]
    parser = build_parser()
    p = plan(parser, parser.parse_args(cli_argv))
    if p.device.type == "cuda":
        folder = out / device_slug(torch.cuda.get_device_name(p.device))
    else:
        folder = out / "cpu"
    folder.mkdir(exist_ok=True)
    narrow = "".join(f" --{k} {v}" for k, v in (("dtype", args.dtype), ("op", args.op), ("cols", args.cols)) if v)
    record_command = f"python -m comparison record --sweeps {name}{narrow}" + (" --allow-cpu" if p.device.type != "cuda" else "")
    print(f"record {name}: python -m comparison {shlex.join(sweep_argv)}", file=sys.stderr)
    start = time.monotonic()
    device_argv = ("--device", args.device) if args.device else ()
    command = "python -m comparison " + shlex.join((*sweep_argv, *device_argv))
    if p.args.latency and p.device.type != "cuda":
        print(f"record {name}: skipped, it times calls on a CUDA GPU and none is in use here", file=sys.stderr)
        return 3
    if p.args.latency:
        return record_latency(name, stem, parser, p, command, record_command, narrow, folder)
    rep = execute(p, command, desc=f"record {name}")
    seconds = time.monotonic() - start
    rep.notes.append(f"recorded by `{record_command}` into {folder}/ ({seconds:.0f} s)")
    files = {"tables": f"{stem}.md", "json": f"{stem}.json"}
    why_no_plot = matplotlib_missing()
    if why_no_plot is None:
        files["plot"] = f"{stem}.png"
    else:
        rep.notes.append(f"no plot: {why_no_plot}")
    what = SWEEPS[name].what + (f" (this file:{narrow})" if narrow else "")
    rep.extra["record"] = {"sweep": name, "stem": stem, "what": what, "command": record_command,
                           "seconds": round(seconds, 1), "files": files}
    (folder / files["tables"]).write_text(reporting.render(rep, "markdown", "auto", reporting.FILE_WIDTH))
    doc = reporting.to_dict(rep)
    (folder / files["json"]).write_text(json.dumps(doc, indent=2) + "\n")
    if "plot" in files:
        plot_results(doc, folder / files["plot"])
    write_index(folder)
    print(f"record {name}: {'; '.join(reporting.summary_lines(rep))} ({seconds:.0f} s) -> "
          + ", ".join(str(folder / f) for f in files.values()), file=sys.stderr)
    return rep.exit_status()


def record_latency(name: str, stem: str, parser, p, command: str, record_command: str, narrow: str,
                   folder: Path) -> int:
    """A `--latency` sweep: its tables (.md) and every field (.json); no plot (latency is
    not drawn against width)."""
    from . import latency
    from .cli import latency_status, measure_latency

    start = time.monotonic()
    results, floor, header, extra = measure_latency(parser, p, command, desc=f"record {name}")
    seconds = time.monotonic() - start
    header.append(f"recorded by `{record_command}` into {folder}/ ({seconds:.0f} s)")
    files = {"tables": f"{stem}.md", "json": f"{stem}.json"}
    what = SWEEPS[name].what + (f" (this file:{narrow})" if narrow else "")
    extra["record"] = {"sweep": name, "stem": stem, "what": what, "command": record_command,
                       "seconds": round(seconds, 1), "files": files}
    (folder / files["tables"]).write_text(latency.render(results, floor, "markdown", header))
    (folder / files["json"]).write_text(latency.render(results, floor, "json", header, extra))
    write_index(folder)
    print(f"record {name}: {'; '.join(latency.summary_lines(results, floor))} ({seconds:.0f} s) -> "
          + ", ".join(str(folder / f) for f in files.values()), file=sys.stderr)
    return latency_status(results)


def _records(folder: Path) -> list[dict]:
    docs = []
    for path in folder.glob("*.json"):
        try:
            doc = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError):
            continue
        if isinstance(doc, dict) and isinstance(doc.get("record"), dict):
            docs.append(doc)
    order = list(SWEEPS)
    docs.sort(key=lambda d: (order.index(d["record"]["sweep"]) if d["record"]["sweep"] in order else len(order),
                             d["record"]["stem"]))
    return docs


def write_index(folder: Path) -> Path:
    """Rewrite folder/README.md from the records' JSON files found there."""
    docs = _records(folder)
    device = docs[0]["device"].split(" (")[0] if docs else folder.name
    lines = [f"# {device}: benchmark record", "",
             "Made by `python -m comparison record` (sweeps defined in `comparison/harness/record.py`; "
             "`python -m comparison record --list` prints them). Each sweep wrote its tables (`.md`: ms, "
             "GB/s, % of the device-to-device copy measured in the same run, speedup over torch, max "
             "relative error against float64, agreement), every field (`.json`) and a plot (`.png`). "
             "Re-run one with the record command of its row; the tables' header holds the exact "
             "`python -m comparison` command it ran.", "",
             "| sweep | what | date | copy ceiling | results | files | record command |",
             "|---|---|---|---|---|---|---|"]
    for d in docs:
        rec = d["record"]
        if d.get("copy_gbps"):
            copy = f"{d['copy_gbps']:.0f} GB/s"
        elif isinstance(d.get("floor"), dict) and d["floor"].get("graph_us"):
            copy = f"latency; empty kernel {d['floor']['graph_us']:.1f} us (graph)"
        else:
            copy = "no timings"
        files = ", ".join(f"[{kind}]({name})" for kind, name in rec["files"].items())
        results = "; ".join(d.get("summary", [])[:None if "floor" in d else 1])
        lines.append(f"| `{rec['stem']}` | {rec['what']} | {str(d.get('date', ''))[:16]} | {copy} | {results} "
                     f"| {files} | `{rec['command']}` |")
    lines += ["", "## Environment", ""]
    for d in docs:
        unavailable = "; ".join(f"{k}: {v}" for k, v in d.get("unavailable", {}).items())
        lines.append(f"- `{d['record']['stem']}`: {d['device']}; torch {d.get('torch')} (CUDA {d.get('cuda')}), "
                     f"Triton {d.get('triton')}, Python {d.get('python')}"
                     + (f"; not available: {unavailable}" if unavailable else ""))
    lines += ["", "## Commands", ""]
    for d in docs:
        lines.append(f"- `{d['record']['stem']}`: `{d['command']}`")
    plots = [d for d in docs if "plot" in d["record"]["files"]]
    if plots:
        lines += ["", "## Plots", ""]
        for d in plots:
            lines += [f"### {d['record']['stem']}", "", f"![{d['record']['stem']}]({d['record']['files']['plot']})", ""]
    path = folder / "README.md"
    path.write_text("\n".join(lines).rstrip() + "\n")
    return path
