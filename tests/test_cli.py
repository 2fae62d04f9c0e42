"""`python -m comparison` on this machine: agreement tables, formats and exit codes."""
import json
import subprocess
import sys

import pytest
import torch

from comparison import get_backend
from comparison.harness.cli import main

ON_GPU = torch.cuda.is_available()


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "comparison", *args], capture_output=True, text=True)


def _env_without_triton_interpret() -> dict:
    """This process's environment as a user's shell has it: conftest.py set TRITON_INTERPRET
    for the tests, which would hide a CLI that sets it too late."""
    import os

    return {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}


def test_a_cpu_run_interprets_triton_when_the_user_did_not_ask():
    # The CLI turns on Triton's interpreter for a CPU run; Triton reads the switch once,
    # at its import, so nothing `import comparison` does may import Triton first (a
    # decorator that imported torch._dynamo did, and every Triton row failed).
    env = _env_without_triton_interpret()
    probe = subprocess.run([sys.executable, "-c", "import sys, comparison; print('triton' in sys.modules)"],
                           capture_output=True, text=True, env=env)
    assert probe.returncode == 0 and probe.stdout.strip() == "False", probe.stdout + probe.stderr
    proc = subprocess.run([sys.executable, "-m", "comparison", "--cols", "64", "--backends", "triton", "--dtype",
                           "fp32", "--op", "softmax", "--device", "cpu", "--check-only"],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 agree, 0 fail" in proc.stdout, proc.stdout


def test_default_sweep_prints_one_table_per_op_and_dtype():
    proc = run_cli("--cols", "512,2048", "--backends", "torch", "--op", "softmax", "--check-only")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "device:" in out and "torch " in out
    assert "softmax fwd fp32" in out and "softmax fwd bf16" in out
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
    keys = {"op", "pass", "dtype", "rows", "cols", "backend", "variant", "ms", "gbps", "pct_of_copy",
            "speedup_vs_torch", "max_abs_err", "max_rel_err", "ok", "own", "note"}
    assert len(doc["results"]) == 4
    for r in doc["results"]:
        assert keys <= set(r)
        assert r["ok"] is True


@pytest.mark.parametrize("fmt", ["markdown", "csv"])
def test_other_formats(fmt, capsys):
    assert main(["--cols", "16", "--backends", "torch", "--dtype", "fp32", "--op", "softmax",
                 "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert ("| rows" in out) if fmt == "markdown" else out.startswith("op,pass,dtype,rows,cols")


def _wrong_softmax(self, x, op, variant="auto", *, dy=None):
    return torch.softmax(x, -1) * 1.01


def _wrong_into(self, x, op, variant, out, *, dy=None):
    return out.copy_(_wrong_softmax(self, x, op))


def test_a_wrong_kernel_of_this_package_exits_1(monkeypatch, capsys):
    from kernels_triton.backend import TritonBackend

    monkeypatch.setattr(TritonBackend, "run", _wrong_softmax)
    monkeypatch.setattr(TritonBackend, "run_into", _wrong_into)
    assert main(["--cols", "16", "--backends", "triton,torch", "--dtype", "fp32", "--op", "softmax"]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "1 fail" in out


def test_a_peer_that_disagrees_is_a_finding_not_a_failure(monkeypatch, capsys):
    from comparison import torch_backend

    monkeypatch.setattr(torch_backend.TorchBackend, "run", _wrong_softmax)
    assert main(["--cols", "16", "--backends", "torch", "--dtype", "fp32", "--op", "softmax"]) == 0
    out = capsys.readouterr().out
    assert "1 peer finding" in out and "torch" in out.splitlines()[-1]


@pytest.mark.skipif(ON_GPU, reason="needs a machine without CUDA")
def test_nothing_checked_is_not_success():
    proc = run_cli("--cols", "64", "--backends", "cuda", "--op", "softmax", "--dtype", "fp32")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "backend cuda unavailable" in proc.stdout and "nothing was checked" in proc.stdout


def test_json_notes_carry_the_failure_reason(monkeypatch, tmp_path):
    from kernels_triton.backend import TritonBackend

    monkeypatch.setattr(TritonBackend, "run", _wrong_softmax)
    monkeypatch.setattr(TritonBackend, "run_into", _wrong_into)
    path = tmp_path / "r.json"
    main(["--cols", "16", "--backends", "triton", "--dtype", "fp32", "--op", "softmax", "--format", "json",
          "--output", str(path)])
    (row,) = json.loads(path.read_text())["results"]
    assert row["ok"] is False and "outside tolerance" in row["note"]


def test_backward_passes(tmp_path):
    path = tmp_path / "r.json"
    code = main(["--cols", "33", "--backends", "torch", "--dtype", "fp32", "--op", "softmax,log_softmax,reduce_sum",
                 "--pass", "fwd,bwd,fwd+bwd", "--format", "json", "--output", str(path)])
    assert code == 0
    results = json.loads(path.read_text())["results"]
    passes = {(r["op"], r["pass"]) for r in results}
    assert passes == {("softmax", "fwd"), ("softmax", "bwd"), ("softmax", "fwd+bwd"), ("log_softmax", "fwd"),
                      ("log_softmax", "bwd"), ("log_softmax", "fwd+bwd"), ("reduce_sum", "fwd")}
    assert all(r["ok"] for r in results)


def test_long_layout_when_wide_does_not_fit():
    from comparison.harness import report
    from comparison.harness.sweep import Result

    results = [Result("softmax", "fwd", "fp32", 4, c, "b", f"v{i}", True, ok=True, max_rel_err=1e-7)
               for c in (16, 32) for i in range(12)]
    assert report.choose_layout("auto", results, False, False, width=80) == "long"
    assert report.choose_layout("auto", results[:1], False, False, width=80) == "wide"
    assert report.choose_layout("wide", results, False, False, width=80) == "wide"
    text = "\n".join(report.long_tables(results, False, False))
    assert "b/v11" in text and max(len(line) for line in text.splitlines()) < 80


@pytest.mark.parametrize("args, message", [
    (["--cols", "0"], "positive integers"),
    (["--cols", "a,b"], "comma-separated integers"),
    ([], "--cols"),
    (["--cols", "8", "--dtype", "fp8"], "invalid choice"),
    (["--cols", "8", "--backends", "tpu"], "invalid choice"),
    (["--cols", "8", "--variants", "nonsense"], "unknown variant"),
    (["--cols", "8", "--format", "xml"], "invalid choice"),
    (["--cols", "8", "--rows", "0"], "--rows"),
    (["--cols", "512,,2048"], "empty items"),
    (["--cols", "8", "--output", "/nonexistent/dir/x.txt"], "does not exist"),
    (["--cols", "8", "--pass", "sideways"], "invalid choice"),
    (["--cols", "8", "--variants", "bogus"], "unknown variant(s) bogus; valid: auto, all,"),
])
def test_bad_arguments_exit_2_without_traceback(args, message):
    proc = run_cli(*args)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_variant_of_an_unavailable_backend_says_so():
    if get_backend("cuda").is_available():
        pytest.skip("cuda is available here")
    proc = run_cli("--cols", "8", "--variants", "warp_per_row")
    assert proc.returncode == 2
    assert "'warp_per_row' belongs to cuda, which is not selected or is unavailable here" in proc.stderr


def test_bogus_variant_lists_each_name_once_with_the_reduction_variants():
    proc = run_cli("--cols", "8", "--variants", "bogus")
    valid = proc.stderr.split("valid: ", 1)[1]
    names = [v.strip() for v in valid.split(",")]
    assert names.count("auto") == 1 and "two_stage" in names and "vectorized" in names


def test_help_names_every_format_and_the_subcommands():
    proc = run_cli("--help")
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert "--format {table,markdown,csv,json}" in text
    assert "table (plain text), markdown, csv or json" in text
    assert "python -m comparison plot" in text and "python -m comparison record" in text
    for sub in ("plot", "record"):
        proc = run_cli(sub, "--help")
        assert proc.returncode == 0 and f"python -m comparison {sub}" in proc.stdout


@pytest.mark.skipif(ON_GPU, reason="checks the CPU note")
def test_min_bytes_on_cpu_says_it_only_sizes_gpu_inputs():
    proc = run_cli("--cols", "64", "--backends", "torch", "--op", "softmax", "--dtype", "fp32", "--min-bytes", "1GiB")
    assert proc.returncode == 0, proc.stderr
    assert "note: --min-bytes sizes GPU inputs; on the CPU inputs stay small" in proc.stdout


def test_console_script_is_the_cli():
    """`pip install` puts a softmax-comparison script next to the interpreter."""
    import os
    import shutil
    from importlib.metadata import distributions

    # Every install's metadata (a stale egg-info of an older install may sit in the tree too).
    targets = {e.value: e for d in distributions() for e in d.entry_points
               if e.group == "console_scripts" and e.name == "softmax-comparison"}
    if not targets:
        pytest.skip("the package is not installed here")
    assert targets["comparison.harness.cli:main"].load() is main
    script = shutil.which("softmax-comparison", path=os.path.dirname(sys.executable)) or shutil.which("softmax-comparison")
    if script is None:
        pytest.skip("the package is not installed with its scripts here")
    proc = subprocess.run([script, "--cols", "16", "--backends", "torch", "--op", "softmax", "--dtype", "fp32"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "1 agree, 0 fail" in proc.stdout


@pytest.mark.skipif(ON_GPU, reason="Triton's CPU interpreter runs only without a GPU")
def test_a_correct_run_leaves_stderr_clean():
    """No progress bar when stderr is not a terminal, and no numpy RuntimeWarnings from
    Triton's CPU interpreter (fp16 sums overflowing to inf, as torch's do)."""
    proc = run_cli("--cols", "512", "--backends", "triton,torch", "--op", "reduce_sum", "--dtype", "fp16")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""


# -- --latency (GPU only) -------------------------------------------------------------------

@pytest.mark.skipif(ON_GPU, reason="checks the refusal without a GPU")
def test_latency_needs_a_gpu():
    proc = run_cli("--cols", "64", "--backends", "torch", "--latency")
    assert proc.returncode == 2
    assert "--latency measures kernel launches on a CUDA GPU" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("pass_", ["fwd", "bwd", "fwd+bwd"])
def test_latency_times_the_public_call(pass_):
    from comparison.harness.latency import public_call

    x, dy = torch.randn(2, 8), torch.randn(2, 8)
    out = public_call("softmax", pass_, "torch", "auto", x, dy)()
    expected = torch.softmax(x, -1) if pass_ == "fwd" else torch._softmax_backward_data(dy, torch.softmax(x, -1), -1,
                                                                                          x.dtype)
    torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-6)


def test_latency_graphs_hold_many_calls_unless_their_outputs_would_fill_memory():
    # One call per graph timed the host's replays (5-10 us whatever the kernel): graphs
    # hold GRAPH_CALLS calls, fewer where the outputs each call keeps pass GRAPH_POOL_BYTES.
    from comparison.harness import latency
    from comparison.harness.cli import build_parser

    assert latency.graph_calls(torch.empty(1, 1024), "fwd") == latency.GRAPH_CALLS == 20
    per_call = latency.GRAPH_POOL_BYTES // 4  # bytes of fp32 output that leave room for 4 calls
    big = torch.empty(1).expand(per_call // 4)  # its numel without the memory
    assert latency.graph_calls(big, "fwd") == 4 and latency.graph_calls(big, "bwd") == 1
    assert latency.graph_calls(torch.empty(0), "fwd") == latency.GRAPH_CALLS
    help_text = " ".join(build_parser().format_help().split())
    assert f"graph of {latency.GRAPH_CALLS} calls" in help_text


def test_latency_report_names_the_floor_and_each_method():
    from comparison.harness.latency import Latency, render

    floor = Latency("empty kernel", "", "", 0, 0, "torch.cuda._sleep(0)", "", 2.1, 4.0, 5.2, 1)
    rows = [Latency("softmax", "fwd", "fp32", 1, 128, "cuda", "auto", 3.0, 5.5, 9.8, 1),
            Latency("softmax", "fwd", "fp32", 1, 128, "torch_compile", "auto", None, 6.0, 30.1, 2,
                    "graph: RuntimeError: capture failed")]
    text = render(rows, floor, "table", ["device: test"])
    assert "floor (an empty kernel, torch.cuda._sleep(0)): graph 2.1 us, bench 4.0 us, loop 5.2 us, launches 1" in text
    assert "softmax fwd fp32 (latency)" in text and "graph: RuntimeError: capture failed" in text
    doc = json.loads(render(rows, floor, "json", []))
    assert doc["floor"]["launches"] == 1 and doc["results"][1]["graph_us"] is None


@pytest.mark.skipif(not ON_GPU, reason="needs a CUDA GPU (none is visible to PyTorch)")
def test_latency_on_the_gpu(tmp_path):
    path = tmp_path / "lat.json"
    assert main(["--cols", "128,4096", "--backends", "torch,triton,cuda", "--op", "softmax", "--dtype", "fp32",
                 "--latency", "--format", "json", "--output", str(path)]) == 0
    doc = json.loads(path.read_text())
    assert doc["floor"]["launches"] == 1 and doc["floor"]["graph_us"] > 0
    for r in doc["results"]:
        assert r["graph_us"] and r["bench_us"] and r["loop_us"] and r["launches"] >= 1, r
