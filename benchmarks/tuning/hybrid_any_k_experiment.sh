#!/usr/bin/env bash
# Whether block_hybrid's clusters serve rows just past a power of two better with any
# number of CTAs (2-16) than with the powers of two the planner takes now. One device
# call of about two minutes, from the repository root on a GPU machine (results in $OUT,
# named by GPU and commit):
#
#   bash benchmarks/tuning/hybrid_any_k_experiment.sh
#
# Why ask: on the H200 (2026-11-26, benchmarks/h200_2026-11-26c/vocab_*) the CUDA
# forward at 151936 columns (Qwen's vocabulary) held 74.8 / 65.8% of copy in fp32 /
# bf16 where 131072 holds 92.8 / 89.9: the fp32 row (593 KB) takes 4 CTAs of 148 KB, one
# per SM, where 3 of 198 KB would do, and one CTA per SM needs its slice large (128 KB
# slices lost at every width: block_hybrid.cuh). cluster_regs (81.0 / 79.5) and
# split_smem (79.0 / 76.0) beat auto there.
# The copy "anyk" plans the smallest cluster of any size 2-16 whose slices fit (the
# kernel reads its cluster's size and rank; the exchange has a slot per rank). The
# checkout's auto and block_hybrid run beside the copy's block_hybrid, at COLS (default
# 151936,196608, fp32 and bf16, softmax forward). Every result is checked against
# float64, as always.
# Runs so far: at 2d43531 on an H100 (benchmarks/h100_2026-11-26c/hybrid_any_k_*): 3-CTA
# clusters won at both widths (fp32 151936 / 196608 84.3 / 91.1 -> 90.6 / 95.8, bf16 82.3 /
# 89.2 -> 86.7 / 93.4). Next: the same on an H200, then compute-sanitizer over the odd
# cluster sizes, before the planner takes them.
source "$(dirname "$0")/experiment_env.sh"
alt=${ALT:-/tmp/hybrid_any_k_alt}
cols=${COLS:-151936,196608}
dtypes=${DTYPES:-fp32,bf16}
echo "hybrid_any_k_experiment at $rev on $gpu $(date -u +%FT%TZ)"
rm -rf "$alt" && mkdir -p "$alt/anyk" && cp -r comparison kernels_cuda kernels_triton "$alt/anyk"/
python3 - "$alt/anyk/kernels_cuda/csrc/softmax/block_hybrid.cuh" <<'PY' || exit 1
import sys
path = sys.argv[1]
s = open(path).read()
a = "shape.slice_bytes) k *= 2;"
b = "shape.slice_bytes; k *= 2) {"
assert s.count(a) == 1 and s.count(b) == 1, "block_hybrid.cuh changed: update this experiment's patch"
s = s.replace(a, "shape.slice_bytes) ++k;").replace(b, "shape.slice_bytes; ++k) {")
open(path, "w").write(s)
PY
build_trees "$root" "$alt/anyk"
B="--min-bytes 1GiB --quiet --format csv --op softmax --pass fwd --backends cuda --cols $cols --dtype $dtypes"
PYTHONPATH=$root timeout 120 python3 -m comparison $B --variants auto,block_hybrid,cluster_regs \
  --output "$out/hybrid_any_k_${tag}_${rev}_base.csv" | tail -1
cd "$alt/anyk" && PYTHONPATH=$alt/anyk timeout 120 python3 -m comparison $B --variants block_hybrid \
  --output "$out/hybrid_any_k_${tag}_${rev}_anyk.csv" | tail -1
cd "$alt/anyk" && PYTHONPATH=$alt/anyk python3 - "$cols" <<'PY'
import sys, torch, kernels_cuda.softmax as s
for dt in (torch.float32, torch.bfloat16):
    for cols in map(int, sys.argv[1].split(",")):
        p = s.plan(torch.empty(2, cols, device="cuda", dtype=dt), "softmax", "block_hybrid")
        print(f"anyk {str(dt)[6:]:8} {cols:7} k={p['cluster_size']} threads={p['threads']} smem={p['smem_bytes']}")
PY
cd "$root"
python3 benchmarks/tuning/side_by_side.py "$out" "hybrid_any_k_${tag}_$rev" base anyk
