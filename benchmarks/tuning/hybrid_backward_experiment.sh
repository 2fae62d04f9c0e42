#!/usr/bin/env bash
# Where the CUDA backward's block_hybrid belongs in auto, and how many bytes of y and dy
# each thread keeps in registers: one device call of about three minutes, from the
# repository root on a GPU machine (results in $OUT):
#
#   bash benchmarks/tuning/hybrid_backward_experiment.sh
#
# Why ask: between one CTA's registers (fp32 16384) and shared memory, the backward's
# auto had block_smem (staging both rows through registers a few packs at a time) and
# 2-CTA clusters of cluster_regs (each CTA waiting for its peer); on an H200 they gave
# 73.8-89.5% of copy at fp32 24576-32768 and 66.8-88.2% at bf16 49152-73728, and
# block_hybrid 90.1-93.7 (benchmarks/h200_2026-11-23/hybrid_bwd_*_760b22e.md).
# The register share: 32 bytes of each per thread as built (hybrid_grad_bytes), against
# 64 for fp32 in a second copy of the package ($ALT/b64: 16-bit packs of 8 spill at 64).
# Since session 26 the package keeps 64 for fp32 (this experiment, run correctly): the
# second copy now keeps 32 (the directory keeps its name, b64, for the file names).
# Every result is checked against float64, as always.
set -uo pipefail
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext}
out=$(realpath -m "${OUT:-benchmarks/out}")
mkdir -p "$out"
root=$PWD
alt=${ALT:-/tmp/hybrid_bwd_alt}
rm -rf "$alt" && mkdir -p "$alt/b64" && cp -r comparison kernels_cuda kernels_triton "$alt/b64"/
hdr="$alt/b64/kernels_cuda/csrc/softmax/block_hybrid.cuh"
sed -i 's/^  return elem == 4 ? std::min(64, 8 \* pack_bytes) : std::min(32, 4 \* pack_bytes);$/  return std::min(32, 4 * pack_bytes);/' "$hdr"
grep -q "^  return std::min(32, 4 \* pack_bytes);" "$hdr" || { echo "block_hybrid.cuh changed: update this experiment's sed" >&2; exit 1; }
nvidia-smi --query-gpu=name --format=csv,noheader
for tree in "$root" "$alt/b64"; do
  (cd "$tree" && PYTHONPATH="$tree" python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
done
wait
B="--backends cuda --min-bytes 1GiB --quiet --format markdown --layout long --op softmax,log_softmax --pass bwd"
F="--dtype fp32 --cols 16384,20480,24576,28672,32768,36864"
H="--dtype bf16 --cols 32768,40960,49152,57344,65536,73728"
PYTHONPATH=$root timeout 200 python3 -m comparison $F $B --variants all --output "$out/hybrid_bwd_fp32.md" | tail -1
# From its own directory: `python -m` puts the working directory first on sys.path,
# ahead of PYTHONPATH (run from the root, this line measured the root's copy; so did
# session 25's call 2 and 3, whose "64 bytes no different" was therefore not a measurement).
(cd "$alt/b64" && PYTHONPATH=$alt/b64 timeout 100 python3 -m comparison $F $B --variants block_hybrid --output "$out/hybrid_bwd_fp32_b64.md" | tail -1)
PYTHONPATH=$root timeout 200 python3 -m comparison $H $B --variants all --output "$out/hybrid_bwd_bf16.md" | tail -1
for f in "$out"/hybrid_bwd_fp32.md "$out"/hybrid_bwd_fp32_b64.md "$out"/hybrid_bwd_bf16.md; do
  echo "== $f"
  grep -E '^\| cuda/(auto|block_smem|cluster_regs|block_hybrid) ' "$f" | awk -F'|' '{print $2 "|" $3 "|" $4 "|" $7 "|" $10}'
done
