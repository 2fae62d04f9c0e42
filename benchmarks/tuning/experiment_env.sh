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
# compare_trees PREFIX PASSES ROUNDS "ARGS" TREE...: `python -m comparison ARGS --pass P`
# for each pass P of PASSES (comma-separated) from each tree in turn, ROUNDS times, into
# $out/PREFIX_<pass>_<name>_r<round>.csv (name: "checkout" for the checkout, else the
# tree's folder name), then each pass's runs side by side (side_by_side.py), so that the
# spread between one tree's rounds shows the noise. Each tree runs from its own
# directory: `python -m` puts the working directory first on sys.path, ahead of PYTHONPATH.
compare_trees() {
  local prefix=$1 passes=$2 rounds=$3 args=$4 tree name pass r labels=""
  shift 4
  for r in $(seq 1 "$rounds"); do
    for tree in "$@"; do
      name=$([ "$tree" = "$root" ] && echo checkout || basename "$tree")
      for pass in ${passes//,/ }; do
        (cd "$tree" && PYTHONPATH=$tree timeout 240 python3 -m comparison $args --pass "$pass" \
          --output "$out/${prefix}_${pass}_${name}_r$r.csv" | tail -1)
      done
      labels="$labels ${name}_r$r"
    done
  done
  for pass in ${passes//,/ }; do
    echo "== $pass"
    python3 "$root/benchmarks/tuning/side_by_side.py" "$out" "${prefix}_${pass}" $labels
  done
}
