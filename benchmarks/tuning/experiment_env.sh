# Sourced by the tuning experiments of this folder (from the repository root on a GPU
# machine): strict mode, the build cache, the names their results take, and build_trees.
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
# build_trees TREE...: builds the CUDA extension of each tree (the checkout and the
# experiment's patched copies) at once, each from its own directory, one line each.
build_trees() {
  local tree
  for tree in "$@"; do
    (cd "$tree" && PYTHONPATH="$tree" python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
  done
  wait
}
