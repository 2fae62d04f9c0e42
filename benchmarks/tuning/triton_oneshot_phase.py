"""Triton `split_oneshot` with a row cut in K' parts of its own choosing (chunks STEP
units apart, STEP <= CHUNK: softmax_oneshot.slot_parts' geometry), forward and backward,
as % of a device-to-device copy timed in the same run: does the phase in which the
resident programs hold rows (slots = programs per SM x SMs = n K' + r) set the speed?

Calls 121-122 (benchmarks/h200_2026-11-28/slots*_compare_h200_*.txt): K' dividing the
slots (r = 0, every row in flight starting and waiting together) lost 1-7 points to the
shipped K in the fp32 backward, and more at 1048576 columns, where the shipped K = 128
leaves r = 12 of 396 slots (nearly in phase too). Here each width runs at several K':
the shipped one first, then the list given (K' below the shipped K would need wider
chunks: skipped). Each case is checked against float64 on its first and last four rows.

    PYTHONPATH=. python3 benchmarks/tuning/triton_oneshot_phase.py [--cols 1048576] [--dtypes fp32]
        [--passes fwd,bwd] [--parts 132,140,147,158]
"""
from __future__ import annotations

import torch
import triton

from kernels_triton import launch, softmax, softmax_oneshot
from triton_oneshot_geometry import DTYPES, _close, _ms, header, sweep, sweep_parser

SHIPPED = softmax_oneshot._slot_parts
STEP_UNITS = 32  # 128 bytes of fp32 values or of 16-bit pairs


def forced(parts: int):
    """A `_slot_parts` that cuts every row in `parts` (None where it cannot)."""
    def cut(constexprs, resident, direction, *tensors):
        units = softmax_oneshot.row_units(*tensors)
        step = triton.cdiv(triton.cdiv(units, parts), STEP_UNITS) * STEP_UNITS
        if constexprs["K"] <= 1 or parts > resident or step > constexprs["CHUNK"] or triton.cdiv(units, step) != parts:
            return None
        return dict(constexprs, STEP=step, K=parts, KP=max(triton.next_power_of_2(parts), constexprs["KP"]))
    return cut


def main() -> None:
    ap = sweep_parser(__doc__, "524288,1048576")
    ap.add_argument("--bytes", type=float, default=2.0**30)
    ap.add_argument("--parts", default="132,140,147,158")
    ap.add_argument("--ops", default="softmax,log_softmax")
    args = ap.parse_args()
    header(args.bytes, "K'=% of copy(K', slots = programs per SM x SMs)")
    for pass_, _, dname, cols, case in sweep(args.passes, args.dtypes, args.cols, args.bytes):
        dtype = DTYPES[dname]
        x, dy, _, copy_bw, moved, ref = case
        for op in args.ops.split(","):
            name = op if dy is None else op + "_backward"
            cells = []
            for parts in [None] + [int(k) for k in args.parts.split(",")]:
                softmax_oneshot._slot_parts = SHIPPED if parts is None else forced(parts)
                softmax_oneshot.ONESHOT_SLOT_PARTS.update(forward=parts is not None, backward=parts is not None)
                launch.clear_plans()
                try:
                    p = softmax.plan(x, name, "split_oneshot", dy)
                    c = p["constexprs"]
                    if parts is not None and c["K"] != parts:
                        cells.append(f"{parts}=not planned(K {c['K']}, {p['programs_per_sm']}/SM)")
                        continue
                    fn = (lambda x=x: softmax.run(x, name, "split_oneshot")) if dy is None else (
                        lambda x=x, dy=dy: softmax.run(x, name, "split_oneshot", dy=dy))
                    out = fn()
                    ok = op == "log_softmax" or _close(torch.cat([out[:4], out[-4:]]), ref, dtype)
                    pct = 100 * moved / _ms(fn) / copy_bw
                    slots = p["programs_per_sm"] * p["sm_count"]
                    cells.append(f"{c['K']}={pct:.1f}({slots} slots,r {slots % c['K']}{'' if ok else ',WRONG'})")
                except Exception as e:  # a finding to print, not the end of the sweep
                    cells.append(f"{parts}=ERR {type(e).__name__}: {str(e)[:60]}")
            print(pass_, name, dname, cols, "  ".join(cells), flush=True)
        del x, dy, case
    softmax_oneshot._slot_parts = SHIPPED


if __name__ == "__main__":
    main()
