"""`python -m comparison record`: named sweeps written as tables, JSON, a plot and an index
into benchmarks/<gpu>/ (here: agreement-only records on the CPU into a temporary folder)."""
import json

import pytest
import torch

from comparison.harness import record
from comparison.harness.cli import main

TINY = record.Sweep("a tiny sweep for the tests", ("--cols", "16,32", "--dtype", "fp32,bf16", "--op", "softmax",
                                                   "--backends", "torch"))


@pytest.mark.parametrize("name, slug", [
    ("NVIDIA H100 80GB HBM3", "h100"),
    ("NVIDIA H200", "h200"),
    ("NVIDIA A100-SXM4-80GB", "a100"),
    ("NVIDIA GeForce RTX 4090", "rtx4090"),
    ("NVIDIA L40S", "l40s"),
])
def test_folder_named_after_the_gpu(name, slug):
    assert record.device_slug(name) == slug


def test_every_sweep_is_a_valid_command_line():
    from comparison.harness.cli import build_parser

    for name, sweep in record.SWEEPS.items():
        args = build_parser().parse_args(list(sweep.argv))
        assert args.cols, name
    assert list(record.SWEEPS) == ["forward", "forward_wide", "backward", "backward_wide", "step", "ladder",
                                   "reductions", "few_rows", "vocab", "default"]
    vocab = build_parser().parse_args(list(record.SWEEPS["vocab"].argv))
    assert 50257 in vocab.cols and any(c % 8 for c in vocab.cols), "an odd (misaligned) width among them"
    reductions = build_parser().parse_args(list(record.SWEEPS["reductions"].argv))
    assert reductions.dtype == ["fp32", "bf16", "fp16"], "every dtype the reductions take"
    few = build_parser().parse_args(list(record.SWEEPS["few_rows"].argv))
    assert few.latency and few.rows == [1, 4, 16, 64] and few.cols[0] == 32768 and few.cols[-1] == 1048576


def test_narrowing_a_sweep_names_its_files():
    argv, stem = record.narrowed("forward", record.SWEEPS["forward"], ["fp32"], None)
    assert stem == "forward-fp32" and argv[argv.index("--dtype") + 1] == "fp32"
    argv, stem = record.narrowed("default", record.SWEEPS["default"], ["bf16"], ["log_softmax"])
    assert stem == "default-log_softmax-bf16" and "--dtype" in argv and "--op" in argv
    assert record.narrowed("ladder", record.SWEEPS["ladder"], None, None)[1] == "ladder"
    with pytest.raises(ValueError, match="none of reduce_sum"):
        record.narrowed("ladder", record.SWEEPS["ladder"], None, ["reduce_sum"])


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the refusal on a machine without a GPU")
def test_without_a_gpu_record_refuses_unless_asked(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["record", "--out", str(tmp_path), "--sweeps", "default"])
    assert exc.value.code == 2
    assert "--allow-cpu" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_record_writes_tables_json_plot_and_index(monkeypatch, tmp_path):
    monkeypatch.setitem(record.SWEEPS, "tiny", TINY)
    monkeypatch.setitem(record.SWEEPS, "tiny2", TINY)
    assert main(["record", "--allow-cpu", "--quiet", "--out", str(tmp_path), "--sweeps", "tiny"]) == 0
    assert main(["record", "--allow-cpu", "--quiet", "--out", str(tmp_path), "--sweeps", "tiny2", "--dtype", "fp32"]) == 0
    folder = tmp_path / ("cpu" if not torch.cuda.is_available() else record.device_slug(torch.cuda.get_device_name()))
    names = {p.name for p in folder.iterdir()}
    expected = {"README.md", "tiny.md", "tiny.json", "tiny2-fp32.md", "tiny2-fp32.json"}
    try:
        import matplotlib  # noqa: F401

        expected |= {"tiny.png", "tiny2-fp32.png"}
    except ImportError:
        pass
    assert expected <= names
    doc = json.loads((folder / "tiny.json").read_text())
    assert doc["record"]["sweep"] == "tiny" and len(doc["results"]) == 4
    assert doc["command"] == "python -m comparison " + " ".join(TINY.argv)
    tables = (folder / "tiny.md").read_text()
    assert "command: python -m comparison --cols 16,32" in tables and "recorded by `python -m comparison record" in tables
    index = (folder / "README.md").read_text()
    assert "[tables](tiny.md)" in index and "[tables](tiny2-fp32.md)" in index
    assert "--sweeps tiny2 --dtype fp32" in index
    fp32_only = json.loads((folder / "tiny2-fp32.json").read_text())["results"]
    assert {r["dtype"] for r in fp32_only} == {"fp32"}
    # Gathered from two calls into one folder: --index rebuilds the README from the JSONs.
    (folder / "README.md").unlink()
    (folder / "tiny.md").rename(tmp_path / "elsewhere.md")
    assert main(["record", "--index", str(folder)]) == 0
    assert "[tables](tiny.md)" in (folder / "README.md").read_text()


