#!/usr/bin/env bash
# Why the CUDA split backward measured lower at 2661d51 than its late form at 689e5c9
# (H100, 1 GiB, fp32 131072 / 262144: 93.5 / 89.8 against 98.3 / 97.5 % of copy) while
# its SASS issues the same loads in the same order: three builds measured side by side,
# split's backward only, fp32 and bf16 at 131072 / 262144 / 1048576 (softmax):
#   head    the checkout;
#   gather  the checkout with warp 0 gathering four slots per lane at a time
#           (gather_parts_sum, as 689e5c9; it spills 16 bytes at the register cap);
#   r689    the package at 689e5c9, its late form forced at every width (the next
#           row's loads placed by a runtime flag, both call sites compiled).
# One device call of about four minutes, from the repository root (results in $OUT).
set -uo pipefail
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext}
out=$(realpath -m "${OUT:-benchmarks/out}")
mkdir -p "$out"
root=$PWD
alt=${ALT:-/tmp/split_backward_forms}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
tag=$(echo "$gpu" | grep -q H200 && echo h200 || echo h100)
rev=$(cat .device/commit 2>/dev/null || git rev-parse --short HEAD)
echo "split_backward_forms_experiment at $rev on $gpu $(date -u +%FT%TZ)"
rm -rf "$alt" && mkdir -p "$alt/gather" "$alt/r689"
cp -r comparison kernels_cuda kernels_triton "$alt/gather"/
python3 - "$alt/gather/kernels_cuda/csrc/softmax/split.cuh" <<'PY' || exit 1
import sys
path = sys.argv[1]
s = open(path).read()
old = "  if (a.split > 1) s = slice_sum(poll_slot_sums(slots, a.split), row_sums, 0, G);"
new = """  if (a.split > 1) {
    if (t < 32) {
      const float total = gather_parts_sum(slots, a.split);
      if (t == 0) row_sums[0] = total;
    }
    __syncthreads();
    s = row_sums[0];
  }"""
assert old in s, "split.cuh changed: update this experiment's patch"
open(path, "w").write(s.replace(old, new))
PY
# R689: a folder holding that commit's comparison/, kernels_cuda/ and kernels_triton/
# (where the checkout has no git history, e.g. a copy of the working tree).
if [ -n "${R689:-}" ]; then cp -r "$R689"/comparison "$R689"/kernels_cuda "$R689"/kernels_triton "$alt/r689"/
else git archive 689e5c9 comparison kernels_cuda kernels_triton | tar -x -C "$alt/r689"; fi || exit 1
sed -i 's/constexpr int64_t kSplitGradLateMinSplit = 64;/constexpr int64_t kSplitGradLateMinSplit = 1;/' \
  "$alt/r689/kernels_cuda/csrc/softmax/split.cuh"
grep -q "kSplitGradLateMinSplit = 1;" "$alt/r689/kernels_cuda/csrc/softmax/split.cuh" || exit 1
for tree in "$root" "$alt/gather" "$alt/r689"; do
  (cd "$tree" && PYTHONPATH="$tree" python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
done
wait
for name in head gather r689; do
  tree=$root; [ $name != head ] && tree=$alt/$name
  cd "$tree" && PYTHONPATH=$tree timeout 150 python3 -m comparison --cols 131072,262144,1048576 --dtype fp32,bf16 \
    --op softmax --pass bwd --min-bytes 1GiB --quiet --format markdown --layout long --backends cuda \
    --variants split --output "$out/split_backward_forms_${name}_${tag}_$rev.md" 2>&1 | tail -1
done
cd "$root"
for name in head gather r689; do
  echo "== $name: $(grep -E '^\| cuda' "$out/split_backward_forms_${name}_${tag}_$rev.md" | awk -F'|' '{printf "%s %s;", $4, $7}')"
done
