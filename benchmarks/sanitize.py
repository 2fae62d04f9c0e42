#!/usr/bin/env python3
"""compute-sanitizer over every CUDA kernel variant, and memcheck over the Triton kernels.

    python benchmarks/sanitize.py --out $OUT/sanitize.log     # all four tools, GPU: a few minutes
    python benchmarks/sanitize.py --list                      # the cases (no GPU needed)
    python benchmarks/sanitize.py --tools memcheck --ops softmax,log_softmax

What runs: every variant ("auto" included) of every op the `cuda` backend lists
(`get_backend("cuda").variants(op)` for op in `comparison.OPS`: backward variants are
covered as they appear), in fp32, fp16 and bf16, on the awkward shapes SHAPES, plus the
rows of MISALIGNED as views offset by one element (row stride cols + 1), plus (for
reductions) each shape flattened into one whole-tensor reduction; under memcheck,
racecheck, synccheck and initcheck. The `triton` variants run the same cases under
memcheck.

How: a plain (unsanitized) python process first builds the CUDA extension and compiles
the Triton kernels, runs every case once, checks every result against float64 and counts
the kernel launches of the op calls with torch.profiler. Then one python worker per tool,
wrapped by ``compute-sanitizer --tool TOOL --error-exitcode 1``, loops over all cases:
tools run concurrently (--jobs), each worker prints one line per case so an error report
sits under the case that caused it. Inputs are filled completely and outputs are
NaN-filled before the kernels write them (initcheck flags reads of memory nothing wrote:
no read of an input or output may count as one), and torch's caching allocator is off in
the workers (PYTORCH_NO_CUDA_MEMORY_CACHING=1) so every tensor is its own allocation:
memcheck sees an access past a tensor even where the allocator would have had the bytes.
racecheck runs with its default report mode (--racecheck-report analysis).

Prints per tool: cases run, kernel launches checked, errors found and compute-sanitizer's
summary line; the full output goes to --out. Exit status 0 when every result of the
plain run agreed with float64 and every tool ran every case without an error (or when
there is no GPU / no compute-sanitizer: it says why and skips), 1 otherwise.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run from a checkout without installing it
    sys.path.insert(0, str(REPO))

TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")
TRITON_TOOLS = ("memcheck",)
SHAPES = [
    (1, 262144),   # one wide row: cluster paths, split over many programs
    (37, 1128),    # a multiple of 8, not 16: narrower packs; several rows per block
    (3, 70000),    # past one CTA's registers and block_smem (fp32): clusters, uneven slices
    (5, 7),        # narrower than any pack: padded lanes everywhere
    (2, 1),        # one column: empty lanes and CTAs
    (129, 4097),   # odd: scalar packs, naive's first refused width, tails
    (4, 131075),   # odd 2^17 + 3: scalar packs across cluster CTAs
]
MISALIGNED = [(37, 1128), (4, 131075)]  # also viewed one element in (row stride cols + 1: odd for 1128)
DTYPES = ("fp32", "fp16", "bf16")
WORKER_DONE = "sanitize-worker: done"


@dataclass(frozen=True)
class Case:
    backend: str
    op: str
    variant: str
    dtype: str
    rows: int
    cols: int
    layout: str  # "rows" | "misaligned" | "whole"

    @property
    def id(self) -> str:
        return f"{self.backend} {self.op} {self.variant} {self.dtype} {self.rows}x{self.cols} {self.layout}"


def _variants(backend: str, op: str) -> list[str]:
    from comparison import get_backend

    return get_backend(backend).variants(op)


def make_cases(backends, tools_of, ops=None, dtypes=DTYPES, log=print, shapes=None,
               variants=None) -> dict[str, list[Case]]:
    """backend -> its cases (only `variants`, where given); a backend whose variant table
    cannot be read is left out (logged)."""
    import comparison

    shapes = shapes or SHAPES
    misaligned = [s for s in MISALIGNED if s in shapes]
    out = {}
    for backend in backends:
        if not tools_of(backend):
            continue
        cases = []
        try:
            for op in ops or comparison.OPS:
                for variant in _variants(backend, op):
                    if variants and variant not in variants:
                        continue
                    for dtype in dtypes:
                        for rows, cols in shapes:
                            cases.append(Case(backend, op, variant, dtype, rows, cols, "rows"))
                        for rows, cols in misaligned:
                            cases.append(Case(backend, op, variant, dtype, rows, cols, "misaligned"))
                        if op.startswith("reduce_"):
                            for rows, cols in shapes:
                                cases.append(Case(backend, op, variant, dtype, rows, cols, "whole"))
        except Exception as exc:  # e.g. Triton not installed: its op modules do not import
            log(f"{backend}: its variants cannot be listed ({type(exc).__name__}: {exc}); left out")
            continue
        out[backend] = cases
    return out


# -- the worker: inputs, outputs, one op call per case ------------------------------------------

def _dtype(name):
    import torch

    return {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[name]


def prepare(case: Case, device: str = "cuda"):
    """(canonical input, dy or None, NaN-filled output): every byte of every input written."""
    import torch

    from comparison.inputs import make_gradient, make_rows

    dtype, seed = _dtype(case.dtype), case.rows * 7919 + case.cols
    extra = 1 if case.layout == "misaligned" else 0

    def layout(base):
        return base[:, 1:] if extra else (base.reshape(-1) if case.layout == "whole" else base)

    base = make_rows(case.rows, case.cols + extra, dtype, device, seed=seed)
    x = layout(base)
    dy = None
    if case.op.endswith("_backward"):
        fn = torch.softmax if case.op == "softmax_backward" else torch.log_softmax
        y_base = torch.zeros_like(base)
        y_base[:, extra:] = fn(base[:, extra:].float(), -1).to(dtype)
        x, dy = layout(y_base), layout(make_gradient(case.rows, case.cols + extra, dtype, device, seed=seed))
    if case.op.startswith("reduce_"):
        shape = () if case.layout == "whole" else (case.rows,)
    else:
        shape = tuple(x.shape)
    out = torch.full(shape, math.nan, dtype=dtype, device=device)
    return x, dy, out


def _launches(prof) -> int:
    """Kernels the profiled region ran on the GPU (memory copies and sets left out)."""
    from torch.autograd import DeviceType

    return sum(1 for e in prof.events() if e.device_type == DeviceType.CUDA
               and not e.name.startswith(("Memcpy", "Memset", "memcpy", "memset")))


def run_worker(args) -> int:
    """Run every case (in groups of one backend and op: inputs made first, then the op
    calls); with --check, check the results and count launches (the plain run)."""
    import torch

    from comparison import get_backend
    from comparison.agreement import check

    if args.build:
        for name in args.backends:
            if name == "cuda":
                from kernels_cuda.build import extension

                t0 = time.monotonic()
                extension()
                print(f"built the CUDA extension in {time.monotonic() - t0:.0f} s", flush=True)
    groups = make_cases(args.backends, lambda b: _tools_for(b, args.tools, args.tool), args.ops, args.dtypes,
                        shapes=args.shapes, variants=args.variants)
    total = sum(len(c) for c in groups.values())
    on_gpu = args.device.startswith("cuda")

    def sync():
        if on_gpu:
            torch.cuda.synchronize()

    done = declined = bad = 0
    launches = {}
    i = 0
    for name, cases in groups.items():
        backend = get_backend(name)
        by_op = {}
        for case in cases:
            by_op.setdefault(case.op, []).append(case)
        for op, op_cases in by_op.items():
            work = []
            for case in op_cases:
                x, dy, out = prepare(case, args.device)
                support = backend.supports_canonical(x, case.op, case.variant)
                work.append((case, x, dy, out, support))
            sync()
            prof = _profiler() if args.check and on_gpu else None
            if prof is not None:
                prof.__enter__()
            try:
                for case, x, dy, out, support in work:
                    i += 1
                    if not support:
                        declined += 1
                        print(f"[{i}/{total}] {case.id}: declined: {support.reason}", flush=True)
                        continue
                    try:
                        backend.run_into(x, case.op, case.variant, out, dy=dy)
                        sync()
                    except Exception as exc:  # a launch error: the context may be lost, stop here
                        print(f"[{i}/{total}] {case.id}: RAISED {type(exc).__name__}: {exc}", flush=True)
                        print(f"{WORKER_DONE}: {done} ran, {declined} declined, stopped at a raised case", flush=True)
                        return 2
                    done += 1
                    print(f"[{i}/{total}] {case.id}: ran", flush=True)
            finally:
                if prof is not None:
                    prof.__exit__(None, None, None)
            if prof is not None:
                launches[name] = launches.get(name, 0) + _launches(prof)
            if args.check:
                for case, x, dy, out, support in work:
                    if support:
                        result = check(case.op, x, out, dy=dy)
                        if not result.ok:
                            bad += 1
                            print(f"DISAGREES: {case.id}: {result.summary()}", flush=True)
            del work
    checked = f", {bad} disagree with float64" if args.check else ""
    print(f"{WORKER_DONE}: {done} ran, {declined} declined{checked}", flush=True)
    if args.check:
        print("launches: " + json.dumps(launches), flush=True)
    return 0


def _profiler():
    try:
        from torch.profiler import ProfilerActivity, profile

        return profile(activities=[ProfilerActivity.CUDA])
    except Exception:  # no kineto in this build: launches are not counted
        return None


def _tools_for(backend: str, tools, tool: str | None) -> tuple[str, ...]:
    """The tools a backend's cases run under (the worker's own tool only, inside a worker)."""
    allowed = TOOLS if backend == "cuda" else TRITON_TOOLS
    chosen = [t for t in tools if t in allowed]
    return tuple(t for t in chosen if tool is None or t == tool)


# -- the driver ------------------------------------------------------------------------------------

def find_sanitizer() -> str | None:
    found = shutil.which("compute-sanitizer")
    if found:
        return found
    homes = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")]
    try:
        from torch.utils.cpp_extension import CUDA_HOME

        homes.append(CUDA_HOME)
    except Exception:
        pass
    homes += sorted(glob.glob("/usr/local/cuda*"), reverse=True)
    for home in filter(None, homes):
        for rel in ("bin/compute-sanitizer", "compute-sanitizer/compute-sanitizer"):
            if Path(home, rel).is_file():
                return str(Path(home, rel))
    for entry in sys.path:  # NVIDIA's pip wheels (nvidia-cuda-sanitizer-api)
        for hit in glob.glob(os.path.join(entry, "nvidia", "*", "compute-sanitizer", "compute-sanitizer")) + \
                glob.glob(os.path.join(entry, "nvidia", "*", "bin", "compute-sanitizer")):
            return hit
    return None


def skip_reason(device: str = "cuda") -> str | None:
    """Why nothing can be sanitized here, or None."""
    try:
        import torch
    except ImportError:
        return "PyTorch is not installed"
    if device.startswith("cuda") and not torch.cuda.is_available():
        return "no CUDA GPU is visible to PyTorch"
    if find_sanitizer() is None:
        return "compute-sanitizer was not found (CUDA toolkit's bin/, CUDA_HOME, or PATH)"
    return None


SUMMARY = re.compile(r"^=+\s+(?:\w+\s+)?(?:ERROR|RACECHECK|LEAK)\s+SUMMARY:.*$", re.M)


def parse_summary(text: str) -> tuple[str, int | None]:
    """(compute-sanitizer's last summary line, the errors it counts) from a tool's output."""
    lines = SUMMARY.findall(text)
    if not lines:
        return "(no summary line: the worker did not finish under the sanitizer)", None
    line = lines[-1].strip()
    m = re.search(r"(\d+)\s+errors?", line)
    return line, int(m.group(1)) if m else None


def worker_counts(text: str) -> str:
    m = re.search(rf"{WORKER_DONE}: (.*)", text)
    return m.group(1).strip() if m else "did not finish"


def _worker_cmd(args, tool: str | None, extra=()) -> list[str]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--backends", ",".join(args.backends),
           "--tools", ",".join(args.tools), "--dtypes", ",".join(args.dtypes)]
    if args.ops:
        cmd += ["--ops", ",".join(args.ops)]
    if args.shapes:
        cmd += ["--shapes", ",".join(f"{r}x{c}" for r, c in args.shapes)]
    if args.variants:
        cmd += ["--variants", ",".join(args.variants)]
    if args.device != "cuda":
        cmd += ["--device", args.device]
    if tool:
        cmd += ["--tool", tool]
    return cmd + list(extra)


def sanitizer_cmd(sanitizer: str, tool: str) -> list[str]:
    # racecheck: its default --racecheck-report (analysis) reports each race once, with the
    # source lines involved; initcheck, synccheck and memcheck need no options beyond the tool.
    return [sanitizer, "--tool", tool, "--error-exitcode", "1", "--print-limit", "200", "--launch-timeout", "300"]


def run_tool(args, sanitizer: str, tool: str) -> dict:
    env = {**os.environ, "PYTORCH_NO_CUDA_MEMORY_CACHING": "1"}
    cmd = sanitizer_cmd(sanitizer, tool) + _worker_cmd(args, tool)
    t0 = time.monotonic()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=args.timeout, cwd=REPO)
        text, rc = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired as exc:
        text = (exc.stdout or b"").decode(errors="replace") + (exc.stderr or b"").decode(errors="replace")
        text += f"\n(timed out after {args.timeout} s)"
        rc = None
    line, errors = parse_summary(text)
    return {"tool": tool, "cmd": " ".join(cmd), "rc": rc, "seconds": time.monotonic() - t0, "output": text,
            "summary": line, "errors": errors, "cases": worker_counts(text)}


def main(argv=None) -> int:
    head, _, rest = __doc__.partition("\n\n")
    p = argparse.ArgumentParser(description=head, epilog=rest,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="sanitize.log", help="the full log (default: ./sanitize.log)")
    p.add_argument("--tools", default=",".join(TOOLS), help=f"comma-separated, of {', '.join(TOOLS)}")
    p.add_argument("--backends", default="cuda,triton", help="cuda (every tool) and/or triton (memcheck)")
    p.add_argument("--ops", default="", help="comma-separated ops (default: every op in comparison.OPS)")
    p.add_argument("--dtypes", default=",".join(DTYPES), help="comma-separated, of fp32, fp16, bf16")
    p.add_argument("--shapes", default="", help="comma-separated ROWSxCOLS instead of the default shapes "
                   "(a quick look; views of MISALIGNED shapes among them are added)")
    p.add_argument("--variants", default="", help="comma-separated variants to check (default: every variant "
                   "of each op)")
    p.add_argument("--jobs", type=int, default=0, help="tools run at once (default: all of them)")
    p.add_argument("--timeout", type=int, default=1800, help="seconds allowed per tool (default 1800)")
    p.add_argument("--list", action="store_true", help="print the cases and exit (no GPU needed)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--tool", default=None, help=argparse.SUPPRESS)
    p.add_argument("--check", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--build", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--device", default="cuda", help=argparse.SUPPRESS)  # cpu: try the worker under Triton's interpreter
    args = p.parse_args(argv)
    args.tools = _names(p, args.tools, TOOLS, "--tools")
    args.backends = _names(p, args.backends, ("cuda", "triton"), "--backends")
    args.dtypes = _names(p, args.dtypes, DTYPES, "--dtypes")
    args.ops = _ops(p, args.ops)
    args.shapes = _shapes(p, args.shapes)
    args.variants = [v.strip() for v in args.variants.split(",") if v.strip()] or None
    if args.worker:
        return run_worker(args)
    if args.list:
        groups = make_cases(args.backends, lambda b: _tools_for(b, args.tools, None), args.ops, args.dtypes,
                            shapes=args.shapes, variants=args.variants)
        for name, cases in groups.items():
            print(f"# {name}: {len(cases)} cases under {', '.join(_tools_for(name, args.tools, None))}")
            for case in cases:
                print(case.id)
        return 0
    return drive(args)


def _names(p, text: str, valid, flag: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    bad = [n for n in names if n not in valid]
    if bad or not names:
        p.error(f"{flag}: {', '.join(bad) or '(none)'} not among {', '.join(valid)}")
    return names


def _shapes(p, text: str) -> list[tuple[int, int]] | None:
    if not text:
        return None
    try:
        shapes = [tuple(int(v) for v in item.lower().split("x")) for item in text.split(",") if item.strip()]
    except ValueError:
        shapes = []
    if not shapes or any(len(s) != 2 or min(s) < 1 for s in shapes):
        p.error(f"--shapes: expected ROWSxCOLS[,ROWSxCOLS...] with positive sizes, got {text!r}")
    return shapes


def _ops(p, text: str) -> list[str] | None:
    if not text:
        return None
    import comparison

    return _names(p, text, comparison.OPS, "--ops")


def drive(args) -> int:
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    why = skip_reason(args.device)
    if why is not None:
        message = f"sanitize: SKIPPED: {why}"
        print(message)
        out.write_text(message + "\n")
        return 0
    from comparison import get_backend

    log = open(out, "w")

    def say(text: str = "") -> None:
        print(text, flush=True)
        log.write(text + "\n")
        log.flush()

    sanitizer = find_sanitizer()
    version = subprocess.run([sanitizer, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    say(f"compute-sanitizer: {sanitizer} ({version[-1] if version else 'version unknown'})")
    for name in list(args.backends):
        reason = get_backend(name).unavailable_reason() if args.device.startswith("cuda") else None
        if reason is not None:
            say(f"{name}: unavailable ({reason}); left out")
            args.backends.remove(name)
    if not args.backends:
        say("sanitize: SKIPPED: no backend to check")
        return 0
    groups = make_cases(args.backends, lambda b: _tools_for(b, args.tools, None), args.ops, args.dtypes, log=say,
                        shapes=args.shapes, variants=args.variants)
    for name, cases in groups.items():
        say(f"{name}: {len(cases)} cases under {', '.join(_tools_for(name, args.tools, None))}")

    # 1. A plain run: build, compile, check every result, count launches.
    t0 = time.monotonic()
    plain = subprocess.run(_worker_cmd(args, None, ["--check", "--build"]), capture_output=True, text=True, cwd=REPO)
    say(f"\n==== plain run (build, compile, check against float64): {time.monotonic() - t0:.0f} s, "
        f"exit {plain.returncode}")
    log.write(plain.stdout + plain.stderr)
    say(f"plain run: {worker_counts(plain.stdout)}")
    m = re.search(r"^launches: (.*)$", plain.stdout, re.M)
    launches = json.loads(m.group(1)) if m else {}
    if plain.returncode != 0:
        say("plain run failed: see the log; the sanitized runs would fail the same way")
        tail = (plain.stdout + plain.stderr).strip().splitlines()[-20:]
        say("\n".join(tail))
        return 1

    # 2. One sanitized worker per tool.
    tools = [t for t in args.tools if any(t in _tools_for(b, args.tools, None) for b in args.backends)]
    jobs = args.jobs or len(tools)
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda tool: run_tool(args, sanitizer, tool), tools))
    disagree = re.findall(r"^DISAGREES: .*$", plain.stdout, re.M)
    failed = bool(disagree)
    rows = []
    for r in results:
        log.write(f"\n==== {r['tool']}: {r['cmd']}\n(exit {r['rc']}, {r['seconds']:.0f} s)\n{r['output']}\n")
        counted = sum(launches.get(b, 0) for b in args.backends if r["tool"] in _tools_for(b, args.tools, None))
        ok = r["errors"] == 0 and r["rc"] == 0 and r["cases"] != "did not finish" and "stopped" not in r["cases"]
        failed |= not ok
        rows.append((r["tool"], r["cases"], str(counted) if launches else "n/a",
                     "?" if r["errors"] is None else str(r["errors"]), f"{r['seconds']:.0f} s", r["summary"],
                     "ok" if ok else "FAIL"))
    say("\n==== summary (launches: kernel launches of the op calls, counted by torch.profiler in the plain "
        "run of the same cases)")
    header = ("tool", "cases", "launches", "errors", "time", "compute-sanitizer summary", "")
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        say("  ".join(str(v).ljust(w) for v, w in zip(row, widths)).rstrip())
    if disagree:
        say(f"\n{len(disagree)} results of the plain run disagree with float64:")
        say("\n".join(disagree[:20]))
    say(f"\nfull log: {out}")
    log.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
