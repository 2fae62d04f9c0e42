"""The shipped CUDA sources compile with nvcc for sm_90 and keep their registers (no GPU).

CI has nvcc and a CPU-only torch: each top-level csrc/*.cu is compiled on its own
(errors point at one file; each includes its headers from csrc/softmax/, csrc/reduce/
and csrc/common/), and so is the single unit build.py hands to load_inline (the files
together: catches names two files both define), with the flags torch adds to every
nvcc call. ptxas's report (-Xptxas -v) is printed per kernel; kernels that keep rows
in registers or shared memory must not spill. Also checked: the binding list and the
Python calls against bindings.cpp, the code tables (the .def files: what
kernels_cuda/codes.py parses against what the C++ builds from them, compiled with the
host compiler), the build hash, and that no source includes torch headers.

    python -m pytest tests/test_cuda_compile.py -q -s    # -s prints the register table
"""
from __future__ import annotations

import collections
import concurrent.futures
import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import torch

from kernels_cuda import build, codes
from kernels_cuda import reduce as cuda_reduce
from kernels_cuda import softmax as cuda_softmax


def _find_nvcc() -> str | None:
    found = shutil.which("nvcc")
    if found:
        return found
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    candidate = Path(home, "bin", "nvcc") if home else None
    return str(candidate) if candidate and candidate.exists() else None


NVCC = _find_nvcc()
ARCH = "sm_90"
CSRC = build.CSRC
UNITS = [p.name for p in build.cuda_sources()] + ["load_inline unit"]
# Kernels that hold rows in registers or shared memory: a spill defeats their purpose.
REGISTER_RESIDENT = ("warp_per_row", "block_smem", "cluster_smem", "cluster_regs", "cluster_unpacked", "cluster_tma",
                     "block_hybrid", "split", "split_smem")
try:  # the flags torch's extension builder puts in front of every nvcc command
    from torch.utils.cpp_extension import COMMON_NVCC_FLAGS as TORCH_NVCC_FLAGS
except ImportError:
    TORCH_NVCC_FLAGS = ["-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__",
                        "-D__CUDA_NO_BFLOAT16_CONVERSIONS__", "-D__CUDA_NO_HALF2_OPERATORS__",
                        "--expt-relaxed-constexpr"]

needs_nvcc = pytest.mark.skipif(NVCC is None, reason="nvcc not found (install the CUDA toolkit or set CUDA_HOME)")


def _compile(source: Path, out: Path) -> subprocess.CompletedProcess:
    cmd = [NVCC, f"-arch={ARCH}", "-Xptxas", "-v", "-c", *build.CUDA_FLAGS, *TORCH_NVCC_FLAGS,
           f"-I{CSRC}", str(source), "-o", str(out)]
    result = subprocess.run(cmd, capture_output=True, text=True)
    result.cmd = " ".join(cmd)
    result.object = out
    return result


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> dict[str, subprocess.CompletedProcess]:
    """Every unit compiled once, in parallel (two cores: ~40 s in all)."""
    tmp = tmp_path_factory.mktemp("nvcc")
    unit = tmp / "load_inline_unit.cu"
    unit.write_text(build.cuda_unit())
    sources = {p.name: p for p in build.cuda_sources()} | {"load_inline unit": unit}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        futures = {name: pool.submit(_compile, src, tmp / f"{i}.o") for i, (name, src) in enumerate(sources.items())}
        return {name: f.result() for name, f in futures.items()}


def _demangle(names: list[str]) -> list[str]:
    cxxfilt = shutil.which("c++filt")
    if not cxxfilt or not names:
        return names
    out = subprocess.run([cxxfilt], input="\n".join(names), capture_output=True, text=True).stdout.splitlines()
    return out if len(out) == len(names) else names


def _without_parameters(name: str) -> str:
    """A demangled kernel name without its parameter list."""
    return re.sub(r"\((?:[^()]|\([^()]*\))*\)$", "", name)


def ptxas_report(text: str) -> list[dict]:
    """Per kernel: name, registers, spill stores and loads (bytes), from `ptxas -v`."""
    kernels: dict[str, dict] = {}
    current = None
    for line in text.splitlines():
        m = re.search(r"(?:Compiling entry function|Function properties for) '?([\w$.]+)'?", line)
        if m:
            current = kernels.setdefault(m.group(1), {"mangled": m.group(1), "registers": None,
                                                      "spill_stores": 0, "spill_loads": 0})
            continue
        if current is None:
            continue
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            current["spill_stores"], current["spill_loads"] = int(m.group(1)), int(m.group(2))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            current["registers"] = int(m.group(1))
    rows = [k for k in kernels.values() if k["registers"] is not None]
    for row, name in zip(rows, _demangle([r["mangled"] for r in rows])):
        row["name"] = _without_parameters(name)
    return rows


@needs_nvcc
@pytest.mark.parametrize("unit", UNITS)
def test_compiles_for_sm90(compiled, unit):
    result = compiled[unit]
    assert result.returncode == 0, f"nvcc failed on {unit}:\n{result.cmd}\n{result.stdout}{result.stderr}"


