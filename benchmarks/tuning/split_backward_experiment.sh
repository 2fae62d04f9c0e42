#!/usr/bin/env bash
# Whether the CUDA backward's `split` (chunks of y and dy in the registers of persistent
# CTAs that exchange their sums through global memory, the next row's chunks in flight
# through the wait: kernels_cuda/csrc/softmax/split.cuh) serves the widest rows better
# than what `auto` runs there (cluster_regs' clusters, split_smem from 1 MB rows of y),
# and which of its two forms: the next row's chunks requested before the row's sum is
# computed (early) or after its part is published (late). One device call of about
# seven minutes, from the repository root on a GPU machine (results in $OUT, named by
# GPU and commit):
#
#   bash benchmarks/tuning/split_backward_experiment.sh
#
# Why ask: Triton's split backward (the same design) reached 99.4 / 99.5 % of copy at
# fp32 131072 / 262144 on an H100 where CUDA `auto` gave 96.1 / 92.3 (the H100 backward
# record at 778ead4), and 95-96 at 524288 where CUDA gave 77.
# The checkout's split takes the late form from SPLIT_GRAD_LATE_MIN_SPLIT chunks; two
# copies force one form at every width (early: kSplitGradLateMinSplit past any split;
# late: 1). Every result is checked against float64, as always.
set -uo pipefail
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext}
out=$(realpath -m "${OUT:-benchmarks/out}")
mkdir -p "$out"
root=$PWD
alt=${ALT:-/tmp/split_backward_alt}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
tag=$(echo "$gpu" | grep -q H200 && echo h200 || echo h100)
rev=$(cat .device/commit 2>/dev/null || git rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "split_backward_experiment at $rev on $gpu $(date -u +%FT%TZ)"
cols=${COLS:-131072,262144,524288,1048576}
rm -rf "$alt"
for form in early late; do
  mkdir -p "$alt/$form" && cp -r comparison kernels_cuda kernels_triton "$alt/$form"/
  python3 - "$alt/$form/kernels_cuda/csrc/softmax/split.cuh" "$form" <<'PY' || exit 1
import sys
path, form = sys.argv[1:]
s = open(path).read()
line = "constexpr int64_t kSplitGradLateMinSplit = 64;"
assert line in s, "split.cuh changed: update this experiment's patch"
s = s.replace(line, "constexpr int64_t kSplitGradLateMinSplit = " + ("int64_t{1} << 40;" if form == "early" else "1;"))
open(path, "w").write(s)
PY
done
for tree in "$root" "$alt/early" "$alt/late"; do
  (cd "$tree" && PYTHONPATH="$tree" python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
done
wait
# The plans (chunks, threads, CTAs per SM, form) of split beside auto's choice.
PYTHONPATH=$root python3 - "$cols" <<'PY'
import sys, torch, kernels_cuda.softmax as s
for dt in (torch.float32, torch.bfloat16, torch.float16):
    for c in map(int, sys.argv[1].split(",")):
        y = torch.empty(2, c, device="cuda", dtype=dt)
        p = s.plan(y, "softmax_backward", "split", dy=y)
        a = s.plan(y, "softmax_backward", "auto", dy=y)
        print(f"{str(dt)[6:]:8} {c:8} auto {a['variant']:12} | split {p['status']} chunks={p['split']} "
              f"threads={p['threads']} values={p['cols_per_thread']} resident/SM={p['resident_per_sm']} "
              f"late={p['next_late']} blocks={p['blocks']}")
PY
# Each tree runs from its own directory: `python -m` puts the working directory first
# on sys.path, ahead of PYTHONPATH.
cd "$root" && PYTHONPATH=$root timeout 330 python3 -m comparison --cols "$cols" --dtype fp32,bf16,fp16 \
  --op softmax,log_softmax --pass bwd --min-bytes 1GiB --quiet --format markdown --layout long --backends cuda \
  --variants auto,split,split_smem --output "$out/split_backward_${tag}_$rev.md" 2>&1 | tail -1
for form in early late; do
  cd "$alt/$form" && PYTHONPATH=$alt/$form timeout 150 python3 -m comparison --cols "$cols" --dtype fp32,bf16 \
    --op softmax,log_softmax --pass bwd --min-bytes 1GiB --quiet --format markdown --layout long --backends cuda \
    --variants split --output "$out/split_backward_${form}_${tag}_$rev.md" 2>&1 | tail -1
done
cd "$root"
for f in "$out"/split_backward_*"${tag}_$rev".md; do
  echo "== $(basename "$f")"
  grep -E "^\| cuda|^###" "$f" | awk -F'|' '/###/ {printf "\n%s:", $0; next} {printf " %s %s %s;", $2, $4, $7} END {print ""}'
done
