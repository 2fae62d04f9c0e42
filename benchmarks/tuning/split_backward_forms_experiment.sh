#!/usr/bin/env bash
# How the CUDA split backward's gather (warp 0 polling the row's slots, kGatherBatch
# of them per lane at a time) sets its speed. At 5449b8d (H100, 1 GiB, softmax backward,
# % of copy; benchmarks/h100_2026-11-25/split_backward_forms_*_h100_5449b8d.md) every
# thread polling its own slot (the checkout then) gave fp32 131072 / 262144 / 1048576
# 94.5 / 87.6 / 55.6 and bf16 93.3 / 92.3 / 79.6, warp 0 four slots per lane (the
# split_smem gather) 98.9 / 97.6 / 76.3 and 97.8 / 98.2 / 90.7, and 689e5c9's kernel
# (four slots, the next row's loads placed by a runtime flag) 99.0 / 96.9 / 75.7 and
# 96.6 / 94.1 / 74.6; warp 0 one slot per lane at a time (d5383d0) had measured 94.6 /
# 88.2 / 48.3 fp32. Four slots per lane spill 16 bytes at the kernel's register cap, so
# copies of the checkout with kSplitGradGatherBatch = 1, 2, 3 and 4 (BATCHES) are
# measured side by side, split's backward only, fp32 and bf16 at 131072 / 262144 /
# 1048576. One device call of about four minutes, from the repository root (results in
# $OUT).
set -uo pipefail
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext}
out=$(realpath -m "${OUT:-benchmarks/out}")
mkdir -p "$out"
alt=${ALT:-/tmp/split_backward_forms}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
tag=$(echo "$gpu" | grep -q H200 && echo h200 || echo h100)
rev=$(cat .device/commit 2>/dev/null || git rev-parse --short HEAD)
batches=${BATCHES:-1 2 3 4}
echo "split_backward_forms_experiment at $rev on $gpu $(date -u +%FT%TZ)"
rm -rf "$alt"
for b in $batches; do
  mkdir -p "$alt/b$b" && cp -r comparison kernels_cuda kernels_triton "$alt/b$b"/
  python3 - "$alt/b$b/kernels_cuda/csrc/softmax/split.cuh" "$b" <<'PY' || exit 1
import re, sys
path, batch = sys.argv[1:]
s = open(path).read()
s, n = re.subn(r"constexpr int kSplitGradGatherBatch = \d+;", f"constexpr int kSplitGradGatherBatch = {batch};", s)
assert n == 1, "split.cuh changed: update this experiment's patch"
open(path, "w").write(s)
PY
  (cd "$alt/b$b" && PYTHONPATH="$alt/b$b" python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
done
wait
for b in $batches; do
  cd "$alt/b$b" && PYTHONPATH=$alt/b$b timeout 150 python3 -m comparison --cols 131072,262144,1048576 --dtype fp32,bf16 \
    --op softmax --pass bwd --min-bytes 1GiB --quiet --format markdown --layout long --backends cuda \
    --variants split --output "$out/split_backward_gather_b${b}_${tag}_$rev.md" 2>&1 | tail -1
done
for b in $batches; do
  echo "== b$b: $(grep -E '^\| cuda' "$out/split_backward_gather_b${b}_${tag}_$rev.md" | awk -F'|' '{printf "%s %s;", $4, $7}')"
done
