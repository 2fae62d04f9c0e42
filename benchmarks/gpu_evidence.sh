#!/usr/bin/env bash
# The GPU evidence the open issues still wait for, in device calls of at most 10 minutes
# each (run from the repository root on the GPU machine; logs go to $OUT):
#
#   bash benchmarks/gpu_evidence.sh tests             # every GPU suite but the slow sweeps and the matrix
#   bash benchmarks/gpu_evidence.sh matrix            # the matrix (tests/test_matrix.py) but its slow cases
#   bash benchmarks/gpu_evidence.sh matrix -k cuda    # further args go to pytest (tests, matrix, slow): a part of it
#   LIMIT=300 bash benchmarks/gpu_evidence.sh tests   # seconds a stage may run (default 540), to share a call
#   TAG=triton bash benchmarks/gpu_evidence.sh matrix -k triton   # the log named gpu_tests_matrix_triton.log
#   bash benchmarks/gpu_evidence.sh slow              # the slow sweeps (the matrix at every width)
#   bash benchmarks/gpu_evidence.sh sanitize memcheck # one compute-sanitizer tool per call:
#   bash benchmarks/gpu_evidence.sh sanitize racecheck   # memcheck, racecheck, synccheck, initcheck
#                                                        # (more args go to sanitize.py: --ops ...)
#   bash benchmarks/gpu_evidence.sh wide              # every CUDA and Triton variant at the widest rows, fwd and bwd
#
# Records (forward, backward, step, peers) are `benchmarks/record.sh` (benchmarks/README.md).
set -uo pipefail
out=${OUT:-benchmarks/out}
mkdir -p "$out"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git log -1 --format='commit %h %s' 2>/dev/null || true
# The suites are large (the matrix alone is most of 26000 GPU tests): they run on a
# worker on three of every four cores (pytest-xdist), and SIGINT at the time limit still
# prints the summary of what ran. The CUDA extension is built once first. Files go to
# workers whole (module fixtures such as the 4 GiB inputs of the >2^31-element tests stay
# in one process), except the matrix, whose cases have no shared fixture: one file on one
# worker was the long pole of a whole-suite run, so its tests are dealt out one by one.
build() { python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1; }
PYTEST="python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider"
limit=${LIMIT:-540}
tag=${TAG:+_$TAG}  # TAG=part2: a second log of the same stage in one call
by_file="" one_by_one=""
if python3 -c "import xdist" 2>/dev/null; then
  workers="-n $(( $(nproc) * 3 / 4 > 1 ? $(nproc) * 3 / 4 : 1 ))"
  by_file="$workers --dist loadfile" one_by_one="$workers --dist load"
fi
progress='^[.sFxXE]*\s*\[ *[0-9]+%\]$'  # the dots: dropped from the log, the summary stays
case "${1:-}" in
  tests)
    shift; build; timeout -s INT "$limit" $PYTEST $by_file tests -m "not slow" --ignore=tests/test_matrix.py "$@" 2>&1 \
      | grep -Ev "$progress" | tee "$out/gpu_tests$tag.log" | tail -40 ;;
  matrix)
    shift; build; timeout -s INT "$limit" $PYTEST $one_by_one tests/test_matrix.py -m "not slow" --tb=line "$@" 2>&1 \
      | grep -Ev "$progress" | tee "$out/gpu_tests_matrix$tag.log" | tail -40 ;;
  slow)
    shift; build; timeout -s INT "$limit" $PYTEST $by_file tests -m slow "$@" 2>&1 \
      | grep -Ev "$progress" | tee "$out/gpu_tests_slow$tag.log" | tail -40 ;;
  sanitize)
    tool=${2:?which tool: memcheck, racecheck, synccheck or initcheck}
    shift 2  # anything more goes to sanitize.py, e.g. --ops softmax,log_softmax to split a tool's cases
    python3 benchmarks/sanitize.py --tools "$tool" --timeout "$limit" --out "$out/sanitize_$tool$tag.log" "$@" 2>&1 | tail -20 ;;
  wide)
    timeout 560 python3 -m comparison --cols 65536,131072,262144 --dtype fp32,bf16 --op softmax \
      --pass fwd,bwd --backends cuda,triton --variants all --min-bytes 1GiB --quiet \
      --format markdown --output "$out/wide_variants.md"
    tail -5 "$out/wide_variants.md" ;;
  *)
    sed -n '2,12p' "$0"; exit 2 ;;
esac
