#!/usr/bin/env bash
# Whether block_hybrid over a cluster (each CTA a slice of the row: 64 KB of registers
# plus up to 227 KB of shared memory filled by TMA bulk copies) serves the CUDA
# backend's widest rows better than what `auto` runs there now (cluster_regs' clusters
# of 512-thread CTAs, split_smem past 1 MB). One device call of about six minutes, from
# the repository root on a GPU machine (results in $OUT, named by GPU and commit):
#
#   bash benchmarks/tuning/hybrid_cluster_experiment.sh
#
# Why ask: Quack reaches 99-100% of copy at fp32 131072 / 262144 on an H100 where CUDA
# `auto` held 91 before this experiment (the H100 forward record at 778ead4). Its kernel
# (quack/softmax.py, read 2026-11-25) splits such a row over a cluster of 4 / 8 CTAs of
# 256 threads, 128 KB of the row each, all of it requested at once (cp.async into
# shared memory, then registers), one CTA per SM: few CTAs per cluster, each with its
# whole slice in flight. block_hybrid is that shape with our pieces (one 1024-thread CTA
# per SM, the whole slice in flight); cluster_regs' CTAs hold 64 KB each in registers,
# so a row needs twice as many of them.
# Copies of the package, differing from the checkout as ALTS names them (default
# "s128 s64"): s<KB> caps kHybridClusterSliceBytes (the most bytes of the row a CTA of
# an fp32 forward or any backward cluster takes; the checkout takes as few CTAs as fit,
# ~256 KB slices) at that many KB (s128: Quack's 128 KB); t1024 gives 16-bit forward rows
# the fp32 shape (one 1024-thread CTA per SM, the fewest CTAs) instead of 512-thread CTAs,
# two per SM, of at most 144 KB. Every result is checked against float64, as always.
# Runs so far (benchmarks/README.md, session 33): s128 and s64 at 853b3f7 (both lost);
# at 3993eb3 a copy named t512 (512-thread CTAs, two per SM, slices of at most 144 KB,
# for every dtype: a patch of that commit) won for 16-bit rows and lost for fp32, which
# da95bc0 adopted for 16-bit rows; t1024 is that choice's check on another GPU.
source "$(dirname "$0")/experiment_env.sh"
alt=${ALT:-/tmp/hybrid_cluster_alt}
echo "hybrid_cluster_experiment at $rev on $gpu $(date -u +%FT%TZ)"
rm -rf "$alt"
alts=${ALTS:-s128 s64}
for v in $alts; do
  mkdir -p "$alt/$v" && cp -r comparison kernels_cuda kernels_triton "$alt/$v"/
  python3 - "$alt/$v/kernels_cuda/csrc/softmax/block_hybrid.cuh" "$v" <<'PY' || exit 1
import sys
path, variant = sys.argv[1:]
s = open(path).read()
slice_line = "constexpr int64_t kHybridClusterSliceBytes = int64_t{1} << 30;"
small_lines = ("constexpr int kHybridSmallThreads = 512;", "constexpr int64_t kHybridSmallSliceBytes = 144 * 1024;")
assert slice_line in s and all(line in s for line in small_lines), "block_hybrid.cuh changed: update this experiment's patch"
if variant == "t1024":
    s = s.replace(small_lines[0], "constexpr int kHybridSmallThreads = 1024;")
    s = s.replace(small_lines[1], "constexpr int64_t kHybridSmallSliceBytes = int64_t{1} << 30;")
else:
    kb = int(variant.lstrip("s"))
    s = s.replace(slice_line, f"constexpr int64_t kHybridClusterSliceBytes = int64_t{{{kb}}} * 1024;")
open(path, "w").write(s)
PY
done
trees="$root"
for v in $alts; do trees="$trees $alt/$v"; done
build_trees $trees
# Each copy runs from its own directory: `python -m` and `python -` put the working
# directory first on sys.path, ahead of PYTHONPATH.
for tree in $trees; do
  cd "$tree" && PYTHONPATH=$tree python3 - <<'PY'
import torch, kernels_cuda.softmax as s
for dt, widths in ((torch.float32, (131072, 262144, 524288)), (torch.bfloat16, (262144, 524288, 1048576))):
    for cols in widths:
        x = torch.randn(2, cols, device="cuda").to(dt)
        for op in ("softmax", "softmax_backward"):
            p = s.plan(x, op, "block_hybrid", x if op.endswith("backward") else None)
            a = s.plan(x, op, "auto", x if op.endswith("backward") else None)
            print(f"{s.__file__.split('/kernels_cuda')[0][-22:]:22} {op:16} {str(dt)[6:]:8} {cols:7} auto {a['variant']:12}"
                  f" | block_hybrid {p['status']} k={p['cluster_size']} smem={p['smem_bytes']} "
                  f"clusters={p['active_clusters']} threads={p['threads']} resident/SM={p['resident_per_sm']}")
PY
done
cd "$root"
B="--min-bytes 1GiB --quiet --format markdown --layout long --op softmax,log_softmax --pass fwd,bwd"
for D in "--dtype fp32 --cols 131072,262144,524288" "--dtype bf16 --cols 262144,524288,1048576"; do
  dt=$(echo "$D" | awk '{print $2}')
  PYTHONPATH=$root timeout 170 python3 -m comparison $D $B --backends cuda --variants auto,block_hybrid \
    --output "$out/hybrid_cluster_${dt}_${tag}_$rev.md" | tail -1
  for v in $alts; do
    cd "$alt/$v" && PYTHONPATH=$alt/$v timeout 120 python3 -m comparison $D $B --backends cuda \
      --variants block_hybrid --output "$out/hybrid_cluster_${dt}_${v}_${tag}_$rev.md" | tail -1
    cd "$root"
  done
done
for f in "$out"/hybrid_cluster_*.md; do
  echo "== $(basename "$f")"
  grep -E "^(###|\| cuda/)" "$f" | awk -F'|' '/^###/ {print; next} {printf "%s %s %s %s %s %s\n", $2, $3, $4, $5, $7, $10}'
done