@needs_nvcc
def test_register_resident_kernels_do_not_spill(compiled):
    lines, spilling = [], []
    for name in UNITS[:-1]:  # the unit repeats the same kernels
        result = compiled[name]
        if result.returncode != 0:
            pytest.fail(f"{name} did not compile (see test_compiles_for_sm90)")
        for k in ptxas_report(result.stderr):
            lines.append(f"{name:12} {k['registers']:4d} regs  spill {k['spill_stores']:4d} st "
                         f"{k['spill_loads']:4d} ld  {k['name']}")
            if any(tag in k["mangled"] for tag in REGISTER_RESIDENT) and (k["spill_stores"] or k["spill_loads"]):
                spilling.append(k["name"])
    table = "\n".join(lines)
    print(f"\nptxas ({ARCH}) registers and spills per kernel:\n{table}")
    assert lines, "ptxas reported no kernels"
    assert not spilling, "register-resident kernels spill:\n  " + "\n  ".join(spilling) + "\n" + table


_WARP_ROW_SHAPE_PROGRAM = r"""
#include <cstdio>
#include "softmax/warp_per_row.cuh"
using namespace sk::softmax;
template <typename T> void show(const char* dtype, int pack) {
  for (int fast = 0; fast < 2; ++fast) {
    for (int cols = 1; cols <= 32 * warp_row_forward_max_values(sizeof(T), pack); ++cols) {
      // Contiguous rows not a whole number of 16-byte packs are read in three parts.
      const bool edges = cols * static_cast<int>(sizeof(T)) % 16 != 0;
      const WarpRowShape s = warp_row_shape<T>(cols, pack, 1000, fast != 0, edges);
      std::printf("%s %d %d %d %d %d\n", dtype, fast, cols, s.group, s.needed, s.rows_per_access);
    }
  }
}
int main() {
  std::printf("rows %d %d %d %d\n", kWarpRowRows16Wide, kWarpRowRows16Narrow, kWarpRowRows32,
              static_cast<int>(kWarpRowNarrow32MaxPacks));
  show<__nv_bfloat16>("bf16", 8);
  show<__half>("fp16", 8);
  show<float>("fp32", 4);
  return 0;
}
"""


