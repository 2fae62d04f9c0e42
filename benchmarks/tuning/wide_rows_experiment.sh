#!/usr/bin/env bash
# Experiment for the widest rows (issue 17), one device call of about four minutes, from
# the repository root on a GPU machine (results in $OUT):
#
#   bash benchmarks/tuning/wide_rows_experiment.sh
#
# The question: does CUDA's cluster_regs close its gap at 131072-262144 fp32 columns
# with clusters of 1024-thread CTAs (128 KB of the row per CTA, one CTA per SM, half as
# many CTAs per cluster: 8 at 262144 fp32) instead of today's 512-thread CTAs (64 KB,
# two per SM, 16-CTA clusters)? Why ask: on the H100 (2026-11-23, 1 GiB inputs, % of
# copy) cluster_regs gives 91.0 / 83.7 at fp32 131072 / 262144 where QuACK gives
# 100.0 / 98.9 and Triton's split 95.1 / 92.5; QuACK 0.6.5's softmax uses, for fp32
# rows of 131073-262144 columns, 8-CTA clusters of 256 threads, each CTA staging its
# 128 KB in shared memory (one CTA per SM), i.e. fewer and larger CTAs than ours. An
# H200 run of 2026-11-21 found 1024-thread cluster CTAs slower at fp32 65536 (84.4 vs
# 87.0, csrc/softmax/cluster_regs.cuh): this measures the widest rows, forward.
#
# The same question for cluster_smem, whose slices target 32 KB (three or more CTAs per
# SM; clamped to 64 KB by the 16-CTA limit at 262144 fp32): slices of 128 KB, QuACK's.
#
# How: two copies of the package, $ALT/cluster1024 with the cluster shapes of
# plan_cluster_regs taking kRegsWideThreads (1024) threads instead of kRegsMaxThreads
# (512), and $ALT/smem128k with kClusterSliceTargetBytes at 128 KB; the three
# extensions are built side by side, then `python -m comparison` times the variant in
# each (every element checked against float64, as always), auto and Triton's split beside.
set -uo pipefail
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext}
out=${OUT:-benchmarks/out}
mkdir -p "$out"
root=$PWD
alt=${ALT:-/tmp/wide_rows_alt}
rm -rf "$alt"
variant_tree() {  # variant_tree NAME HEADER SED-EXPRESSION CHANGED-LINE
  mkdir -p "$alt/$1" && cp -r comparison kernels_cuda kernels_triton "$alt/$1"/
  sed -i "$3" "$alt/$1/kernels_cuda/csrc/softmax/$2"
  if ! grep -qF "$4" "$alt/$1/kernels_cuda/csrc/softmax/$2"; then
    echo "softmax/$2 changed: update this experiment's sed for $1" >&2
    exit 1
  fi
}
variant_tree cluster1024 cluster_regs.cuh 's/shapes.emplace_back(k, kRegsMaxThreads);/shapes.emplace_back(k, kRegsWideThreads);/' \
  'shapes.emplace_back(k, kRegsWideThreads);'
variant_tree smem128k cluster_smem.cuh 's/kClusterSliceTargetBytes = 32 \* 1024;/kClusterSliceTargetBytes = 128 * 1024;/' \
  'kClusterSliceTargetBytes = 128 * 1024;'
nvidia-smi --query-gpu=name --format=csv,noheader
for tree in "$root" "$alt/cluster1024" "$alt/smem128k"; do
  (cd "$tree" && PYTHONPATH="$tree" python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
done
wait
run() {  # run TREE LABEL VARIANTS
  (cd "$1" && PYTHONPATH="$1" timeout 200 python3 -m comparison --quiet --min-bytes 1GiB --dtype fp32,bf16 \
    --op softmax --pass fwd --cols 65536,131072,262144 --backends cuda,triton --variants "$3" \
    --format csv --output "$out/wide_rows_$2.csv")
}
run "$root" base auto,cluster_regs,cluster_smem,split
run "$alt/cluster1024" cluster1024 cluster_regs
run "$alt/smem128k" smem128k cluster_smem
python3 benchmarks/tuning/side_by_side.py "$out" wide_rows base cluster1024 smem128k
