"""The wheel ships every package and every CUDA source, and the installed sources compile.

A wheel is built (``pip wheel --no-deps --no-build-isolation``: offline, with the
setuptools of this environment) from a copy of the checkout's files (tracked, and
untracked but not ignored: what the next commit ships), so nothing is written into the
checkout and no stale build/lib can hide a missing file. Then:

* every Python package under comparison/, kernels_cuda/ and kernels_triton/ (each folder
  with an __init__.py) is in the wheel with all its modules;
* every file under kernels_cuda/csrc, subfolders included, is in the wheel;
* with nvcc: the installed copy's own `kernels_cuda.build.cuda_unit()` compiles for sm_90
  (``-arch=sm_90 -c``, the build's flags and torch's) against the installed csrc alone, so
  a wheel that lacks a header fails; and a copy of that csrc without one of the headers
  the unit includes must fail to preprocess (the check can fail).

Takes about a minute (the nvcc compile of the unit).
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE_ROOTS = ("comparison", "kernels_cuda", "kernels_triton")
CSRC = "kernels_cuda/csrc"


def _checkout_files() -> list[str]:
    """Files the next commit would ship: tracked plus untracked-not-ignored; without git,
    the tree minus build outputs."""
    if shutil.which("git") and (REPO / ".git").exists():
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             cwd=REPO, capture_output=True, check=True).stdout
        return sorted({f for f in out.decode().split("\0") if f and (REPO / f).is_file()})
    skip = {"build", "dist", "__pycache__", ".git", ".pytest_cache"}
    return sorted(p.relative_to(REPO).as_posix() for p in REPO.rglob("*")
                  if p.is_file() and not skip & set(p.relative_to(REPO).parts)
                  and not any(part.endswith(".egg-info") for part in p.parts))


@pytest.fixture(scope="module")
def checkout() -> list[str]:
    return _checkout_files()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory, checkout) -> tuple[Path, list[str]]:
    """(the folder the built wheel is unpacked into, the wheel's file names)."""
    if importlib.util.find_spec("setuptools") is None:
        pytest.skip("setuptools (pyproject.toml's build backend) is not installed here: --no-build-isolation needs "
                    "it, and an isolated build would download it")
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"
    for name in checkout:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, source / name)
    dist = tmp / "dist"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
                            "--no-index", "--disable-pip-version-check", "-q", "-w", str(dist)],
                           capture_output=True, text=True, cwd=tmp)
    assert built.returncode == 0, f"pip wheel failed:\n{built.stdout}\n{built.stderr}"
    (whl,) = dist.glob("*.whl")
    site = tmp / "site"
    with zipfile.ZipFile(whl) as z:
        names = z.namelist()
        z.extractall(site)
    return site, names


def test_every_package_and_module_is_shipped(checkout, wheel):
    _, names = wheel
    shipped = set(names)
    packages = sorted({str(Path(f).parent) for f in checkout
                       if f.endswith("/__init__.py") and f.split("/")[0] in PACKAGE_ROOTS})
    assert {"comparison", "comparison/harness", "kernels_cuda", "kernels_triton"} <= set(packages)
    missing = [f for f in checkout if f.endswith(".py") and str(Path(f).parent) in packages and f not in shipped]
    missing_packages = sorted({str(Path(f).parent).replace("/", ".") for f in missing})
    assert not missing, (f"the wheel lacks packages {missing_packages} (files {missing}): list them in "
                         f"pyproject.toml [tool.setuptools] packages")


def test_every_cuda_source_is_shipped(checkout, wheel):
    _, names = wheel
    sources = [f for f in checkout if f.startswith(CSRC + "/")]
    assert any(f.count("/") > 2 for f in sources), "expected sources in csrc subfolders"
    missing = sorted(set(sources) - set(names))
    assert not missing, f"the wheel lacks CUDA sources (pyproject.toml package-data): {missing}"


def _find_nvcc() -> str | None:
    found = shutil.which("nvcc")
    if found:
        return found
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home and Path(home, "bin", "nvcc").exists():
            return str(Path(home, "bin", "nvcc"))
    return None


NVCC = _find_nvcc()
needs_nvcc = pytest.mark.skipif(NVCC is None, reason="nvcc not found (install the CUDA toolkit or set CUDA_HOME)")


def _installed_build(site: Path) -> dict:
    """What the installed kernels_cuda.build says: its CSRC, flags and cuda_unit(). The
    unpacked wheel leads sys.path (an editable install's finder comes after the path
    entries), and the answer must come from it, not from the checkout."""
    code = ("import json, kernels_cuda.build as b; "
            "print(json.dumps({'file': b.__file__, 'csrc': str(b.CSRC), 'flags': b.CUDA_FLAGS, "
            "'unit': b.cuda_unit()}))")
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=site)
    assert done.returncode == 0, f"the installed kernels_cuda.build does not import:\n{done.stderr}"
    info = json.loads(done.stdout)
    assert Path(info["file"]).is_relative_to(site) and Path(info["csrc"]).is_relative_to(site), info
    return info


def _nvcc(info: dict, csrc: str, unit: Path, *mode: str) -> subprocess.CompletedProcess:
    try:  # the flags torch's extension builder puts in front of every nvcc command
        from torch.utils.cpp_extension import COMMON_NVCC_FLAGS
    except ImportError:
        COMMON_NVCC_FLAGS = []
    cmd = [NVCC, "-arch=sm_90", *mode, *info["flags"], *COMMON_NVCC_FLAGS, f"-I{csrc}", str(unit)]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=unit.parent)
    done.cmd = " ".join(cmd)
    return done


@needs_nvcc
def test_installed_sources_compile_for_sm90(wheel, tmp_path):
    site, _ = wheel
    info = _installed_build(site)
    unit = tmp_path / "unit" / "load_inline_unit.cu"  # alone in its folder: includes resolve through -I only
    unit.parent.mkdir()
    unit.write_text(info["unit"])
    done = _nvcc(info, info["csrc"], unit, "-c", "-o", str(tmp_path / "unit.o"))
    assert done.returncode == 0, f"the installed sources do not compile:\n{done.cmd}\n{done.stdout}{done.stderr}"


@needs_nvcc
def test_a_wheel_missing_a_header_would_fail(wheel, tmp_path):
    """The compile above can fail: without one of the headers the unit reaches, the
    installed sources do not even preprocess."""
    site, _ = wheel
    info = _installed_build(site)
    csrc = tmp_path / "csrc"
    shutil.copytree(info["csrc"], csrc)
    unit = tmp_path / "unit" / "load_inline_unit.cu"
    unit.parent.mkdir()
    unit.write_text(info["unit"])
    deps = _nvcc(info, str(csrc), unit, "-M")  # the files the unit includes, one per line
    assert deps.returncode == 0, f"{deps.cmd}\n{deps.stderr}"
    used = [h for h in sorted(csrc.rglob("*.cuh")) if h.as_posix() in deps.stdout.replace("\\\n", " ")]
    assert used, f"the unit includes no csrc header:\n{deps.stdout}"
    used[0].unlink()
    broken = _nvcc(info, str(csrc), unit, "-E", "-o", os.devnull)
    assert broken.returncode != 0 and used[0].name in broken.stderr, broken.stderr
