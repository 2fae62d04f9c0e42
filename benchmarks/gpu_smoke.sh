#!/usr/bin/env bash
# On the GPU machine, from the repo root: cold CUDA build, GPU test suites, a short sweep.
# Logs go to $OUT (the device tool's output folder) or benchmarks/out.
set -uo pipefail
out=${OUT:-benchmarks/out}; mkdir -p "$out"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
start=$(date +%s)
python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -40
echo "cold build: $(( $(date +%s) - start )) s"
timeout ${TEST_TIMEOUT:-300} python3 -m pytest ${TESTS:-tests} -q -rfE --tb=line -p no:cacheprovider 2>&1 | tee "$out/gpu_tests.log" | tail -60
timeout ${BENCH_TIMEOUT:-200} python3 -m comparison --cols ${COLS:-128,1024,4096,16384,65536} --dtype fp32,bf16 --op softmax \
  --variants all --min-bytes 1GiB 2>&1 | tee "$out/sweep.txt" | grep -v '^$'
