"""benchmarks/tuning/compare_plans.py, the check that a refactor changes no launch plan
and that a rule gated on a GPU property leaves the other GPUs as they were: two copies of
the checkout agree (exit 0), and a copy with one threshold moved is named, on the GPU
that the threshold concerns alone (exit 1). No GPU needed; the CUDA half needs nvcc."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "benchmarks" / "tuning" / "compare_plans.py"
TRITON_RULE = "FUSED_EDGES_FAST_MIN_SPAN = {4: 0, 2: 256}"
CUDA_RULE = "kWarpRowRows16FourPacksMaxFillNum = 4,"


def _tree(path: Path, triton_edit: tuple[str, str] | None = None, cuda_edit: tuple[str, str] | None = None) -> Path:
    """A copy of the checkout's kernels under `path`, with one text replaced in each where asked."""
    for package, name, edit in (("kernels_triton", "softmax_fused.py", triton_edit),
                                ("kernels_cuda", "csrc/softmax/warp_per_row.cuh", cuda_edit)):
        shutil.copytree(ROOT / package, path / package, ignore=shutil.ignore_patterns("__pycache__"))
        if edit:
            source = path / package / name
            text = source.read_text()
            assert edit[0] in text, edit[0]
            source.write_text(text.replace(edit[0], edit[1]))
    return path


def _compare(old: Path, new: Path, gpus: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOL), str(old), str(new), "--gpus", gpus, "--cols", "131,392"],
                          capture_output=True, text=True, cwd=ROOT)


def test_copies_of_the_checkout_plan_alike(tmp_path):
    old, new = _tree(tmp_path / "old"), _tree(tmp_path / "new")
    result = _compare(old, new, "H100,H200,none")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "triton: 432 cases, 0 differ" in result.stdout
    assert "cuda: 12 cases, 0 differ" in result.stdout or "cuda: skipped (nvcc not found)" in result.stdout


def test_a_moved_threshold_is_named_on_its_gpu_alone(tmp_path):
    old = _tree(tmp_path / "old")
    new = _tree(tmp_path / "new", (TRITON_RULE, TRITON_RULE.replace("256", "512")),
                (CUDA_RULE, CUDA_RULE.replace("4", "3")))
    fast = _compare(old, new, "H200")
    assert fast.returncode == 1, fast.stdout + fast.stderr
    assert "triton H200 bfloat16 131 " in fast.stdout and " forward" in fast.stdout
    if "nvcc not found" not in fast.stdout:
        assert "cuda fast1 bf16 392" in fast.stdout, fast.stdout  # 49 of 64 packs: over 3/5
    # The H100 (25 GB/s of DRAM bandwidth per SM) takes neither rule.
    slow = _compare(old, new, "H100")
    assert slow.returncode == 0, slow.stdout + slow.stderr
