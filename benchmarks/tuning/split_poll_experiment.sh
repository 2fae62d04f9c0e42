#!/usr/bin/env bash
# Experiment for CUDA `split` (issue 17's widest rows), one device call of about three
# minutes, from the repository root on a GPU machine (results in $OUT):
#
#   bash benchmarks/tuning/split_poll_experiment.sh
#
# The question: does CUDA's split close its gap to Triton's split when every warp polls
# the row's published pairs itself, instead of warp 0 polling and handing the row's pair
# to the CTA through shared memory and a second barrier? Why ask: on the H100
# (2026-11-23, 1 GiB inputs, % of copy; benchmarks/h100_2026-11-23b/split_*.md) CUDA
# split gave fp32 131072 / 262144 81.2 / 78.4 where Triton's split, the same design,
# gave 95.3 / 92.4, and giving fp32 Triton's chunk geometry changed nothing; Triton's
# programs poll with every thread and have no hand-off.
#
# How: a copy of the package in $ALT/every_warp with that change made to
# csrc/softmax/split.cuh (the script fails if the code it replaces has changed); both
# extensions built side by side, then `python -m comparison` times split in each (every
# element checked against float64, as always), cuda auto and Triton's split beside.
# (The change costs scalar fp32 packs, odd widths only, 16 bytes of spills under sm_90's
# ptxas; the widths timed here use 16-byte packs.)
set -uo pipefail
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext}
out=${OUT:-benchmarks/out}
mkdir -p "$out"
root=$PWD
alt=${ALT:-/tmp/split_poll_alt}
rm -rf "$alt" && mkdir -p "$alt/every_warp" && cp -r comparison kernels_cuda kernels_triton "$alt/every_warp"/
python3 - "$alt/every_warp/kernels_cuda/csrc/softmax/split.cuh" <<'PY' || exit 1
import sys
from pathlib import Path

path = Path(sys.argv[1])
text = path.read_text()
old = """    if (t < 32) {
      // Chunk blockIdx.x % split, recomputed here: passed in from the kernel instead, it
      // stays live through the loads in flight (ptxas: up to 5 more registers).
      if (t == 0) publish_word(slots + blockIdx.x % a.split, pair_word(acc));
      const OnlinePair p = gather_row_pair(slots, a.split);
      if (t == 0) row_pair = p;
    }
    __syncthreads();
    acc = row_pair;"""
new = """    if (t == 0) publish_word(slots + blockIdx.x % a.split, pair_word(acc));
    acc = gather_row_pair(slots, a.split);  // every warp polls: no hand-off, one barrier per row"""
if old not in text:
    sys.exit("softmax/split.cuh changed: update this experiment's replacement")
path.write_text(text.replace(old, new))
PY
nvidia-smi --query-gpu=name --format=csv,noheader
for tree in "$root" "$alt/every_warp"; do
  (cd "$tree" && PYTHONPATH="$tree" python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
done
wait
run() {  # run TREE LABEL BACKENDS VARIANTS
  (cd "$1" && PYTHONPATH="$1" timeout 150 python3 -m comparison --quiet --min-bytes 1GiB --dtype fp32,bf16 \
    --op softmax --pass fwd --cols 65536,131072,262144,524288 --backends "$3" --variants "$4" \
    --format csv --output "$out/split_poll_$2.csv")
}
run "$root" base cuda,triton auto,split
run "$alt/every_warp" every_warp cuda split
python3 benchmarks/tuning/side_by_side.py "$out" split_poll base every_warp
