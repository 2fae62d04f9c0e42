#!/usr/bin/env python3
"""One line per (dtype, width) of several `python -m comparison --format csv` runs, each
row's % of copy labelled with its run: the summary of the experiments in this folder.

    python3 benchmarks/tuning/side_by_side.py OUT PREFIX LABEL [LABEL ...]

reads OUT/PREFIX_LABEL.csv for each label and prints e.g.
``fp32  131072  base:cuda/auto= 90.8  every_warp:cuda/split= 81.2``, with the check's
verdict after any result that failed it; where the runs hold several ops, each line
starts with its op.
"""
from __future__ import annotations

import csv
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out, prefix, labels = Path(argv[0]), argv[1], argv[2:]
    rows: dict[tuple[str, str, int], dict[str, tuple[float, str]]] = {}
    for label in labels:
        for r in csv.DictReader((out / f"{prefix}_{label}.csv").open()):
            if r.get("pct_of_copy"):
                key = (r.get("op", ""), r["dtype"], int(r["cols"]))
                rows.setdefault(key, {})[f"{label}:{r['backend']}/{r['variant']}"] = (float(r["pct_of_copy"]), r["ok"])
    several_ops = len({op for op, _, _ in rows}) > 1
    for (op, dtype, cols), cells in sorted(rows.items()):
        print((f"{op:12} " if several_ops else "") + f"{dtype} {cols:7d}  " + "  ".join(f"{k}={v:5.1f}{'' if ok in ('ok', 'True') else ' ' + ok}"
                                                for k, (v, ok) in sorted(cells.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
