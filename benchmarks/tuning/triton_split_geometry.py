"""Triton `split`'s chunk geometry, searched in one process: for each configuration (a
set of `kernels_triton.softmax_split` constants: values per thread, chunk bytes), the %
of copy bandwidth of `split` on 1 GiB inputs, with the compiled kernel's registers,
spills, programs per SM, warps and grid from its plan, so that a figure can be read
against the occupancy that made it.

    PYTHONPATH=. python benchmarks/tuning/triton_split_geometry.py --op softmax --dtype bf16,fp16 \\
        --cols 131072,262144 --config base: --config v64:SPLIT_VALUES_PER_THREAD=64

A configuration is NAME:CONST=EXPR;CONST=EXPR... (an empty list is the module as it
is); constants derived from the ones set (SPLIT_MAX_CHUNK_VALUES, ...) are not
recomputed. NEXT_EARLY=True (or False) forces that held form of the kernel instead of
the plan's choice (`softmax_split.forms`); REREAD=(LOW, HIGH) forces the REREAD form on
rows of LOW to HIGH values, every dtype, GPU and alignment (all
SPLIT_[BWD_]REREAD_VALUES[_FAST_SM, _ODD] tables; None: never):

    --config plan: --config early:NEXT_EARLY=True --config late:NEXT_EARLY=False \
        --config 'reread:REREAD=(1, 1 << 30)' \
        --config 'rr_v64:REREAD=(1, 1 << 30);SPLIT_BWD_REREAD_VALUES_PER_THREAD={4: 32, 2: 64}'

(Before session 36 the tables were keyed by LOG_SOFTMAX alone, and the runs of
2026-11-26 set SPLIT_BWD_REREAD_VALUES={False: (1, 1 << 30), True: (1, 1 << 30)} for
the same effect, with SPLIT_BWD_VALUES_PER_THREAD for 64 values a thread.)

Every configuration runs on the same inputs, one after another per width, and the first
configuration runs again at the end of each width (`again`), to show the drift between
runs. Not the benchmark of record (the CLI is): each output is checked only roughly
(allclose at 1e-2) and flagged `!WRONG` where it is off.
"""
from __future__ import annotations

import argparse
import dataclasses

import torch

from comparison.harness.timing import gbps, time_ms
from kernels_triton import launch, softmax, softmax_split
from tune import DTYPES, case  # this folder's tune.py (the script's own directory is on sys.path)


def parse_config(text: str) -> tuple[str, dict]:
    name, _, body = text.partition(":")
    values = {}
    for item in filter(None, body.split(";")):
        const, expr = item.split("=", 1)
        values[const.strip()] = eval(expr)  # noqa: S307 (a tuning tool's own command line)
    return name, values


def force_form(early: bool | None) -> None:
    """Plans of `split` (forward and backward) with only the NEXT_EARLY=`early` form of
    the kernel; None: both, as the module has them."""
    def one(forms):
        def held(constexprs, *where):
            form = {k: v for k, v in forms(constexprs, *where)[0].items() if k != "num_warps"}
            return [dict(form, NEXT_EARLY=early, REREAD=0)]
        return held
    fwd, bwd = softmax_split.forms, softmax_split.backward_forms
    # The forward family is the module itself: a Family of its names with `forms` replaced.
    names = {f.name: getattr(softmax_split, f.name) for f in dataclasses.fields(launch.Family)}
    softmax.FAMILIES["split"] = softmax_split if early is None else launch.Family(**(names | {"forms": one(fwd)}))
    softmax.BACKWARD_FAMILIES["split"] = dataclasses.replace(softmax_split.BACKWARD,
                                                             forms=bwd if early is None else one(bwd))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--op", required=True,
                   choices=("softmax", "log_softmax", "softmax_backward", "log_softmax_backward"))
    p.add_argument("--dtype", default="bf16,fp16")
    p.add_argument("--cols", required=True)
    p.add_argument("--config", action="append", required=True, help="NAME:CONST=EXPR;...")
    p.add_argument("--variant", default="split")
    p.add_argument("--bytes", type=float, default=2 ** 30)
    args = p.parse_args()
    configs = [parse_config(c) for c in args.config]
    tables = ("SPLIT_REREAD_VALUES", "SPLIT_REREAD_VALUES_FAST_SM", "SPLIT_BWD_REREAD_VALUES",
              "SPLIT_BWD_REREAD_VALUES_FAST_SM")
    for _, values in configs:
        if "REREAD" in values:
            within = values.pop("REREAD")
            values.update({t: {e: {False: within, True: within} for e in (2, 4)} for t in tables})
            values.update({t: {False: within, True: within} for t in ("SPLIT_REREAD_VALUES_ODD",
                                                                      "SPLIT_BWD_REREAD_VALUES_ODD")})
    defaults = {const: getattr(softmax_split, const) for _, values in configs for const in values
                if const != "NEXT_EARLY"}
    device = torch.device("cuda", 0)
    op = args.op
    print(f"device {torch.cuda.get_device_name(device)}; op {op}, variant {args.variant}")
    for dname in args.dtype.split(","):
        dtype = DTYPES[dname]
        for cols in map(int, args.cols.split(",")):
            x, dy, expected, moved, copy = case(op, dtype, cols, args.bytes, device)
            for name, values in configs + [(f"{configs[0][0]}-again", configs[0][1])]:
                for const, default in defaults.items():
                    setattr(softmax_split, const, values.get(const, default))
                force_form(values.get("NEXT_EARLY"))
                launch.clear_plans()
                why = softmax.why_unsupported(x, op, args.variant)
                if why is not None:
                    print(f"{dname} {cols:8d} {name:12s} not run: {why}")
                    continue
                plan = softmax.plan(x, op, args.variant, dy)
                out = softmax.run(x, op, args.variant, dy=dy)
                sane = torch.allclose(out.float(), expected, rtol=1e-2, atol=1e-2, equal_nan=True)
                ms = time_ms(lambda: softmax.run(x, op, args.variant, dy=dy), device)
                c = plan["constexprs"]
                print(f"{dname} {cols:8d} {name:12s} {100 * gbps(moved, ms) / copy:6.1f}%"
                      f"{'' if sane else ' !WRONG'}  split {c.get('SPLIT')} chunk {c.get('CHUNK')} "
                      f"warps {plan['num_warps']} regs {plan['n_regs']} spills {plan['n_spills']} "
                      f"per_sm {plan['programs_per_sm']} ({plan['occupancy_limited_by']}) grid {plan['grid']}",
                      flush=True)
            del x, dy, expected


if __name__ == "__main__":
    main()
