"""Builds the CUDA extension: the one place that calls torch's load_inline.

`extension()` compiles csrc/*.cu with nvcc for the GPUs present on first use in a process
and returns the module; later calls return the same module. Builds are cached across
processes in torch's extension directory (TORCH_EXTENSIONS_DIR when set). The
extension's name carries a hash of every file under csrc/ (the headers and .def tables
in its subfolders included), the flags and the target architectures, so different
versions of the sources never overwrite each other's builds; switching back and forth
costs nothing after the first build of each.

The top-level .cu files (softmax.cu, reduce.cu: each includes its headers from
csrc/softmax/, csrc/reduce/ and csrc/common/) are compiled as ONE translation unit
(load_inline takes a single CUDA source, here a list of #includes), so each keeps its
internals in its own namespace; tests/test_cuda_compile.py compiles that unit the same way.
"""
from __future__ import annotations

import hashlib
import inspect
import os
import sys
import threading
import time
from pathlib import Path

CSRC = Path(__file__).resolve().parent / "csrc"
SOURCE_SUFFIXES = (".cu", ".cuh", ".cpp", ".def")
BINDINGS = "bindings.cpp"

# Every entry point declared in csrc/bindings.cpp, with its Python docstring.
FUNCTIONS = {
    "softmax_constants": "The softmax planner's limits by name (NAIVE_MAX_COLS, WARP_PER_ROW_MAX_COLS, ...)",
    "gpu_properties": "The device properties the planners' rules read (SM count, shared memory, peak DRAM "
                      "bytes/s), by name, for a device index",
    "softmax_plan": "(fields in softmax/plan_fields.def order, kernel name, reason) of a softmax variant or auto",
    "softmax_forward": "Softmax or log-softmax of each row of a 2-D CUDA tensor, into out or a new tensor "
                       "(plans, cached, then launches on the current stream)",
    "softmax_forward_with_grad": "softmax_forward into a new tensor whose gradient is recorded in C++: its node "
                                 "saves the output and runs softmax_backward's auto on the incoming gradient",
    "softmax_backward_plan": "(fields, kernel name, reason) of a softmax backward variant or auto for y and dy",
    "softmax_backward": "Input gradient of softmax or log-softmax from y and dy, into out or a new tensor "
                        "(plans, cached, then launches on the current stream)",
    "reduce_constants": "The reductions' launch limits by name, and WHOLE_MAX_GRID on the given device",
    "reduce_plan": "Fields (reduce/plan_fields.def order) of the plan reduce_rows or reduce_whole would run",
    "reduce_rows": "Sum or max of each row (plans, then launches)",
    "reduce_whole": "Sum or max of a contiguous tensor via fp32 per-block partials (plans, then launches)",
}

CUDA_FLAGS = ["-O3", "-std=c++17", "-lineinfo"]
# No -std here: torch picks the C++ standard its own headers need for main.cpp.
CXX_FLAGS = ["-O3"]

_lock = threading.Lock()
_module = None


class CudaBuildError(RuntimeError):
    """nvcc or the host compiler rejected the sources; the message holds their output."""


def cuda_sources() -> list[Path]:
    """The translation units: the top-level csrc/*.cu (their headers live in subfolders)."""
    return sorted(CSRC.glob("*.cu"))


def source_files() -> list[Path]:
    """Every file the build reads: csrc/ and its subfolders, sorted by relative path."""
    return sorted((p for p in CSRC.rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES),
                  key=lambda p: p.relative_to(CSRC).as_posix())


def cuda_unit() -> str:
    """The single CUDA translation unit: every csrc/*.cu, included in name order."""
    return "".join(f'#include "{path.name}"\n' for path in cuda_sources())


def arch_flags(capabilities) -> list[str]:
    """-gencode flags for SASS of each (major, minor) capability, e.g. sm_90 on Hopper."""
    return [f"-gencode=arch=compute_{major}{minor},code=sm_{major}{minor}"
            for major, minor in sorted(set(capabilities))]


def _visible_capabilities() -> list[tuple[int, int]]:
    import torch

    if not torch.cuda.is_available():
        raise RuntimeError("the CUDA kernels need a CUDA GPU; none is visible to PyTorch")
    return [torch.cuda.get_device_capability(i) for i in range(torch.cuda.device_count())]


