# Sourced by the tuning experiments of this folder (from the repository root on a GPU
# machine): strict mode, the build cache, and the names their results take.
#   out   $OUT (default benchmarks/out), absolute: the copies they build run elsewhere
#   root  the checkout, gpu / tag the GPU's name and h200 or h100, rev the commit
#         (.device/commit where a device call wrote it)
set -uo pipefail
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext}
out=$(realpath -m "${OUT:-benchmarks/out}")
mkdir -p "$out"
root=$PWD
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
tag=$(echo "$gpu" | grep -q H200 && echo h200 || echo h100)
rev=$(cat .device/commit 2>/dev/null || git rev-parse --short HEAD 2>/dev/null || echo unknown)
