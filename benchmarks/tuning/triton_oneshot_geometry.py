"""Chunk geometries of the Triton `split_oneshot` variant (kernels_triton/softmax_oneshot.py),
forward and backward, timed through the package's own plan and launch beside `split`, on
~1 GiB inputs, as % of a device-to-device copy timed in the same run.

A geometry is (chunk units, units of it per thread), units being values, or words of two
values for the 16-bit rows held as pairs (softmax_oneshot.row_units): the plan reads both from
the module's ONESHOT_CHUNK and ONESHOT_[BWD_]VALUES_PER_THREAD, which this script sets for
each run (plans are cached by layout, so the cache is cleared between geometries). The
rows it checks (the first and last four of each input) against float64 guard against a
geometry that computes garbage fast; the GPU tests check every element. A geometry runs
as named, with the package's rule for narrower chunks (softmax_oneshot.chunk_units) off;
the baselines (--baselines) run as shipped.

    PYTHONPATH=. python3 benchmarks/tuning/triton_oneshot_geometry.py [--cols ...] [--passes fwd,bwd]
"""
from __future__ import annotations

import argparse

import torch
import triton

from kernels_triton import launch, softmax, softmax_oneshot

# The module's own geometry and caps, before the runs below set others.
COMMITTED_CAPS = dict(softmax_oneshot.ONESHOT_MAX_REGISTERS)
SHIPPED = (softmax_oneshot.ONESHOT_CHUNK, softmax_oneshot.ONESHOT_VALUES_PER_THREAD,
           softmax_oneshot.ONESHOT_BWD_VALUES_PER_THREAD)
SHIPPED_CHUNK_UNITS = softmax_oneshot.chunk_units

FWD = {"fp32": [(8192, 64), (8192, 32), (16384, 64)],
       "bf16": [(8192, 64), (4096, 32), (8192, 32), (16384, 64)]}
BWD = {"fp32": [(8192, 32), (8192, 64), (4096, 32), (16384, 64)],
       "bf16": [(8192, 64), (4096, 32), (8192, 32), (4096, 64)]}
FWD["fp16"], BWD["fp16"] = FWD["bf16"], BWD["bf16"]
DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}


def _ms(fn) -> float:
    return triton.testing.do_bench(fn, warmup=25, rep=150, return_mode="median")


def _close(out: torch.Tensor, ref: torch.Tensor, dtype: torch.dtype) -> bool:
    atol, rtol = (2e-6, 1e-4) if dtype == torch.float32 else (2e-3, 1.6e-2)
    return bool(torch.allclose(out.double(), ref, atol=atol, rtol=rtol))


def _reference(op: str, x: torch.Tensor, dy: torch.Tensor | None) -> torch.Tensor:
    rows = torch.cat([x[:4], x[-4:]]).double()
    if dy is None:
        return torch.softmax(rows, -1)
    g = torch.cat([dy[:4], dy[-4:]]).double()
    return rows * (g - (g * rows).sum(-1, keepdim=True))


