"""`python -m comparison` on this machine: agreement tables, formats and exit codes."""
import json
import subprocess
import sys

import pytest
import torch

from comparison.cli import main

ON_GPU = torch.cuda.is_available()


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "comparison", *args], capture_output=True, text=True)


def test_default_sweep_prints_one_table_per_op_and_dtype():
    proc = run_cli("--cols", "512,2048", "--backends", "torch", "--op", "softmax", "--check-only")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "device:" in out and "torch " in out
    assert "softmax fp32" in out and "softmax bf16" in out
    assert "torch/auto" in out


@pytest.mark.skipif(ON_GPU, reason="checks the CPU-only message")
def test_without_gpu_timings_are_skipped_with_one_line():
    proc = run_cli("--cols", "64", "--backends", "torch", "--op", "softmax", "--dtype", "fp32")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("timings need a CUDA GPU") == 1


def test_unavailable_backends_are_listed_with_their_reason():
    proc = run_cli("--cols", "64", "--op", "softmax", "--dtype", "fp32")
    if not ON_GPU:
        assert "backend cuda unavailable:" in proc.stdout


def test_json_output(tmp_path):
    path = tmp_path / "r.json"
    code = main(["--cols", "33,128", "--backends", "torch", "--dtype", "fp32", "--op",
                 "softmax,reduce_sum", "--format", "json", "--output", str(path)])
    assert code == 0
    doc = json.loads(path.read_text())
    assert {"device", "copy_gbps", "results"} <= set(doc)
    keys = {"op", "dtype", "rows", "cols", "backend", "variant", "ms", "gbps", "pct_of_copy",
            "speedup_vs_torch", "max_abs_err", "max_rel_err", "ok"}
    assert len(doc["results"]) == 4
    for r in doc["results"]:
        assert keys <= set(r)
        assert r["ok"] is True


@pytest.mark.parametrize("fmt", ["markdown", "csv"])
def test_other_formats(fmt, capsys):
    assert main(["--cols", "16", "--backends", "torch", "--dtype", "fp32", "--op", "softmax",
                 "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert ("| rows" in out) if fmt == "markdown" else out.startswith("op,dtype,rows,cols")


def test_failures_exit_1(monkeypatch):
    from comparison import torch_backend

    def wrong(self, x, op, variant="auto"):
        return torch.softmax(x, -1) * 1.01
    monkeypatch.setattr(torch_backend.TorchBackend, "run", wrong)
    assert main(["--cols", "16", "--backends", "torch", "--dtype", "fp32", "--op", "softmax"]) == 1


@pytest.mark.parametrize("args, message", [
    (["--cols", "0"], "positive integers"),
    (["--cols", "a,b"], "comma-separated integers"),
    ([], "--cols"),
    (["--cols", "8", "--dtype", "fp8"], "invalid choice"),
    (["--cols", "8", "--backends", "tpu"], "invalid choice"),
    (["--cols", "8", "--variants", "nonsense"], "unknown variant"),
    (["--cols", "8", "--format", "xml"], "invalid choice"),
    (["--cols", "8", "--rows", "0"], "--rows"),
])
def test_bad_arguments_exit_2_without_traceback(args, message):
    proc = run_cli(*args)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
