"""`python -m comparison plot` and `--plot`: a PNG from a saved JSON report, honest about
runs without timings."""
import json
import subprocess
import sys

import pytest

from comparison.harness import plot
from comparison.harness.cli import main

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "comparison", *args], capture_output=True, text=True)


@pytest.fixture
def needs_matplotlib():
    pytest.importorskip("matplotlib", reason="plots need matplotlib (pip install -e '.[plot]')")


@pytest.fixture
def saved_report(tmp_path):
    path = tmp_path / "r.json"
    # --check-only: a report without timings on any machine (a GPU would otherwise time it).
    assert main(["--cols", "32,128", "--backends", "torch", "--dtype", "fp32", "--op", "softmax,reduce_max",
                 "--check-only", "--format", "json", "--output", str(path)]) == 0
    return path


def _timed(doc: dict) -> dict:
    """The same report as a GPU run would write it: timings and a copy ceiling."""
    doc = dict(doc, timing=True, copy_gbps=3000.0, device="NVIDIA H100 80GB HBM3 (cuda:0, 132 SMs, 79 GiB, L2 50 MiB)")
    doc["results"] = [dict(r, ms=0.5, gbps=2900.0, pct_of_copy=90.0 + i) for i, r in enumerate(doc["results"])]
    return doc


def test_plot_subcommand_writes_a_png_from_a_saved_report(needs_matplotlib, saved_report, tmp_path):
    fig = tmp_path / "fig.png"
    proc = run_cli("plot", str(saved_report), "-o", str(fig))
    assert proc.returncode == 0, proc.stderr
    assert fig.read_bytes().startswith(PNG_SIGNATURE)


def test_a_run_without_timings_is_drawn_as_errors_and_says_so(needs_matplotlib, saved_report, tmp_path):
    doc = json.loads(saved_report.read_text())
    assert doc["timing"] is False
    assert "no GPU timings" in plot._title(doc, timed=False)
    assert plot.plot_results(doc, tmp_path / "cpu.png").read_bytes().startswith(PNG_SIGNATURE)


def test_a_timed_report_is_drawn_as_percent_of_copy(needs_matplotlib, saved_report, tmp_path):
    doc = _timed(json.loads(saved_report.read_text()))
    title = plot._title(doc, timed=True)
    assert "NVIDIA H100" in title and "% of a device-to-device copy" in title and doc["date"][:10] in title
    assert plot.plot_results(doc, tmp_path / "gpu.png").read_bytes().startswith(PNG_SIGNATURE)


def test_plot_option_of_a_sweep(needs_matplotlib, tmp_path, capsys):
    fig = tmp_path / "sweep.png"
    assert main(["--cols", "16,64", "--backends", "torch", "--dtype", "fp32", "--op", "softmax", "--plot", str(fig)]) == 0
    assert fig.read_bytes().startswith(PNG_SIGNATURE)


def test_one_panel_per_op_dtype_and_pass():
    results = [{"op": op, "dtype": d, "pass": p, "rows": 4, "cols": c, "backend": "torch", "variant": "auto"}
               for op in ("softmax", "reduce_sum") for d in ("fp32", "bf16") for p in ("fwd",) for c in (16, 32)]
    panels = plot._panels(results)
    assert list(panels) == [("softmax", "fp32", "fwd"), ("softmax", "bf16", "fwd"), ("reduce_sum", "fp32", "fwd"),
                            ("reduce_sum", "bf16", "fwd")]
    assert list(plot._lines(panels[("softmax", "fp32", "fwd")])) == ["torch/auto"]
    assert [plot._width_label(c) for c in (128, 2048, 65536, 1 << 20, 1000)] == ["128", "2K", "64K", "1M", "1000"]


@pytest.mark.parametrize("content, message", [
    ("not json", "is not a JSON report"),
    ('{"a": 1}', "no 'results' list"),
])
def test_plot_of_something_else_exits_2(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    proc = run_cli("plot", str(path), "-o", str(tmp_path / "f.png"))
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr


def test_without_matplotlib_plot_says_what_to_install(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(plot, "matplotlib_missing", lambda: "plots need matplotlib, which is not installed")
    with pytest.raises(SystemExit) as exc:
        main(["--cols", "16", "--backends", "torch", "--plot", str(tmp_path / "f.png")])
    assert exc.value.code == 2
    assert "--plot: plots need matplotlib" in capsys.readouterr().err
