#!/usr/bin/env bash
# Installs the peer libraries (Liger-Kernel, QuACK and NVIDIA's CuTe DSL under it) on a
# GPU machine that has no internet, from wheels carried in the git-ignored folder .whl/.
#
# The device tool carries at most 64 MiB with the working tree per call (the tree alone
# is about 21 MB), and the CuTe DSL's CUDA 13 library wheel is about 92 MB, so the
# wheels travel in three calls:
#
#   here, once (with internet), from the repository root:
#     mkdir -p .whl && python3 -m pip download --no-deps --only-binary=:all: \
#         --python-version 3.12 --implementation cp --platform manylinux_2_28_x86_64 \
#         --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
#         --platform manylinux2014_x86_64 --platform manylinux1_x86_64 --platform any -d .whl \
#         liger-kernel==0.8.5 quack-kernels==0.6.5 nvidia-cutlass-dsl==4.8.1 \
#         nvidia-cutlass-dsl-libs-base==4.8.1 nvidia-cutlass-dsl-libs-core==4.8.1 \
#         nvidia-cutlass-dsl-libs-cu13==4.8.1 apache-tvm-ffi==0.1.15.post2 torch-c-dlpack-ext==0.1.5
#     bash benchmarks/install_peers.sh split     # -> .whl/part1, part2, part3 (the last with the small wheels)
#
#   on the GPU machine, one call per part in a row (the machine must stay warm between them):
#     call 1, carry [".whl/part1"]:  bash benchmarks/install_peers.sh part1
#     call 2, carry [".whl/part2"]:  bash benchmarks/install_peers.sh part2
#     call 3, carry [".whl/part3"]:  bash benchmarks/install_peers.sh part3 && source /tmp/site/peers.env && ...
#
# Each call stages its folder's files in /tmp/peer_wheels; the call that completes the set
# (in any order) re-joins the split wheel, checks every wheel's sha256 against the list
# `split` wrote, and installs them all with ONE pip command into /tmp/site (pip --target
# replaces whole top-level folders, and the DSL's three wheels share nvidia_cutlass_dsl/,
# so they cannot be installed one by one). Then it prints, and writes to
# /tmp/site/peers.env, the PYTHONPATH the peers need: /tmp/site, and the DSL's
# dsl_packages folder, which a site directory would add through the DSL's .pth file but
# a --target folder does not (comparison/peers/quack.py also adds it when it finds it).
#
# Already on the GPU machines, so not carried: torch, triton, numpy, typing-extensions,
# einops, cuda-bindings, protobuf (the Requires-Dist of these wheels, less what is here).
set -euo pipefail
cd "$(dirname "$0")/.."

WHEELS=.whl
STAGE=${PEER_WHEELS_STAGE:-/tmp/peer_wheels}
TARGET=${PEER_SITE:-/tmp/site}
PYTHON=${PYTHON:-python3}
export PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1
# Pieces of a wheel too big for one call, each in its own part, the small wheels with the
# last piece: 30 MiB pieces and about 21 MB of tree stay under the 64 MiB a call carries.
PIECE=$((30 << 20))
LIST=wheels.sha256   # every wheel of the set, whole, with its sha256 (written by `split`)

split_wheels() {
  ls "$WHEELS"/*.whl >/dev/null  # fails when nothing was downloaded
  rm -rf "$WHEELS"/part* "$WHEELS/pieces"
  mkdir -p "$WHEELS/pieces"
  local parts=1 wheel name piece n i
  for wheel in "$WHEELS"/*.whl; do
    [ "$(stat -c %s "$wheel")" -gt "$PIECE" ] || continue
    name=$(basename "$wheel")
    split -b "$PIECE" -d -a 1 "$wheel" "$WHEELS/pieces/$name.piece"   # .piece0, .piece1, ...
    n=$(ls "$WHEELS/pieces/$name".piece* | wc -l)
    [ "$n" -le 9 ] || { echo "$name needs more than 9 pieces" >&2; exit 1; }
    [ "$n" -le "$parts" ] || parts=$n
  done
  for i in $(seq 1 "$parts"); do
    mkdir -p "$WHEELS/part$i"
    (cd "$WHEELS" && sha256sum -- *.whl) > "$WHEELS/part$i/$LIST"
  done
  for wheel in "$WHEELS"/*.whl; do
    name=$(basename "$wheel")
    if [ -e "$WHEELS/pieces/$name.piece0" ]; then
      n=$(ls "$WHEELS/pieces/$name".piece* | wc -l)
      for piece in "$WHEELS/pieces/$name".piece*; do
        i=$(( ${piece##*.piece} + 1 ))
        mv "$piece" "$WHEELS/part$i/"
        echo "$n" > "$WHEELS/part$i/$name.pieces"
      done
    else
      cp "$wheel" "$WHEELS/part$parts/"
    fi
  done
  rmdir "$WHEELS/pieces"
  du -sh "$WHEELS"/part*
}

install_staged() {
  # Join split wheels whose pieces are all here; stop quietly while one is missing.
  while read -r sum name; do
    if [ ! -e "$STAGE/$name" ]; then
      pieces=("$STAGE/$name".piece[0-9])
      [ -e "${pieces[0]}" ] || { echo "staged; $name still missing: run the other parts" >&2; return 0; }
      expected=$(cat "$STAGE/$name.pieces")
      [ ${#pieces[@]} -ge "$expected" ] || {
        echo "staged; $name has ${#pieces[@]} pieces of $expected: run the other parts" >&2; return 0; }
      cat "${pieces[@]}" > "$STAGE/$name"
    fi
  done < "$STAGE/$LIST"
  (cd "$STAGE" && sha256sum --quiet -c "$LIST")
  wheels=()
  while read -r sum name; do wheels+=("$STAGE/$name"); done < "$STAGE/$LIST"
  "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target "$TARGET" "${wheels[@]}"
  path=$TARGET
  [ ! -d "$TARGET/nvidia_cutlass_dsl/dsl_packages" ] || path=$path:$TARGET/nvidia_cutlass_dsl/dsl_packages
  echo "export PYTHONPATH=$path\${PYTHONPATH:+:\$PYTHONPATH}" > "$TARGET/peers.env"
  echo "installed ${#wheels[@]} wheels into $TARGET; for the peers:"
  cat "$TARGET/peers.env"
  echo "(or: source $TARGET/peers.env)"
}

case "${1:-}" in
  split) split_wheels ;;
  part[1-9])
    [ -d "$WHEELS/$1" ] || { echo "no $WHEELS/$1 here: name it in the device call's carry" >&2; exit 1; }
    mkdir -p "$STAGE"
    cp "$WHEELS/$1"/* "$STAGE/"
    install_staged ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 2 ;;
esac