def inputs(pass_: str, dtype: torch.dtype, cols: int, nbytes: float) -> tuple:
    """(x, dy, out, copy bandwidth, bytes a pass moves, float64 reference of x's first and
    last four rows) for `pass_` ("fwd": x random, dy None; "bwd": x a softmax output, dy
    random) over about `nbytes` of rows of `cols`; out, an empty tensor like x, is the
    copy's destination."""
    rows = max(1, int(nbytes) // (cols * dtype.itemsize))
    x = torch.randn(rows, cols, device="cuda").to(dtype)
    dy = None
    if pass_ == "bwd":
        x = torch.softmax(x.float(), -1).to(dtype)
        dy = torch.randn_like(x)
    out = torch.empty_like(x)
    copy_ms = _ms(lambda: out.copy_(x))
    moved = (3 if dy is not None else 2) * x.numel() * x.element_size()
    copy_bw = 2 * x.numel() * x.element_size() / copy_ms
    return x, dy, out, copy_bw, moved, _reference("softmax" if dy is None else "softmax_backward", x, dy)


def sweep_parser(doc: str, cols: str) -> argparse.ArgumentParser:
    """A parser of a sweep's arguments, described by `doc`'s first line: --cols (default
    `cols`), --passes, --dtypes, --bytes (each case's input size); a script adds its own."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--cols", default=cols)
    ap.add_argument("--passes", default="fwd,bwd")
    ap.add_argument("--dtypes", default="fp32,bf16")
    return ap


def header(nbytes: float, note: str = "") -> None:
    """Prints a sweep's first line: the GPU, the versions, the inputs' size and `note`."""
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}; "
          f"% of copy, {nbytes / 2**30:g} GiB inputs" + (f"; {note}" if note else ""), flush=True)


def sweep(passes: str, dtypes: str, cols: str, nbytes: float):
    """(pass, op, dtype name, columns, `inputs`) for each case of the comma-separated
    `passes` (fwd, bwd), `dtypes` and `cols`, nested in that order; each case's inputs
    are made as it comes (the caller drops them before asking for the next)."""
    for pass_ in passes.split(","):
        op = "softmax" if pass_ == "fwd" else "softmax_backward"
        for dname in dtypes.split(","):
            for c in map(int, cols.split(",")):
                yield pass_, op, dname, c, inputs(pass_, DTYPES[dname], c, nbytes)


def timed_cell(name: str, call, out: torch.Tensor, ref: torch.Tensor, dtype: torch.dtype, moved: int,
               copy_bw: float, check: bool = True) -> str:
    """`name=<% of copy>(<registers>r[,spills N][,WRONG])` for the launch `call` (which
    returns its compiled kernel) writing `out`, whose first and last four rows are checked
    against `ref` (unless not `check`) before it is timed; an exception as `name=ERR ...`,
    a finding to print, not the end of a sweep (the exchange and lagged scripts' cells)."""
    try:
        out.fill_(float("nan"))
        compiled = call()
        torch.cuda.synchronize()
        ok = (not check) or _close(torch.cat([out[:4], out[-4:]]), ref, dtype)
        ms = _ms(call)
        return (f"{name}={100 * moved / ms / copy_bw:.1f}({compiled.n_regs}r"
                f"{',spills' + str(compiled.n_spills) if compiled.n_spills else ''}{'' if ok else ',WRONG'})")
    except Exception as e:  # a finding to print, not the end of the sweep
        return f"{name}=ERR {type(e).__name__}: {str(e)[:80]}"


def restore_shipped(direction: str) -> None:
    """The module's geometry and caps as committed (for the baselines, whose plans `auto`
    may route through `split_oneshot`)."""
    (softmax_oneshot.ONESHOT_CHUNK, softmax_oneshot.ONESHOT_VALUES_PER_THREAD,
     softmax_oneshot.ONESHOT_BWD_VALUES_PER_THREAD) = SHIPPED
    softmax_oneshot.ONESHOT_MAX_REGISTERS[direction] = COMMITTED_CAPS[direction]
    softmax_oneshot.chunk_units = SHIPPED_CHUNK_UNITS
    launch.clear_plans()


def main() -> None:
    ap = sweep_parser(__doc__, "65536,131072,262144,524288,1048576")
    ap.add_argument("--bytes", type=float, default=2.0**30)
    ap.add_argument("--caps", default="default",
                    help="ptxas register caps to try for each geometry (ONESHOT_MAX_REGISTERS): default (the "
                         "module's own), none, or a count; e.g. none,96")
    ap.add_argument("--geometries", default=None,
                    help="chunk units x units a thread, e.g. 8192x64 (default: the script's lists)")
    ap.add_argument("--baselines", default="split",
                    help="the package's variants timed beside the geometries (as shipped), e.g. split,fused,auto")
    args = ap.parse_args()
    header(args.bytes)
    for pass_, op, dname, cols, case in sweep(args.passes, args.dtypes, args.cols, args.bytes):
        dtype = DTYPES[dname]
        x, dy, copy_out, copy_bw, moved, ref = case
        cells = []
        listed = (FWD if dy is None else BWD)[dname]
        if args.geometries:
            listed = [tuple(map(int, g.split("x"))) for g in args.geometries.split(",")]
        direction = "forward" if dy is None else "backward"
        caps = [COMMITTED_CAPS[direction] if c == "default" else None if c == "none" else int(c)
                for c in args.caps.split(",")]
        geometries = ([(b, None, None) for b in args.baselines.split(",")]
                      + [("split_oneshot", g, c) for g in listed for c in caps])
        for variant, geometry, cap in geometries:
            if geometry is None:
                restore_shipped(direction)
            else:
                softmax_oneshot.ONESHOT_CHUNK = geometry[0]
                if dy is None:
                    softmax_oneshot.ONESHOT_VALUES_PER_THREAD = geometry[1]
                else:
                    softmax_oneshot.ONESHOT_BWD_VALUES_PER_THREAD = geometry[1]
                softmax_oneshot.ONESHOT_MAX_REGISTERS[direction] = cap
                # the geometry as named, whatever the package's rule (chunk_units) takes
                softmax_oneshot.chunk_units = lambda *_: softmax_oneshot.ONESHOT_CHUNK
                launch.clear_plans()
            label = variant if geometry is None else (f"{geometry[0]}x{geometry[1]}"
                                                      + (f"/cap{cap}" if cap else ""))
            try:
                p = softmax.plan(x, op, variant, dy)
                if variant == "auto":
                    label = f"auto:{p['kernel']}"
                fn = (lambda: softmax.run(x, op, variant)) if dy is None else (
                    lambda: softmax.run(x, op, variant, dy=dy))
                out = fn()
                ok = _close(torch.cat([out[:4], out[-4:]]), ref, dtype)
                ms = _ms(fn)
                cells.append(f"{label}={100 * moved / ms / copy_bw:.1f}"
                             f"({p.get('n_regs')}r,{p.get('programs_per_sm')}/SM"
                             f"{',pairs' if p.get('constexprs', {}).get('PAIRS') else ''}{'' if ok else ',WRONG'})")
            except Exception as e:  # a finding to print, not the end of the sweep
                cells.append(f"{label}=ERR {type(e).__name__}: {str(e)[:60]}")
        print(pass_, dname, cols, "  ".join(cells), flush=True)
        del x, dy, copy_out, case


if __name__ == "__main__":
    main()
