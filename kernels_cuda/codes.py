"""The code tables the C++ and Python share, read from the X-macro .def files in csrc/.

Each table (variant names, plan fields, plan statuses, dtypes, ...) is one .def file
with one entry per line, in one fixed format:

    SK_<TABLE>(name, code, "description")

The C++ includes the file to build its enum (e.g. csrc/softmax/plan.cuh) and `read`
parses it here, so a name and its code are written down once. Lines that are blank or
start with // are skipped; any other line must match the format exactly (a line this
parser cannot read raises rather than vanishing). Reading touches no GPU and builds
nothing.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import torch

from .build import CSRC

_LINE = re.compile(r'(SK_[A-Z0-9_]+)\((\w+), (-?\d+), "([^"\\]*)"\)')


class Entry(NamedTuple):
    name: str
    code: int
    doc: str


def read(relative: str, root: Path = CSRC) -> dict[str, tuple[Entry, ...]]:
    """The entries of <root>/<relative> (root: the shipped csrc/) by macro name, each
    table in file order."""
    path = root / relative
    tables: dict[str, list[Entry]] = {}
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        match = _LINE.fullmatch(line)
        if match is None:
            raise ValueError(f"{path}:{number}: expected SK_<TABLE>(name, code, \"description\"), got {raw!r}")
        tables.setdefault(match[1], []).append(Entry(match[2], int(match[3]), match[4]))
    return {macro: tuple(entries) for macro, entries in tables.items()}


def names_by_code(entries: tuple[Entry, ...]) -> tuple[str, ...]:
    """The names indexed by code; the codes must be 0..n-1 (as the C++ lays lists out)."""
    names = {entry.code: entry.name for entry in entries}
    if sorted(names) != list(range(len(entries))):
        raise ValueError(f"codes must be 0..{len(entries) - 1}, got {[entry.code for entry in entries]}")
    return tuple(names[code] for code in range(len(entries)))


# dtype codes of every launcher, by torch dtype (csrc/common/dtypes.def names torch's dtypes).
DTYPE_CODES = {getattr(torch, entry.name): entry.code for entry in read("common/dtypes.def")["SK_DTYPE"]}