def test_index_of_a_folder_without_records_exits_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["record", "--index", str(tmp_path)])
    assert exc.value.code == 2 and "no JSON file written by" in capsys.readouterr().err


def test_record_list_and_bad_names(capsys):
    assert main(["record", "--list"]) == 0
    out = capsys.readouterr().out
    assert all(f"{name}:" in out for name in record.SWEEPS)
    with pytest.raises(SystemExit) as exc:
        main(["record", "--sweeps", "forward,bogus"])
    assert exc.value.code == 2 and "unknown sweep(s) bogus" in capsys.readouterr().err


def test_cols_narrow_a_sweep_to_the_widths_it_has():
    from comparison.harness import record

    argv, stem = record.narrowed("backward", record.SWEEPS["backward"], None, None, ["128", "65536", "7"])
    assert argv[argv.index("--cols") + 1] == "128,65536" and stem == "backward-cols128-65536"
    with pytest.raises(ValueError, match="none of"):
        record.narrowed("backward", record.SWEEPS["backward"], None, None, ["7"])


def _latency_results():
    from comparison.harness.latency import Latency

    def case(backend, cols, graph, loop):
        return Latency("softmax", "fwd", "fp32", 1, cols, backend, "auto", graph_us=graph, bench_us=graph,
                       loop_us=loop, launches=1)

    results = [case("torch", 32768, 15.0, 20.0), case("cuda", 32768, 9.0, 10.0), case("quack", 32768, 10.0, 25.0),
               case("torch", 262144, 100.0, 104.0), case("cuda", 262144, 12.0, 26.0),
               case("quack", 262144, 10.0, 17.0), case("triton", 262144, 14.0, 52.0)]
    floor = Latency("empty kernel", "", "", 0, 0, "torch.cuda._sleep(0)", "", graph_us=8.0, loop_us=7.0)
    return results, floor


def test_latency_compares_each_call_to_torch_and_quack():
    from comparison.harness import latency

    results, floor = _latency_results()
    latency.compare_to_peers(results)
    by = {(r.backend, r.cols): r for r in results}
    assert by[("cuda", 32768)].loop_speedup == pytest.approx(2.0)
    assert by[("cuda", 262144)].graph_vs_quack == pytest.approx(1.2)
    assert by[("triton", 262144)].loop_speedup == pytest.approx(2.0)
    assert by[("torch", 32768)].loop_speedup == pytest.approx(1.0)
    lines = latency.summary_lines(results, floor)
    assert lines == ["cuda: loop 2.00-4.00x faster than torch (least: softmax fwd fp32 1x32768); graph 0.90-1.20x "
                     "Quack's (most: softmax fwd fp32 1x262144)",
                     "triton: loop 2.00-2.00x faster than torch (least: softmax fwd fp32 1x262144); graph 1.40-1.40x "
                     "Quack's (most: softmax fwd fp32 1x262144)"]
    text = latency.render(results, floor, "markdown", ["device: test"])
    assert "loop x torch" in text and "graph / quack" in text
    assert "summary: cuda: loop 2.00-4.00x" in text and "| 1.20 " in text


def test_a_latency_record_is_indexed(tmp_path):
    from comparison.harness import latency

    results, floor = _latency_results()
    latency.compare_to_peers(results)
    extra = {"device": "NVIDIA H100 80GB HBM3 (cuda:0)", "torch": "2.x", "triton": "3.x", "cuda": "13.0",
             "python": "3.12", "date": "2026-11-24T10:00:00", "command": "python -m comparison --latency",
             "unavailable": {},
             "record": {"sweep": "few_rows", "stem": "few_rows", "what": "few rows", "command": "record few_rows",
                        "seconds": 1.0, "files": {"tables": "few_rows.md", "json": "few_rows.json"}}}
    (tmp_path / "few_rows.json").write_text(latency.render(results, floor, "json", ["device: test"], extra))
    index = record.write_index(tmp_path).read_text()
    assert "latency; empty kernel 8.0 us (graph)" in index
    assert "cuda: loop 2.00-4.00x faster than torch" in index and "triton: loop" in index


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the CPU skip on a machine without a GPU")
def test_a_latency_sweep_is_skipped_without_a_gpu(tmp_path, capsys):
    assert main(["record", "--allow-cpu", "--quiet", "--out", str(tmp_path), "--sweeps", "few_rows"]) == 3
    assert "few_rows: skipped, it times calls on a CUDA GPU" in capsys.readouterr().err
