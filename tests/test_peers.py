"""Peers (comparison/peers/): registered after this package's backends, never chosen by
"auto", a reason when they cannot run, and a failed row (not a crash) when they raise."""
import importlib.util
import json

import pytest
import torch

from comparison import get_backend, list_backends
from comparison.dispatch import resolve_backend
from comparison.harness.cli import main
from comparison.peers import quack as quack_peer
from comparison.peers.torch_compile import TorchCompileBackend
from comparison.agreement import check
from comparison.registry import AUTO_ORDER

PEERS = ("torch_compile", "liger", "quack")


def test_peers_are_listed_after_the_package_and_torch():
    names = list_backends()
    assert names[:3] == ["cuda", "triton", "torch"]
    assert names[3:] == list(PEERS)
    for name in PEERS:
        assert get_backend(name).own is False


def test_auto_never_picks_a_peer():
    assert not set(AUTO_ORDER) & set(PEERS)
    assert all(get_backend(n).own or n == "torch" for n in AUTO_ORDER)
    x = torch.randn(4, 8)
    for op in ("softmax", "reduce_sum"):
        assert resolve_backend("auto", x, op, "auto").name == "torch"


# -- torch_compile on the CPU (inductor's C++ backend) ----------------------------------

@pytest.fixture(scope="module")
def compiled():
    backend = get_backend("torch_compile")
    why = backend.unavailable_reason() or backend.device_reason(torch.empty(0))
    if why:
        pytest.skip(why)
    return backend


@pytest.mark.parametrize("op, shape", [
    ("softmax", (8, 40)),            # rows of a width that is no power of two
    ("log_softmax", (8, 40)),
    ("reduce_sum", (6, 33)),         # row sums
    ("reduce_max", (200,)),          # the whole tensor (1-D canonical form)
    ("softmax_backward", (8, 40)),
])
def test_torch_compile_agrees_on_cpu(compiled, op, shape):
    # The package's own agreement check, not a fixed atol: a row sum of 33 values of
    # magnitude ~4 may cancel to ~1e-4, where fp32 rounding of the partial sums alone
    # (|x|-sum x n x 2^-24, ~1e-6) exceeds any fixed absolute tolerance that still
    # catches a wrong kernel; check() allows the sum's growth bound per row instead.
    x = torch.randn(*shape) * 4
    if op == "softmax_backward":
        y, dy = torch.softmax(x, -1), torch.randn(*shape)
        result = check(op, y, compiled.run(y, op, dy=dy), dy=dy)
    else:
        result = check(op, x, compiled.run(x, op))
    assert result.ok, result


def test_torch_compile_compiles_once_per_shape_beyond_dynamos_recompile_limit(compiled):
    """Each shape has its own compiled copy, so a sweep never hits dynamo's recompile limit
    (past which a function silently runs eagerly)."""
    import torch._dynamo
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list

    backend = TorchCompileBackend()
    with torch._dynamo.config.patch(recompile_limit=1):
        for cols in (16, 24, 32):
            x = torch.randn(3, cols)
            torch.testing.assert_close(backend.run(x, "softmax"), torch.softmax(x, -1))
            first = backend.compiled("softmax", x)
            backend.run(x, "softmax")
            assert backend.compiled("softmax", x) is first   # the timed calls reuse it
    assert len(backend._compiled) == 3
    for fn in backend._compiled.values():
        code = fn._torchdynamo_orig_callable.__code__
        assert len(_debug_get_cache_entry_list(code)) == 1   # compiled, not fallen back to eager


def test_torch_compile_in_the_sweep(compiled, tmp_path):
    path = tmp_path / "r.json"
    code = main(["--cols", "48", "--backends", "torch,torch_compile", "--dtype", "fp32", "--op",
                 "softmax,reduce_sum", "--pass", "fwd,bwd", "--format", "json", "--output", str(path)])
    assert code == 0
    rows = [r for r in json.loads(path.read_text())["results"] if r["backend"] == "torch_compile"]
    assert {(r["op"], r["pass"]) for r in rows} == {("softmax", "fwd"), ("softmax", "bwd"), ("reduce_sum", "fwd")}
    assert all(r["ok"] is True and r["own"] is False for r in rows), [r["note"] for r in rows]


