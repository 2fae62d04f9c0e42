#!/usr/bin/env bash
# The GPU evidence the open issues still wait for, in device calls of at most 10 minutes
# each (run from the repository root on the GPU machine; logs go to $OUT):
#
#   bash benchmarks/gpu_evidence.sh tests             # every GPU suite but the slow sweeps
#   bash benchmarks/gpu_evidence.sh slow              # the slow sweeps (the matrix at every width)
#   bash benchmarks/gpu_evidence.sh sanitize memcheck # one compute-sanitizer tool per call:
#   bash benchmarks/gpu_evidence.sh sanitize racecheck   # memcheck, racecheck, synccheck, initcheck
#   bash benchmarks/gpu_evidence.sh wide              # every CUDA and Triton variant at the widest rows, fwd and bwd
#
# Records (forward, backward, step, peers) are `benchmarks/record.sh` (benchmarks/README.md).
set -uo pipefail
out=${OUT:-benchmarks/out}
mkdir -p "$out"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git log -1 --format='commit %h %s' 2>/dev/null || true
case "${1:-}" in
  tests)
    timeout 560 python3 -m pytest tests -q -rfEs -m "not slow" --tb=short -p no:cacheprovider 2>&1 \
      | tee "$out/gpu_tests.log" | tail -40 ;;
  slow)
    timeout 560 python3 -m pytest tests -q -rfEs -m slow --tb=short -p no:cacheprovider 2>&1 \
      | tee "$out/gpu_tests_slow.log" | tail -40 ;;
  sanitize)
    tool=${2:?which tool: memcheck, racecheck, synccheck or initcheck}
    python3 benchmarks/sanitize.py --tools "$tool" --timeout 540 --out "$out/sanitize_$tool.log" 2>&1 | tail -20 ;;
  wide)
    timeout 560 python3 -m comparison --cols 65536,131072,262144 --dtype fp32,bf16 --op softmax \
      --pass fwd,bwd --backends cuda,triton --variants all --min-bytes 1GiB --quiet \
      --format markdown --output "$out/wide_variants.md"
    tail -5 "$out/wide_variants.md" ;;
  *)
    sed -n '2,12p' "$0"; exit 2 ;;
esac