def extension_name(cuda_flags: list[str], cpp_source: str, cuda_source: str, options: dict | None = None) -> str:
    """sk_kernels_<hash of sources, flags, architectures, bound functions and load_inline options>."""
    digest = hashlib.sha256()
    for path in source_files():
        digest.update(path.relative_to(CSRC).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    bound = [f"{name}={doc}" for name, doc in FUNCTIONS.items()]
    settings = [f"{key}={value!r}" for key, value in sorted((options or {}).items())]
    for text in (*cuda_flags, "|", *CXX_FLAGS, "|", cpp_source, cuda_source, "|", *bound, "|", *settings):
        digest.update(text.encode() + b"\0")
    return f"sk_kernels_{digest.hexdigest()[:12]}"


def _is_cached(name: str) -> bool:
    """Whether torch's extension cache already holds this build (then no progress display)."""
    try:
        from torch.utils.cpp_extension import _get_build_directory
    except ImportError:  # private helper moved: just show the progress line
        return False
    return (Path(_get_build_directory(name, verbose=False)) / f"{name}.so").exists()


class _Progress:
    """An elapsed-time spinner on stderr while the first build runs (one line if not a tty)."""

    def __init__(self, label: str):
        self.label = label
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._start = time.monotonic()
        self.failed = False

    def __enter__(self):
        if sys.stderr.isatty():
            self._thread.start()
        else:
            print(f"{self.label} (first use; about a minute) ...", file=sys.stderr, flush=True)
        return self

    def _spin(self):
        try:
            from tqdm import tqdm
        except ImportError:
            print(f"{self.label} (first use; about a minute) ...", file=sys.stderr, flush=True)
            return
        with tqdm(desc=self.label, bar_format="{desc} [{elapsed}]", file=sys.stderr, leave=False) as bar:
            while not self._stop.wait(0.5):
                bar.refresh()

    def __exit__(self, exc_type, exc, tb):
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        outcome = "failed" if exc_type is not None else "done"
        print(f"{self.label}: {outcome} in {time.monotonic() - self._start:.0f} s", file=sys.stderr, flush=True)
        return False


def _build():
    from torch.utils.cpp_extension import load_inline

    archs = arch_flags(_visible_capabilities())
    cuda_flags = CUDA_FLAGS + archs
    bindings = (CSRC / BINDINGS).read_text()
    cuda_source = cuda_unit()
    kwargs = {}
    parameters = inspect.signature(load_inline).parameters
    if "with_pytorch_error_handling" in parameters:
        # pybind11's own translation: a launcher's std::invalid_argument (a variant that
        # cannot serve the input, an unknown code) is a ValueError in Python; torch's
        # wrapper would make every std::exception a RuntimeError.
        kwargs["with_pytorch_error_handling"] = False
    if "no_implicit_headers" in parameters:
        # Keep torch's headers out of the nvcc unit (they add ~20 s to every cold build);
        # the C++ unit then includes torch/extension.h itself.
        kwargs["no_implicit_headers"] = True
        cpp_source = "#include <torch/extension.h>\n" + bindings
    else:
        cpp_source = bindings
    name = extension_name(cuda_flags, cpp_source, cuda_source, kwargs)
    label = f"building CUDA kernels {name} for {', '.join(a.rsplit('code=', 1)[1] for a in archs)}"
    cached = _is_cached(name)
    try:
        if cached:
            return _load(load_inline, name, cpp_source, cuda_source, cuda_flags, kwargs)
        with _Progress(label):
            return _load(load_inline, name, cpp_source, cuda_source, cuda_flags, kwargs)
    except Exception as exc:  # torch raises RuntimeError with the ninja/nvcc output
        raise CudaBuildError(
            f"building the CUDA extension {name} failed.\n"
            f"  sources: {CSRC} ({', '.join(p.name for p in cuda_sources())} + {BINDINGS}; headers in "
            f"{', '.join(sorted(p.name + '/' for p in CSRC.iterdir() if p.is_dir()))})\n"
            f"  nvcc flags: {' '.join(cuda_flags)}\n"
            f"  TORCH_EXTENSIONS_DIR: {os.environ.get('TORCH_EXTENSIONS_DIR', '(torch default)')}\n"
            f"compiler output:\n{exc}"
        ) from exc


def _load(load_inline, name, cpp_source, cuda_source, cuda_flags, kwargs):
    return load_inline(
        name=name,
        cpp_sources=[cpp_source],
        cuda_sources=[cuda_source],
        functions=dict(FUNCTIONS),
        extra_cflags=list(CXX_FLAGS),
        extra_cuda_cflags=list(cuda_flags),
        extra_include_paths=[str(CSRC)],
        verbose=False,
        **kwargs,
    )


def extension():
    """The compiled extension module (built on first use, then cached)."""
    global _module
    module = _module
    if module is None:
        with _lock:
            if _module is None:
                _module = _build()
            module = _module
    return module


def current_stream(device_index: int) -> int:
    """The current CUDA stream of a device, as the integer the launchers take. torch's
    raw-stream query (what its own compiled kernels launch with) costs a fraction of a
    microsecond where torch.cuda.current_stream builds a Stream object (a few): it is the
    largest part of a small call's host time after the launch itself."""
    return _raw_stream(device_index)


def _public_raw_stream(device_index: int) -> int:
    import torch

    return torch.cuda.current_stream(device_index).cuda_stream


def _pick_raw_stream():
    import torch

    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    return raw if raw is not None else _public_raw_stream


_raw_stream = _pick_raw_stream()
