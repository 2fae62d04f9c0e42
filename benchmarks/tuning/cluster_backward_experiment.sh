#!/usr/bin/env bash
# Whether the CUDA backward's cluster_regs gains from clusters of smaller CTAs, several
# resident per SM, on the wide rows: one device call of about four minutes, from the
# repository root on a GPU machine (results in $OUT):
#
#   bash benchmarks/tuning/cluster_backward_experiment.sh
#
# Why ask: as built, cluster_regs' clusters are of 512-thread CTAs with up to 128 bytes
# of y and of dy per thread, ONE resident per SM, so nothing overlaps a CTA's wait for
# its peers. On an H200 (36.5 GB/s of DRAM bandwidth per SM) that measured 84 / 82 / 69%
# of copy at fp32 65536 / 131072 / 262144, while Triton's split backward (several
# programs per SM, each waiting on its own row) measured 93 / 85 / 82
# (benchmarks/h200_2026-11-23/wide_variants_bwd_e97a5ac.md). On an H100 clusters of two
# resident 512-thread CTAs measured no better (cluster_regs.cuh). Two copies of the
# package try, before the one-per-SM clusters:
#   $ALT/c2: clusters of 512-thread CTAs with two resident per SM (up to 64 bytes each);
#   $ALT/c4: clusters of 256-thread CTAs with four resident per SM (up to 64 bytes each).
# Every result is checked against float64, as always.
# Answered and adopted in session 26 (44fc313, cluster_regs.cuh; results in
# benchmarks/h100_2026-11-24/ and h200_2026-11-24/): the patch below applies to the code
# before it; run it from a checkout of 3e4bd08 (on a later one it stops, saying so).
set -uo pipefail
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext}
out=$(realpath -m "${OUT:-benchmarks/out}")
mkdir -p "$out"
root=$PWD
alt=${ALT:-/tmp/cluster_bwd_alt}
rm -rf "$alt"
for v in c2 c4; do
  mkdir -p "$alt/$v" && cp -r comparison kernels_cuda kernels_triton "$alt/$v"/
done
python3 - "$alt" <<'PY' || exit 1
import sys
alt = sys.argv[1]
loop = "  for (int k = 2; k <= max_k; k *= 2) {\n    shapes.push_back({k, kGradRegsThreads, 1,"
bound = "  if (bound == 2) return cluster_regs_backward_instance<T, N, kGradRegsThreads, 2>(bytes);\n"
for variant, threads, per_sm in (("c2", "kGradRegsThreads", 2), ("c4", "256", 4)):
    path = f"{alt}/{variant}/kernels_cuda/csrc/softmax/cluster_regs.cuh"
    s = open(path).read()
    assert loop in s and bound in s, "cluster_regs.cuh changed: update this experiment's patch"
    s = s.replace(loop, f"  for (int k = 2; k <= max_k; k *= 2)\n    shapes.push_back({{k, {threads}, {per_sm}, "
                        f"std::min(kGradRegsMinBytes, cap_two), cap_two}});\n" + loop)
    if per_sm == 4:
        s = s.replace(bound, bound + "  if (bound == 4) return cluster_regs_backward_instance<T, N, 256, 4>(bytes);\n")
    open(path, "w").write(s)
PY
nvidia-smi --query-gpu=name --format=csv,noheader
for tree in "$root" "$alt/c2" "$alt/c4"; do
  (cd "$tree" && PYTHONPATH="$tree" python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
done
wait
# Each copy runs from its own directory: `python -m` and `python -` put the working
# directory first on sys.path, ahead of PYTHONPATH.
for tree in "$root" "$alt/c2" "$alt/c4"; do
  cd "$tree" && PYTHONPATH=$tree python3 - <<'PY'
import torch, kernels_cuda.softmax as s
for dt in (torch.float32, torch.bfloat16):
    for cols in (24576, 32768, 49152, 65536, 98304, 131072, 196608, 262144):
        y = torch.softmax(torch.randn(2, cols, device="cuda"), -1).to(dt)
        r = s.plan(y, "softmax_backward", "cluster_regs")
        a = s.plan(y, "softmax_backward", "auto")
        print(f"{s.__file__.split('/kernels_cuda')[0][-24:]:24} {str(dt)[6:]:9} {cols:6} auto {a['variant']:13} | "
              f"cluster_regs k={r['cluster_size']} threads={r['threads']} bytes={r['cols_per_thread'] * y.element_size()} "
              f"resident/SM={r['resident_per_sm']}")
PY
done
B="--min-bytes 1GiB --quiet --format markdown --layout long --op softmax --pass bwd"
F="--dtype fp32 --cols 24576,32768,49152,65536,98304,131072,262144"
H="--dtype bf16 --cols 49152,65536,98304,131072,196608,262144"
for D in "$F" "$H"; do
  tag=$(echo "$D" | awk '{print $2}')
  cd "$root" && PYTHONPATH=$root timeout 150 python3 -m comparison $D $B --backends cuda,triton --variants auto --output "$out/cluster_bwd_${tag}_auto.md" | tail -1
  cd "$root" && PYTHONPATH=$root timeout 150 python3 -m comparison $D $B --backends cuda --variants cluster_regs,block_hybrid --output "$out/cluster_bwd_${tag}_main.md" | tail -1
  for v in c2 c4; do
    cd "$alt/$v" && PYTHONPATH=$alt/$v timeout 150 python3 -m comparison $D $B --backends cuda --variants cluster_regs --output "$out/cluster_bwd_${tag}_$v.md" | tail -1
  done
done
cd "$root"
for f in "$out"/cluster_bwd_*.md; do
  echo "== $f"
  grep -E '^\| (cuda|triton)/' "$f" | awk -F'|' '{print $2 "|" $3 "|" $4 "|" $7 "|" $10}'
done