@needs_nvcc
def test_warp_per_row_forward_shapes(tmp_path):
    """plan_warp_per_row's geometry (warp_row_shape) at every width, on a GPU of
    WARP_ROW_TWO_ROWS_MIN_SM_BANDWIDTH per SM or more (the H200) and below it (the H100),
    for contiguous rows (16-byte packs: 16-bit rows whole or realigned): several rows per
    group only where a lane holds one pack (kWarpRowRows) or, on the fast GPU, three
    16-bit packs (kWarpRowRows16Wide on 32 lanes, kWarpRowRows16Narrow on 16, and on 8
    for rows not read in three parts; the lane packs give three packs on no other group)
    or four on 8-32 lanes where whole and at most 4/5 full (on 16-32 lanes in three parts
    and at most 15/16 full), and fp32 rows of two packs on
    32 lanes that fill at most 15/16 of them or of three at most 4/5, or, on
    the fast GPU, of 33 to kWarpRowNarrow32MaxPacks packs on 16 lanes of three packs at
    any fill (kWarpRowRows32). tests/test_cuda_softmax.py's
    test_warp_per_row_lane_packs checks plans on a GPU."""
    source, program = tmp_path / "shapes.cu", tmp_path / "shapes"
    source.write_text(_WARP_ROW_SHAPE_PROGRAM)
    built = subprocess.run([NVCC, f"-arch={ARCH}", *build.CUDA_FLAGS, *TORCH_NVCC_FLAGS, f"-I{CSRC}", str(source),
                            "-o", str(program)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    lines = subprocess.run([str(program)], capture_output=True, text=True, check=True).stdout.splitlines()
    wide, narrow, rows32, narrow32_packs = (int(v) for v in lines[0].split()[1:])
    shapes = {(d, int(f), int(c)): (int(g), int(n), int(r)) for d, f, c, g, n, r in (s.split() for s in lines[1:])}
    for (dtype, fast, cols), (group, needed, rows) in shapes.items():
        pack = 4 if dtype == "fp32" else 8
        three_packs = dtype != "fp32" and needed == 3 * pack
        assert three_packs == (dtype != "fp32" and cols // 8 in (*range(17, 25), *range(33, 49), *range(65, 97)))
        edges = cols % 8 != 0 if dtype != "fp32" else cols % 4 != 0
        # kWarpRowRows16FourPacks{,Edges}MaxFill: rows of four packs at most 4/5 full
        # (whole) or 15/16 (in three parts, not on 8 lanes)
        num, den = (15, 16) if edges else (4, 5)
        four_packs = (dtype != "fp32" and needed == 4 * pack and group >= (16 if edges else 8)
                      and den * (cols // pack) <= num * 4 * group)
        several = fast and (three_packs and not (group == 8 and edges) or four_packs)
        narrow32 = dtype == "fp32" and fast and 32 < cols // pack <= narrow32_packs
        assert narrow32 == (dtype == "fp32" and group == 16 and needed == 3 * pack), (cols, group, needed)
        fp32_lanes = dtype == "fp32" and group == 32 and needed in (2 * pack, 3 * pack)
        assert fp32_lanes == (dtype == "fp32" and 132 <= cols < 388 and not narrow32), (cols, group, needed)
        fill = (15, 16) if needed == 2 * pack else (4, 5)  # kWarpRowRows32{TwoPacks,}MaxFill
        fp32_several = narrow32 or fast and fp32_lanes and fill[1] * (cols // pack) <= fill[0] * 32 * (needed // pack)
        expected = (4 if needed == pack else (wide if group == 32 else narrow) if several
                    else rows32 if fp32_several else 1)
        assert rows == expected, (dtype, fast, cols, group, needed, rows)
        assert not three_packs or group == (8 if cols < 264 else 16 if cols < 520 else 32), (dtype, cols, group)
    # The shapes the GPU test names, on the fast GPU (group, values per lane, rows):
    assert shapes["bf16", 1, 197] == (8, 24, 1)         # 8 lanes of three packs, read in three parts
    assert shapes["bf16", 1, 136] == (8, 24, narrow)    # 8 lanes of three packs, whole
    assert shapes["fp16", 1, 300] == (16, 24, narrow)   # 16 lanes of three packs
    assert shapes["fp16", 1, 577] == (32, 24, wide)     # 32 lanes of three packs
    assert shapes["bf16", 1, 129] == (4, 32, 1)         # four packs on 4 lanes: one row
    assert shapes["bf16", 1, 511] == (16, 32, 1)        # four packs, in three parts: one row
    assert shapes["bf16", 1, 200] == (8, 32, narrow)    # four packs, 25 of 32 full
    assert shapes["bf16", 1, 216] == (8, 32, 1)         # 27 of 32: fuller than 4/5
    assert shapes["fp16", 1, 408] == (16, 32, narrow)   # 51 of 64
    assert shapes["bf16", 1, 401] == (16, 32, narrow)   # 50 of 64, in three parts
    assert shapes["bf16", 1, 457] == (16, 32, narrow)   # 57 of 64, in three parts: under 15/16
    assert shapes["fp16", 1, 801] == (32, 32, wide)     # 100 of 128, in three parts
    assert shapes["fp16", 1, 800] == (32, 32, wide)     # 100 of 128
    assert shapes["bf16", 1, 1024] == (32, 32, 1)       # every lane's four packs full
    assert shapes["bf16", 0, 197] == (8, 24, 1)         # below the bandwidth: one row
    assert shapes["fp32", 1, 128] == (16, 8, 1)         # fp32, two packs on 16 lanes: one row
    assert shapes["fp32", 1, 136] == (16, 12, rows32)   # 34 packs: three packs on 16 lanes
    assert shapes["fp32", 1, 192] == (16, 12, rows32)   # 48: every lane's three packs full
    assert shapes["fp32", 1, 195] == (16, 12, rows32)   # 48, read in three parts
    assert shapes["fp32", 1, 196] == (32, 8, rows32)    # 49: two packs on 32 lanes
    assert shapes["fp32", 0, 136] == (32, 8, 1)         # below the bandwidth: 32 lanes, one row
    assert shapes["fp32", 1, 307] == (32, 12, rows32)   # three packs on 32 lanes, 76 of 96 full
    assert shapes["fp32", 1, 308] == (32, 12, 1)        # 77 of 96: fuller than kWarpRowRows32MaxFill
    assert shapes["fp32", 1, 240] == (32, 8, rows32)    # two packs on 32 lanes, 60 of 64 full
    assert shapes["fp32", 1, 248] == (32, 8, 1)         # 62 of 64: fuller than the two packs' 15/16
    assert shapes["fp32", 1, 256] == (32, 8, 1)         # every lane's two packs full
    assert shapes["fp32", 1, 388] == (32, 16, 1)        # four packs: one row
    assert shapes["fp32", 0, 264] == (32, 12, 1)        # below the bandwidth: one row
    # 16-bit rows in 16-byte packs to twice fp32's width (kWarpRowMaxColsPerThread16):
    assert max(c for d, _, c in shapes if d == "fp32") == 1024
    assert max(c for d, _, c in shapes if d == "bf16") == 2048
    assert shapes["bf16", 1, 1040] == (32, 40, 1)       # five packs on 32 lanes (instance of 40)
    assert shapes["fp16", 0, 1537] == (32, 48, 1)       # six packs: 48 values; 56 -> 64
    assert shapes["bf16", 1, 1800] == (32, 64, 1)


def _sass_sequences(obj: Path, opcode: str) -> dict[str, list[str]]:
    """Per kernel of the object (demangled, parameters dropped): the instructions of its
    sm_90 SASS whose opcode (with its modifiers) matches the regular expression `opcode`
    (e.g. STG.E.128, STG.E.U16), in program order."""
    cuobjdump = shutil.which("cuobjdump", path=str(Path(NVCC).parent)) or shutil.which("cuobjdump")
    triton_spec = importlib.util.find_spec("triton")
    if cuobjdump is None and triton_spec is not None:  # Triton's wheel carries one (its NVIDIA backend's)
        triton_bin = Path(triton_spec.origin).parent / "backends" / "nvidia" / "bin"
        cuobjdump = shutil.which("cuobjdump", path=str(triton_bin))
    if cuobjdump is None:
        pytest.skip("cuobjdump not found beside nvcc, on PATH or in Triton's wheel")
    found: dict[str, list[str]] = {}
    current = None
    pattern = re.compile(rf"\b((?:{opcode})\.[A-Z0-9.]+)")
    with subprocess.Popen([cuobjdump, "-sass", str(obj)], stdout=subprocess.PIPE, text=True) as proc:
        for line in proc.stdout:
            if "Function :" in line:
                current = found.setdefault(line.split("Function :")[1].strip(), [])
            elif current is not None:
                m = pattern.search(line)
                if m:
                    current.append(m.group(1))
    names = _demangle(list(found))
    return {_without_parameters(name): sequence for name, sequence in zip(names, found.values())}


def _sass_instructions(obj: Path, opcode: str) -> dict[str, dict[str, int]]:
    """`_sass_sequences`, each kernel's instructions counted."""
    return {name: dict(collections.Counter(sequence)) for name, sequence in _sass_sequences(obj, opcode).items()}


@needs_nvcc
def test_sixteen_byte_packs_are_stored_whole(compiled):
    """Kernels of 16-byte packs store each pack with one 16-byte instruction: ptxas split
    the plain 16-byte stores of the 16-bit warp_per_row instances that read rows in three
    parts into four 4-byte ones each (four times the store requests; 64-66% of copy at
    bf16 577 / 1023 on an H200, against 98 at 1024: kWarpRow16StoreOf in
    softmax/warp_per_row.cuh). Every such instance has 16-byte stores, and a 16-bit one
    stores nothing narrower but single values (a row's edges)."""
    result = compiled["softmax.cu"]
    if result.returncode != 0:
        pytest.fail("softmax.cu did not compile (see test_compiles_for_sm90)")
    checked, split = 0, []
    for name, counts in _sass_instructions(result.object, "STG").items():
        sixteen_bit = re.search(r"<(?:__nv_bfloat16|__half), 8,", name)
        if not (sixteen_bit or re.search(r"<float, 4,", name)):
            continue
        checked += 1
        narrow = {k: v for k, v in counts.items() if k != "STG.E.128" and k != "STG.E.U16"}
        if not counts.get("STG.E.128") or (sixteen_bit and narrow):
            split.append(f"{name}: {counts}")
    assert checked > 100, f"only {checked} kernels of 16-byte packs found in the SASS"
    assert not split, "16-byte packs stored in pieces:\n  " + "\n  ".join(split)


@needs_nvcc
def test_global_exchange_publishes_by_atomic_exchange_and_polls_volatile(compiled):
    """Every kernel that exchanges through global memory (split, split_smem and
    split_hybrid, forward and backward, and split_hybrid's fp32 register slices) publishes its word with an atomic exchange
    (ATOMG.E.EXCH) and polls its peers' with volatile loads (LDG ... STRONG.SYS), with no
    relaxed GPU-scope store or load (STG/LDG ... STRONG.GPU): with those, every row's wait
    was longer (H200, 1 GiB, auto backward fp32 1048576 91.5% of copy against 82.4;
    softmax/split.cuh, publish_word)."""
    result = compiled["softmax.cu"]
    if result.returncode != 0:
        pytest.fail("softmax.cu did not compile (see test_compiles_for_sm90)")
    exchanging = re.compile(r"softmax_(?:backward_)?split(?:_smem(?:_pipelined)?|_hybrid_regs)?_kernel<|HybridGlobal")
    checked, wrong = 0, []
    for name, counts in _sass_instructions(result.object, "ATOMG|ATOM|LDG|STG").items():
        if not exchanging.search(name):
            continue
        checked += 1
        publishes = any(k.startswith(("ATOMG.E.EXCH", "ATOM.E.EXCH")) for k in counts)
        polls = any(k.startswith("LDG") and "STRONG.SYS" in k for k in counts)
        relaxed = [k for k in counts if k.startswith(("STG", "LDG")) and "STRONG.GPU" in k]
        if not (publishes and polls) or relaxed:
            wrong.append(f"{name}: {counts}")
    assert checked >= 20, f"only {checked} exchanging kernels found in the SASS"
    assert not wrong, "exchanges not by atomic exchange and volatile polls:\n  " + "\n  ".join(wrong)


@needs_nvcc
def test_register_slices_log_softmax_backward_loads_y_while_the_sums_are_gathered(compiled):
    """split_hybrid's fp32 register slices: the log-softmax backward (whose row sum is of
    dy alone) loads its slice of dy, publishes its part (ATOMG.E.EXCH) and only then
    issues its loads of y, which land while it polls its peers' parts (LDG ... STRONG.SYS),
    as Triton's split_oneshot does; the softmax backward needs y and dy for its sum and
    loads both before it publishes. The same with a part of the slice in shared memory
    (kSmem: bulk copies, not LDG)."""
    result = compiled["softmax.cu"]
    if result.returncode != 0:
        pytest.fail("softmax.cu did not compile (see test_compiles_for_sm90)")
    found = {name: seq for name, seq in _sass_sequences(result.object, "ATOMG|LDG").items()
             if "softmax_backward_split_hybrid_regs_kernel<" in name}
    # Template arguments <T, N, kLog, kSmem>.
    modes = {name: tuple(a.strip() for a in name[name.index("<") + 1:name.rindex(">")].split(",")[2:])
             for name in found}
    assert sorted(modes.values()) == [(log, smem) for log in ("false", "true") for smem in ("false", "true")], modes
    for name, seq in found.items():
        publish = seq.index(next(k for k in seq if k.startswith("ATOMG.E.EXCH")))
        poll = seq.index(next(k for k in seq if k.startswith("LDG") and "STRONG.SYS" in k))
        loads = [i for i, k in enumerate(seq) if k == "LDG.E.128"]
        between = sum(publish < i < poll for i in loads)
        if modes[name][0] == "true":
            assert between == len(loads) // 2 > 0, (name, seq)
        else:
            assert between == 0 and all(i < publish for i in loads), (name, seq)


@needs_nvcc
def test_dynamic_shared_memory_keeps_its_alignment(compiled):
    """The kernels' `extern __shared__ smem_raw` arrays are one symbol whose first
    declaration fixes its alignment (see plan_variant in softmax.cu): block_smem's 16
    bytes come first, and cluster_tma's and block_hybrid's 128 draw nvcc's warning #1886.
    The other way round, block_smem's and cluster_smem's dynamic shared memory would
    start 0x70 bytes later."""
    for unit in ("softmax.cu", "load_inline unit"):
        text = compiled[unit].stdout + compiled[unit].stderr
        warnings = re.findall(r"([\w.]+)\(\d+\): warning #1886-D: specified alignment \((\d+)\) is different "
                              r"from alignment \((\d+)\)", text)
        if not warnings:
            pytest.skip(f"this nvcc does not report the smem_raw alignment (#1886) for {unit}")
        assert {(Path(f).name, later, first) for f, later, first in warnings} == {
            ("cluster_tma.cuh", "128", "16"), ("block_hybrid.cuh", "128", "16")}, warnings


def _bound_functions() -> set[str]:
    """What bindings.cpp offers Python: its declarations of the .cu entry points and its
    own definitions (wrappers), less the entry points only a wrapper calls."""
    text = re.sub(r"//[^\n]*", "", (CSRC / build.BINDINGS).read_text())
    head = r"^[A-Za-z_][\w:<>, ]*?[\s*&](\w+)\s*\([^;{]*\)\s*"
    declared = set(re.findall(head + ";", text, flags=re.M))
    defined = set(re.findall(head + r"\{", text, flags=re.M))
    bodies = "".join(body for _, body in re.findall(head + r"(\{.*?^\})", text, flags=re.M | re.S))
    return defined | {name for name in declared if not re.search(rf"\b{name}\(", bodies)}


def test_every_binding_is_listed_in_build_functions():
    declared = _bound_functions()
    listed = set(build.FUNCTIONS)
    assert declared, "no declarations found in bindings.cpp"
    assert declared == listed, (f"declared in bindings.cpp but not in build.FUNCTIONS: {sorted(declared - listed)}; "
                                f"listed but not declared: {sorted(listed - declared)}")


# -- the code tables: one .def file per table, read by the C++ and by kernels_cuda/codes.py --

# Every table (file, macro) and what the C++ makes of an entry: an enum value ({} is the
# entry's name), or a member of a plan whose fields() list the plan bindings return. A
# host-only program prints, for each entry the preprocessor sees, its name and code and
# the value (or list position) the C++ gives it; the tests compare that with codes.read.
DEF_TABLES = {
    ("common/dtypes.def", "SK_DTYPE"): "sk::DType::{}",
    ("softmax/variants.def", "SK_SOFTMAX_VARIANT"): "sk::softmax::Variant::{}",
    ("softmax/variants.def", "SK_SOFTMAX_AUTO"): "sk::softmax::Variant::kAuto",
    ("softmax/plan_status.def", "SK_PLAN_STATUS"): "sk::softmax::PlanStatus::{}",
    ("softmax/auto_reasons.def", "SK_AUTO_REASON"): "sk::softmax::AutoReason::{}",
    ("softmax/plan_fields.def", "SK_PLAN_FIELD"): "sk::softmax::Plan",
    ("reduce/variants.def", "SK_REDUCE_VARIANT"): "sk_reduce::Variant::{}",
    ("reduce/variants.def", "SK_REDUCE_AUTO"): "sk_reduce::Variant::kAuto",
    ("reduce/ops.def", "SK_REDUCE_OP"): "sk_reduce::ReduceOp::{}",
    ("reduce/layouts.def", "SK_REDUCE_LAYOUT"): "sk_reduce::Layout::{}",
    ("reduce/plan_fields.def", "SK_REDUCE_PLAN_FIELD"): "sk_reduce::Plan",
}


_CODES_PROGRAM_HEAD = r"""
#include <algorithm>
#include <cstdio>
#include <vector>
#include "common/dtypes.cuh"
#include "reduce/plan.cuh"
#include "softmax/plan.cuh"
#define SHOW(file, macro, name, code, value) \
  std::printf("%s %s %s %lld %lld\n", file, macro, #name, (long long)(code), (long long)(value));
// Where fields() puts field k (in .def line order) of a plan whose fields hold 1000 + k.
template <typename P> long long position(const P& plan, int k) {
  const std::vector<int64_t> f = plan.fields();
  return std::find(f.begin(), f.end(), 1000 + k) - f.begin();
}
int main() {
"""


def _codes_program() -> str:
    """A host-only C++ program printing `file macro name code value` per .def entry."""
    macros_of: dict[str, list[str]] = {}
    for path, macro in DEF_TABLES:
        macros_of.setdefault(path, []).append(macro)
    lines = [_CODES_PROGRAM_HEAD]
    for (path, macro), cpp in DEF_TABLES.items():
        others = [m for m in macros_of[path] if m != macro]  # the file's other tables: silent
        if cpp.endswith("::Plan"):
            lines += ["{", f"  {cpp} plan;", "  int k = 0;", f"#define {macro}(name, code, doc) plan.name = 1000 + k++;",
                      f'#include "{path}"', f"#undef {macro}", "  k = 0;",
                      f'#define {macro}(name, code, doc) SHOW("{path}", "{macro}", name, code, position(plan, k++))',
                      f'#include "{path}"', f"#undef {macro}", "}"]
        else:
            lines += [f'#define {macro}(name, code, doc) SHOW("{path}", "{macro}", name, code, {cpp.format("name")})',
                      *(f"#define {m}(name, code, doc)" for m in others), f'#include "{path}"',
                      *(f"#undef {m}" for m in (macro, *others))]
    lines.append("  return 0;\n}")
    return "\n".join(lines) + "\n"


def _compile_and_run_codes_program(csrc: Path, tmp: Path) -> list[tuple[str, str, str, int, int]]:
    compiler = shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        pytest.skip("no host C++ compiler (c++ / g++) found")
    source, program = tmp / "codes.cpp", tmp / "codes"
    source.write_text(_codes_program())
    built = subprocess.run([compiler, "-std=c++17", f"-I{csrc}", str(source), "-o", str(program)],
                           capture_output=True, text=True)
    assert built.returncode == 0, f"the code tables do not compile as plain C++:\n{built.stderr}"
    out = subprocess.run([str(program)], capture_output=True, text=True, check=True).stdout
    return [(f, m, n, int(c), int(v)) for f, m, n, c, v in (line.split() for line in out.splitlines())]


def _disagreements(rows, root: Path) -> list[str]:
    """Where the C++ (rows) and kernels_cuda.codes (reading root) differ."""
    problems = []
    for path, macro in DEF_TABLES:
        parsed = [(e.name, e.code) for e in codes.read(path, root).get(macro, ())]
        seen = [(n, c) for f, m, n, c, _ in rows if (f, m) == (path, macro)]
        if parsed != seen:
            problems.append(f"{path} {macro}: codes.py reads {parsed}, the preprocessor sees {seen}")
        for f, m, n, c, v in rows:
            if (f, m) == (path, macro) and v != c:
                problems.append(f"{path} {macro}: {n} is {c} in the .def but {v} in the C++")
    return problems


def test_cpp_and_python_read_the_same_codes(tmp_path):
    """Each .def entry the preprocessor sees is what codes.py parses, and the C++ enum
    value (or the position in the list a plan binding returns) is its code."""
    rows = _compile_and_run_codes_program(CSRC, tmp_path)
    assert {(f, m) for f, m, *_ in rows} == set(DEF_TABLES)
    assert not _disagreements(rows, CSRC)


def test_the_code_comparison_catches_a_disagreement(tmp_path):
    """The comparison above fails when the C++ stops building its enum from the codes,
    or lays plan fields out otherwise than by code."""
    copy = tmp_path / "csrc"
    shutil.copytree(CSRC, copy)
    plan = copy / "softmax" / "plan.cuh"
    text = plan.read_text()
    text = text.replace("#define SK_PLAN_STATUS(name, code, doc) name = code,",
                        "#define SK_PLAN_STATUS(name, code, doc) name = code + 1,")
    text = text.replace("out.at(code) = name;", "out.at(kFieldCount - 1 - code) = name;")
    plan.write_text(text)
    problems = _disagreements(_compile_and_run_codes_program(copy, tmp_path), copy)
    assert any("plan_status.def" in p for p in problems), problems
    assert any("plan_fields.def" in p for p in problems), problems


def test_parsed_tables():
    assert cuda_softmax.LADDER == ("naive", "smem_tree", "coalesced", "warp_shuffle", "warp_per_row", "block_smem",
                                   "block_uncached", "online", "cluster_smem", "cluster_regs", "cluster_tma",
                                   "block_hybrid", "split", "split_smem", "split_hybrid")
    assert [cuda_softmax.VARIANT_CODES[v] for v in cuda_softmax.LADDER] == list(range(len(cuda_softmax.LADDER)))
    assert cuda_softmax.VARIANT_CODES["auto"] not in range(len(cuda_softmax.LADDER))
    backward = ("warp_per_row", "block_smem", "block_uncached", "cluster_regs", "block_hybrid", "split", "split_smem",
                "split_hybrid")
    assert cuda_softmax.BACKWARD == backward and set(backward) <= set(cuda_softmax.LADDER)
    assert cuda_softmax.VARIANTS == {"softmax": cuda_softmax.LADDER, "log_softmax": cuda_softmax.LADDER,
                                     "softmax_backward": backward, "log_softmax_backward": backward}
    assert cuda_softmax.PLAN_STATUS[0] == "ok" and cuda_softmax.AUTO_REASONS[0] == "requested"
    assert {"status", "pack", "threads", "blocks", "cluster_size", "smem_bytes", "cols_per_thread", "group_width",
            "rows_per_access", "resident_per_sm", "active_clusters", "grid_y", "variant",
            "reason_code", "split", "workspace_bytes"} <= set(cuda_softmax.PLAN_FIELDS)
    assert codes.DTYPE_CODES == {torch.float32: 0, torch.float16: 1, torch.bfloat16: 2}
    assert cuda_reduce.VARIANTS == {op: ("warp_xor", "warp_down", "smem_tree", "vectorized")
                                    for op in ("reduce_sum", "reduce_max")}
    assert cuda_reduce.OP_CODES == {"reduce_sum": 0, "reduce_max": 1}
    assert cuda_reduce.LAYOUTS == ("warp_per_row", "block_per_row", "grid_then_one_block")
    assert cuda_reduce.VARIANT_CODES["auto"] not in range(4)


def test_the_parser_refuses_what_it_cannot_read(tmp_path):
    table = tmp_path / "t.def"
    table.write_text('// a comment\n\nSK_T(a, 0, "first")\nSK_T(b, 1, "second, with a comma")\n')
    assert codes.read("t.def", tmp_path) == {"SK_T": (codes.Entry("a", 0, "first"),
                                                     codes.Entry("b", 1, "second, with a comma"))}
    for bad in ('SK_T(a, 0, "x") // trailing', "#if 0", 'SK_T(a, 0, "x"); SK_T(b, 1, "y")', "SK_T(a, zero, \"x\")"):
        table.write_text(bad + "\n")
        with pytest.raises(ValueError, match="expected SK_<TABLE>"):
            codes.read("t.def", tmp_path)
    with pytest.raises(ValueError, match="codes must be 0..1"):
        codes.names_by_code((codes.Entry("a", 0, ""), codes.Entry("b", 2, "")))


def test_why_unsupported_answers_for_empty_inputs_without_a_gpu():
    for shape in ((0, 5), (5, 0), (0, 0)):
        x = torch.zeros(shape)
        for variant in ("auto", *cuda_softmax.LADDER):
            assert cuda_softmax.why_unsupported(x, "softmax", variant) is None
        for variant in ("auto", *cuda_reduce.VARIANT_NAMES):
            assert cuda_reduce.why_unsupported(x, "reduce_sum", variant) is None


def _declared_parameters(function: str) -> list[str]:
    text = (CSRC / build.BINDINGS).read_text()
    params = re.search(rf"\b{function}\(([^)]*)\)\s*[;{{]", text).group(1)
    return [p.split()[-1] for p in params.split(",")]


class _Recorder:
    """An extension stand-in that records each call and answers with what the Python
    side needs to go on."""

    def __init__(self, answers):
        self.calls, self.answers = [], answers

    def __getattr__(self, name):
        def call(*args):
            self.calls.append((name, args))
            return self.answers.get(name)
        return call


@pytest.mark.parametrize("variant", ["auto", "naive", "cluster_regs"])
def test_softmax_calls_match_the_bindings(monkeypatch, variant):
    """plan and run pass each argument in the position bindings.cpp declares, in one call."""
    fields = [0] * len(cuda_softmax.PLAN_FIELDS)
    fields[cuda_softmax.PLAN_FIELDS.index("pack")] = 4
    recorder = _Recorder({"softmax_plan": (fields, "kernel<...>", "why")})
    monkeypatch.setattr(cuda_softmax, "extension", lambda: recorder)
    x = torch.zeros(6, 1032)[:, 8:]
    p = cuda_softmax.plan(x, "log_softmax", variant)
    assert (p["variant"], p["status"], p["reason_code"]) == ("naive", "ok", "requested")  # code 0 of each table
    assert (p["kernel"], p["reason"], p["pack_bytes"]) == ("kernel<...>", "why", 16)
    out = torch.empty(6, 1024)
    cuda_softmax.run(x, "log_softmax", variant, out=out)
    assert [name for name, _ in recorder.calls] == ["softmax_plan", "softmax_forward"]
    plan_args = dict(zip(_declared_parameters("softmax_plan"), recorder.calls[0][1], strict=True))
    assert (plan_args["x_ptr"], plan_args["rows"], plan_args["cols"]) == (x.data_ptr(), 6, 1024)
    assert plan_args["x_row_stride"] == 1032 and plan_args["device"] == x.device.index
    forward = dict(zip(_declared_parameters("softmax_forward"), recorder.calls[1][1], strict=True))
    assert forward["x"] is x and forward["out"] is out and forward["log"] is True
    for got in (plan_args, forward):
        assert got["dtype"] == 0 and got["variant"] == cuda_softmax.VARIANT_CODES[variant]
    cuda_softmax.run(x, "softmax", variant)
    forward = dict(zip(_declared_parameters("softmax_forward"), recorder.calls[2][1], strict=True))
    assert forward["out"] is None and forward["log"] is False  # the extension allocates the result


@pytest.mark.parametrize("variant", ["auto", "cluster_regs"])
def test_softmax_backward_calls_match_the_bindings(monkeypatch, variant):
    """The backward's plan and run pass y, dy (with its own row stride) and dx in the
    positions bindings.cpp declares."""
    fields = [0] * len(cuda_softmax.PLAN_FIELDS)
    fields[cuda_softmax.PLAN_FIELDS.index("variant")] = cuda_softmax.VARIANT_CODES["cluster_regs"]
    recorder = _Recorder({"softmax_backward_plan": (fields, "kernel<...>", "why")})
    monkeypatch.setattr(cuda_softmax, "extension", lambda: recorder)
    y = torch.zeros(6, 1032)[:, 8:]
    dy = torch.zeros(6, 1040)[:, 16:]
    p = cuda_softmax.plan(y, "softmax_backward", variant, dy)
    assert p["variant"] == "cluster_regs" and p["op"] == "softmax_backward"
    out = torch.empty(6, 1024)
    cuda_softmax.run(y, "log_softmax_backward", variant, out=out, dy=dy)
    assert [name for name, _ in recorder.calls] == ["softmax_backward_plan", "softmax_backward"]
    plan_args = dict(zip(_declared_parameters("softmax_backward_plan"), recorder.calls[0][1], strict=True))
    assert (plan_args["y_ptr"], plan_args["dy_ptr"], plan_args["rows"], plan_args["cols"]) == (
        y.data_ptr(), dy.data_ptr(), 6, 1024)
    assert (plan_args["y_row_stride"], plan_args["dy_row_stride"]) == (1032, 1040)
    run_args = dict(zip(_declared_parameters("softmax_backward"), recorder.calls[1][1], strict=True))
    assert run_args["y"] is y and run_args["dy"] is dy and run_args["out"] is out and run_args["log"] is True
    for got in (plan_args, run_args):
        assert got["variant"] == cuda_softmax.VARIANT_CODES[variant] and got["dtype"] == 0
    with pytest.raises(ValueError, match="needs dy"):
        cuda_softmax.run(y, "softmax_backward", variant, out=out, dy=dy[:, :5])


def test_sources_include_no_torch_headers():
    # CI's CPU-only torch lacks the CUDA headers torch/ATen/c10 would pull in; the
    # launchers take plain integers instead.
    checked = []
    for path in build.source_files():
        if path.suffix not in (".cu", ".cuh", ".def"):
            continue
        includes = re.findall(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', path.read_text(), flags=re.M)
        bad = [inc for inc in includes if inc.split("/")[0] in ("torch", "ATen", "c10", "pybind11")]
        assert not bad, f"{path.relative_to(CSRC)} includes {bad}"
        checked.append(path.relative_to(CSRC).as_posix())
    assert any("/" in name for name in checked), f"no header in a subfolder was checked: {checked}"


def test_build_hash_covers_the_subfolders(tmp_path, monkeypatch):
    """A change to a header or .def table in a subfolder gives the extension a new name."""
    copy = tmp_path / "csrc"
    shutil.copytree(CSRC, copy)
    monkeypatch.setattr(build, "CSRC", copy)
    names = {p.relative_to(copy).as_posix() for p in build.source_files()}
    assert {"softmax.cu", "bindings.cpp", "softmax/warp_per_row.cuh", "softmax/variants.def",
            "common/packs.cuh", "reduce/rows.cuh"} <= names
    before = build.extension_name(["-O3"], "cpp", "cu")
    header = copy / "softmax" / "warp_per_row.cuh"
    header.write_text(header.read_text() + "\n")
    assert build.extension_name(["-O3"], "cpp", "cu") != before
