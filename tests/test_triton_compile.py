"""The Triton kernels compile for sm_90 with the installed Triton and keep their registers
(no GPU).

CI runs the Triton kernels in the interpreter, which never compiles them; this runs
`python -m kernels_triton.offline` (without TRITON_INTERPRET), which plans every softmax
op and reduction, variant and dtype over a set of shapes as on a 132-SM H100 and an H200, the plan's register caps,
respreading and second forms included, and compiles each kernel a plan asks for. Every
plan must compile; none may spill, except `split` up to SPLIT_SPILL_BYTES_TOLERATED (its
chunks sit near the register limit on purpose). Odd rows read as head, whole 16-byte
vectors and tail (EDGES, kernels_triton/row_edges.py) must compile to 16-byte loads and
stores (ld.global.v4 / st.global.v4 in the PTX), where the same rows one element in
load a value at a time. The table of registers and spills is printed:

    python -m pytest tests/test_triton_compile.py -q -s
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _offline_tools() -> str | None:
    """Why the check cannot run here, or None."""
    try:
        import triton
    except ImportError:
        return "Triton is not installed"
    cuobjdump = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "cuobjdump"
    if not cuobjdump.exists():
        return f"this Triton ships no cuobjdump ({cuobjdump}) to read registers from"
    return None


def _compiling_env() -> dict:
    """This process's environment for a child that compiles for a GPU: without
    TRITON_INTERPRET (conftest sets it), the checkout first on the path."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return env


