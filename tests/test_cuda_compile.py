"""The shipped CUDA sources compile with nvcc for sm_90 and keep their registers (no GPU).

CI has nvcc and a CPU-only torch: each csrc/*.cu is compiled on its own (errors point
at one file), and so is the single unit build.py hands to load_inline (the files
together: catches names two files both define), with the flags torch adds to every
nvcc call. ptxas's report (-Xptxas -v) is printed per kernel; kernels that keep rows
in registers or shared memory must not spill. Also checked without compiling: the
binding list, the Python/C++ code tables, and that no source includes torch headers.

    python -m pytest tests/test_cuda_compile.py -q -s    # -s prints the register table
"""
from __future__ import annotations

import concurrent.futures
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from kernels_cuda import build
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
REGISTER_RESIDENT = ("warp_per_row", "block_smem", "cluster_smem", "cluster_regs", "cluster_tma",
                     "block_hybrid")
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
        row["name"] = re.sub(r"\((?:[^()]|\([^()]*\))*\)$", "", name)  # drop the parameter list
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


def test_every_binding_is_listed_in_build_functions():
    text = (CSRC / build.BINDINGS).read_text()
    text = re.sub(r"//[^\n]*", "", text)
    declared = set(re.findall(r"^[A-Za-z_][\w:<>, ]*?[\s*&](\w+)\s*\([^;{]*\)\s*;", text, flags=re.M))
    listed = set(build.FUNCTIONS)
    assert declared, "no declarations found in bindings.cpp"
    assert declared == listed, (f"declared in bindings.cpp but not in build.FUNCTIONS: {sorted(declared - listed)}; "
                                f"listed but not declared: {sorted(listed - declared)}")


def _enum(path: Path, name: str) -> dict[str, int]:
    text = path.read_text()
    body = re.search(rf"enum {name}\b[^{{]*\{{(.*?)\}};", text, flags=re.S)
    assert body, f"enum {name} not found in {path.name}"
    return {k: int(v) for k, v in re.findall(r"\bk(\w+)\s*=\s*(\d+)", body.group(1))}


def _snake(camel: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", camel).lower()


def test_softmax_codes_match_the_cuda_enums():
    cu = CSRC / "softmax.cu"
    assert {_snake(k): v for k, v in _enum(cu, "Variant").items()} == cuda_softmax.VARIANT_CODES
    fields = {_snake(k.removeprefix("Field")): v for k, v in _enum(cu, "PlanField").items()}
    assert fields.pop("count") == len(cuda_softmax.PLAN_FIELDS)
    assert fields == {name: i for i, name in enumerate(cuda_softmax.PLAN_FIELDS)}
    status = {_snake(k.removeprefix("Status")): v for k, v in _enum(cu, "PlanStatus").items()}
    assert status == {name: i for i, name in enumerate(cuda_softmax.PLAN_STATUS)}
    dtypes = _enum(CSRC / "common.cuh", "DType")
    assert dtypes == {"Float32": 0, "Float16": 1, "BFloat16": 2}
    assert sorted(cuda_softmax.DTYPE_CODES.values()) == sorted(dtypes.values())
    per_thread = int(re.search(r"kWarpRowMaxColsPerThread = (\d+);", cu.read_text()).group(1))
    assert 32 * per_thread == cuda_softmax.WARP_PER_ROW_MAX_COLS


def test_sources_include_no_torch_headers():
    # CI's CPU-only torch lacks the CUDA headers torch/ATen/c10 would pull in; the
    # launchers take plain integers instead.
    for path in CSRC.iterdir():
        if path.suffix not in (".cu", ".cuh"):
            continue
        includes = re.findall(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', path.read_text(), flags=re.M)
        bad = [inc for inc in includes if inc.split("/")[0] in ("torch", "ATen", "c10", "pybind11")]
        assert not bad, f"{path.name} includes {bad}"