# -- liger and quack without their libraries --------------------------------------------

@pytest.mark.parametrize("name, module, words", [
    ("liger", "liger_kernel", "Liger-Kernel is not installed"),
    ("quack", "quack", "quack-kernels is not installed"),
])
def test_missing_peer_says_why(name, module, words, capsys):
    if importlib.util.find_spec(module) is not None:
        pytest.skip(f"{module} is installed here")
    backend = get_backend(name)
    assert words in backend.unavailable_reason()
    ok = backend.supports(torch.randn(2, 8), "softmax")
    assert not ok and words in ok.reason
    assert main(["--cols", "16", "--backends", f"torch,{name}", "--dtype", "fp32", "--op", "softmax"]) == 0
    assert f"backend {name} unavailable: {words}" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["liger", "quack"])
def test_liger_and_quack_offer_only_what_they_have(name):
    backend = get_backend(name)
    assert backend.ops() == ["softmax", "softmax_backward"]
    assert backend.variants("log_softmax") == [] and backend.variants("reduce_sum") == []


def test_quack_finds_the_cute_dsl_under_a_target_folder(tmp_path, monkeypatch):
    """pip --target folders are not site directories: the DSL's .pth is not read, so the
    peer puts nvidia_cutlass_dsl/dsl_packages on sys.path itself, or says it is missing."""
    (tmp_path / "quack").mkdir()
    (tmp_path / "quack" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    missing = quack_peer.QuackBackend().unavailable_reason()
    assert "nvidia_cutlass_dsl/dsl_packages" in missing
    dsl = tmp_path / "nvidia_cutlass_dsl" / "dsl_packages"
    dsl.mkdir(parents=True)
    assert quack_peer.dsl_packages_dir() == str(dsl)
    import sys

    monkeypatch.setattr(sys, "path", list(sys.path))
    # As if no GPU were visible: the peer stops before importing the stand-in package.
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    reason = quack_peer.QuackBackend().unavailable_reason()
    assert str(dsl) in sys.path
    assert "need a CUDA GPU" in reason


@pytest.mark.parametrize("cols, itemsize, backward, fits", [
    (262144, 4, False, True),     # fp32 forward, 8-CTA cluster: 128 KiB per CTA
    (1048576, 2, False, True),    # bf16 forward, 16 CTAs: 128 KiB
    (1048576, 4, False, False),   # fp32 forward, 16 CTAs: 256 KiB, more than an H100 SM has
    (524288, 4, True, False),     # fp32 backward stages y and dy: 256 KiB
    (524288, 2, True, True),
])
def test_quack_shared_memory_limit(cols, itemsize, backward, fits):
    need = quack_peer.shared_bytes_per_cta(cols, itemsize, backward, (9, 0))
    assert (need + quack_peer.RESERVED_SHARED_BYTES <= quack_peer.SHARED_MEMORY_FALLBACK) == fits


# -- a peer that raises -------------------------------------------------------------------

def _raising_run(self, x, op, variant="auto", *, dy=None):
    raise RuntimeError("peer kernel exploded")


def test_a_peer_that_raises_is_a_failed_row_not_a_crash(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(TorchCompileBackend, "run", _raising_run)
    assert main(["--cols", "16", "--backends", "torch,torch_compile", "--dtype", "fp32", "--op", "softmax"]) == 0
    out = capsys.readouterr().out
    assert "error: RuntimeError: peer kernel exploded" in out
    assert "1 peer finding" in out
    assert out.splitlines()[-1].endswith("torch_compile")
    path = tmp_path / "r.json"
    main(["--cols", "16", "--backends", "torch_compile", "--dtype", "fp32", "--op", "softmax", "--format", "json",
          "--output", str(path)])
    (row,) = json.loads(path.read_text())["results"]
    assert row["ok"] is False and row["own"] is False and "peer kernel exploded" in row["note"]