@pytest.fixture(scope="module")
def plans() -> list[dict]:
    why = _offline_tools()
    if why:
        pytest.skip(why)
    env = _compiling_env()
    result = subprocess.run([sys.executable, "-m", "kernels_triton.offline", "--json"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stderr[-4000:]
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    compiled = [r for r in rows if "n_regs" in r]
    table = "\n".join(f"  {r['target'][:4]} {r['op']:22s} {r['variant']:6s} {r['dtype']} {str(r['shape']) + ('+1' if r.get('offset') else ''):18s} {r['kernel']:6s} "
                      f"warps {r['num_warps']:2d} regs {r['n_regs']:3d} spills {r['n_spills']:3d} "
                      f"per SM {r['programs_per_sm']}" for r in compiled)
    print(f"\n{result.stderr.strip().splitlines()[-1]}\n{table}")
    return rows


def test_every_plan_compiles_for_sm90(plans):
    from kernels_triton import reduce
    from kernels_triton.offline import DTYPES
    from kernels_triton.softmax import VARIANTS

    failed = [r for r in plans if "error" in r]
    assert not failed, "\n".join(f"{r['op']} {r['variant']} {r['dtype']} {r['shape']}: {r['error']}" for r in failed)
    # Every op, variant and dtype compiled somewhere; `auto` everywhere. A named variant
    # may decline a shape (`fused`: rows too wide for a program's registers; the row
    # reductions: whole tensors, `block`: rows past one block; two_stage: rows).
    compiled = defaultdict(int)
    for r in plans:
        if "n_regs" in r:
            compiled[(r["op"], r["variant"], r["dtype"])] += 1
        else:
            assert r["variant"] != "auto", r
    for op, variants in {**VARIANTS, **reduce.VARIANTS}.items():
        for variant in ("auto", *variants):
            for dtype in DTYPES:
                assert compiled[(op, variant, dtype)], (op, variant, dtype)


def test_compiled_plans_do_not_spill(plans):
    from kernels_triton.softmax import VARIANTS
    from kernels_triton.softmax_split import SPLIT_SPILL_BYTES_TOLERATED

    def tolerated(r):
        return SPLIT_SPILL_BYTES_TOLERATED if r["op"] in VARIANTS and r["kernel"] == "split" else 0

    compiled = [r for r in plans if "n_regs" in r]
    spilled = [r for r in compiled if r["n_spills"] > tolerated(r) or r.get("finish_n_spills", 0)]
    assert not spilled, "\n".join(str(r) for r in spilled)
    assert all(r["programs_per_sm"] >= 1 for r in compiled)
    assert any("finish_n_regs" in r for r in compiled)  # two_stage's second stage compiled too


def test_oneshot_16bit_softmax_backward_keeps_the_log_softmax_residency(plans):
    # split_oneshot's 16-bit softmax backward sums y * dy in chains of inline PTX
    # (softmax_oneshot._grad_terms) so that it holds as many programs per SM as the
    # log-softmax backward of the same rows and chunks: Triton's own tree of products
    # kept ~20 fp32 temporaries beside the held words (176-178 registers, 2 programs per
    # SM at 8192-word chunks against the log-softmax's 3). Rows of one narrower chunk (a
    # warp or two a program, 12-16 per SM) are not asked.
    from kernels_triton.softmax_oneshot import ONESHOT_CHUNK

    oneshot = {(r["target"], r["op"], r["variant"], r["dtype"], tuple(r["shape"]), r["constexprs"]["CHUNK"]): r
               for r in plans if "n_regs" in r and r["kernel"] == "split_oneshot" and not r.get("offset")
               and r["dtype"] in ("bf16", "fp16") and r["op"] in ("softmax_backward", "log_softmax_backward")}
    compared = 0
    for (target, op, variant, dtype, shape, chunk), r in oneshot.items():
        log = oneshot.get((target, "log_softmax_backward", variant, dtype, shape, chunk))
        if op != "softmax_backward" or log is None or not r["constexprs"].get("PAIRS") or chunk != ONESHOT_CHUNK:
            continue
        compared += 1
        assert r["programs_per_sm"] >= log["programs_per_sm"], (r, log)
    assert compared >= 4, compared


def test_odd_rows_load_whole_vectors(plans):
    # Odd rows (ALIGN 1) in a contiguous tensor: every plan that reads them as head, whole
    # vectors and tail has 128-bit loads and stores; a plan of `fused` and of `split`
    # does, forward and backward, in fp32 and bf16 (fp32 `fused` from
    # FUSED_EDGES_MIN_COLS). One element in, no plan of an odd row loads 128 bits.
    from kernels_triton.offline import OFFSET_SHAPES

    def wide(r, kind):
        return {int(bits): n for bits, n in r["accesses"][kind].items() if int(bits) == 128}

    softmax_rows = [r for r in plans if "accesses" in r]
    realigned = [r for r in softmax_rows if r["constexprs"].get("EDGES")]
    assert all(wide(r, "ld") and wide(r, "st") for r in realigned), \
        [(r["op"], r["variant"], r["dtype"], r["shape"], r["accesses"]) for r in realigned if not wide(r, "ld")]
    covered = {(r["kernel"], r["op"].endswith("_backward"), r["dtype"]) for r in realigned}
    for kernel in ("fused", "split"):
        for backward in (False, True):
            for dtype in ("fp32", "bf16"):
                assert (kernel, backward, dtype) in covered, (kernel, backward, dtype)
    offset = [r for r in softmax_rows if r.get("offset")]
    assert {tuple(r["shape"]) for r in offset} == set(OFFSET_SHAPES)
    assert all(r["constexprs"]["ALIGN"] == 1 and not r["constexprs"].get("EDGES") and not wide(r, "ld")
               for r in offset), [(r["op"], r["variant"], r["accesses"]) for r in offset if wide(r, "ld")]


def test_machine_code_fingerprints_tell_a_changed_kernel(tmp_path):
    """benchmarks/tuning/triton_machine_code.py: the same source twice gives the same SASS
    fingerprints (compare exits 0), and a record that differs in one plan's machine code
    is named (exit 1): the check that a source refactor leaves what runs alone."""
    why = _offline_tools()
    if why:
        pytest.skip(why)
    env = _compiling_env()
    tool = [sys.executable, str(ROOT / "benchmarks" / "tuning" / "triton_machine_code.py")]
    records = [tmp_path / "a.json", tmp_path / "b.json"]
    for record in records:
        subprocess.run(tool + ["--out", str(record), "--op", "softmax", "--dtype", "bf16", "--cols", "264",
                               "--rows", "4096", "--gpu", "H100"], cwd=ROOT, env=env, check=True, capture_output=True)
    found = json.loads(records[0].read_text())
    assert len(found) == 2 and all(len(plan["sass"]) == 16 and plan["constexprs"]["TAIL"] for plan in found.values())
    same = subprocess.run(tool + ["--compare", *map(str, records)], cwd=ROOT, env=env, capture_output=True, text=True)
    assert same.returncode == 0 and "2 the same, 0 differ" in same.stdout, same.stdout
    key = sorted(found)[0]
    found[key]["sass"] = "0" * 16
    records[1].write_text(json.dumps(found))
    changed = subprocess.run(tool + ["--compare", *map(str, records)], cwd=ROOT, env=env, capture_output=True, text=True)
    assert changed.returncode == 1 and f"{key}: SASS differs" in changed.stdout, changed.stdout
