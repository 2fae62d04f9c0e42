#!/usr/bin/env bash
# Whether the CUDA forward `split` (kernels_cuda/csrc/softmax/split.cuh), which trails
# Triton's split on the H100 (fp32 131072 / 262144 82 / 79 against 96 / 92 % of copy,
# benchmarks/h100_2026-11-23b/), loses to its gather as split's backward did: warp 0
# polling one slot per lane at a time measured 4-10 points below four slots per lane
# there (benchmarks/h100_2026-11-25/split_backward_forms_*_5449b8d.md). Copies of the
# checkout, forward split only:
#   b4      warp 0 gathers four slots per lane at a time (gather_parts_pair);
#   b4late  that, and the next row's chunk requested after the chunk's pair is
#           published instead of before the chunk is reduced (the backward's order).
# Measured beside the checkout's `auto` and `split`: softmax forward, fp32 and bf16,
# 131072-1048576, 1 GiB. One device call of about four minutes, from the repository root
# (results in $OUT).
set -uo pipefail
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext}
out=$(realpath -m "${OUT:-benchmarks/out}")
mkdir -p "$out"
root=$PWD
alt=${ALT:-/tmp/split_forward_gather}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
tag=$(echo "$gpu" | grep -q H200 && echo h200 || echo h100)
rev=$(cat .device/commit 2>/dev/null || git rev-parse --short HEAD)
cols=${COLS:-131072,262144,524288,1048576}
echo "split_forward_gather_experiment at $rev on $gpu $(date -u +%FT%TZ)"
rm -rf "$alt"
for v in b4 b4late; do
  mkdir -p "$alt/$v" && cp -r comparison kernels_cuda kernels_triton "$alt/$v"/
  python3 - "$alt/$v/kernels_cuda/csrc/softmax/split.cuh" "$v" <<'PY' || exit 1
import sys
path, variant = sys.argv[1:]
s = open(path).read()
gather = "const OnlinePair p = gather_row_pair(slots, a.split);"
assert gather in s, "split.cuh changed: update this experiment's patch"
s = s.replace(gather, "const OnlinePair p = gather_parts_pair(slots, a.split);")
if variant == "b4late":
    early = """  next.load(a.x + next_row * a.x_stride + static_cast<int64_t>(first) * N, t, G, next_row < a.rows ? local : 0);
  OnlinePair acc = slice_merge_pairs(cur.reduce(a.log), warp_pairs, 0, G);
  if (a.split > 1) {
    unsigned long long* slots = a.slots + row * a.split;
    if (t < 32) {
      // Chunk blockIdx.x % split, recomputed here: passed in from the kernel instead, it
      // stays live through the loads in flight (ptxas: up to 5 more registers).
      if (t == 0) publish_word(slots + blockIdx.x % a.split, pair_word(acc));
"""
    late = """  OnlinePair acc = slice_merge_pairs(cur.reduce(a.log), warp_pairs, 0, G);
  if (a.split > 1 && t == 0) publish_word(a.slots + row * a.split + blockIdx.x % a.split, pair_word(acc));
  next.load(a.x + next_row * a.x_stride + static_cast<int64_t>(first) * N, t, G, next_row < a.rows ? local : 0);
  if (a.split > 1) {
    unsigned long long* slots = a.slots + row * a.split;
    if (t < 32) {
"""
    assert early in s, "split.cuh changed: update this experiment's patch"
    s = s.replace(early, late)
open(path, "w").write(s)
PY
done
for tree in "$root" "$alt/b4" "$alt/b4late"; do
  (cd "$tree" && PYTHONPATH="$tree" python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
done
wait
B="--cols $cols --dtype fp32,bf16 --op softmax --pass fwd --min-bytes 1GiB --quiet --format markdown --layout long --backends cuda"
cd "$root" && PYTHONPATH=$root timeout 200 python3 -m comparison $B --variants auto,split \
  --output "$out/split_forward_gather_head_${tag}_$rev.md" 2>&1 | tail -1
for v in b4 b4late; do
  cd "$alt/$v" && PYTHONPATH=$alt/$v timeout 150 python3 -m comparison $B --variants split \
    --output "$out/split_forward_gather_${v}_${tag}_$rev.md" 2>&1 | tail -1
done
cd "$root"
for v in head b4 b4late; do
  echo "== $v: $(grep -E '^\| cuda' "$out/split_forward_gather_${v}_${tag}_$rev.md" | awk -F'|' '{printf "%s %s %s;", $2, $4, $7}')"
done
