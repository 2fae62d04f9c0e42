#!/usr/bin/env bash
# Where Triton's `fused` should read odd-width rows as head, whole 16-byte vectors and
# tail (EDGES, kernels_triton/row_edges.py) rather than a value at a time: the checkout
# against copies that ALTS names (default "values always"; `split` keeps its edges in all):
#   values   `fused` never reads edges (FUSED_EDGES_MIN_COLS past any width)
#   always   the backward reads them wherever `edges` does (backward_edges as `edges`:
#            also where the body's tile is as wide as the row's)
# One device call of about four minutes, from the
# repository root on a GPU machine (results in $OUT, named by GPU and commit):
#
#   bash benchmarks/tuning/triton_fused_edges_experiment.sh
#
# Why ask: the first run of the odd rows (H200, 768dd0b, benchmarks/h200_2026-11-26e/
# triton_odd_*) gained where rows were read a value at a time (bf16 forward 197 / 3001
# 25.1 / 48.1 -> 51.2 / 74.0, split's 50257 51.6 -> 75.2) but lost at fused widths
# elsewhere: fp32 forward 1025 91.0 -> 83.7, bf16 backward 1025 / 3001 69.2 / 88.4 ->
# 51.9 / 74.4. Triton `auto`, PASSES (default fwd,bwd) of softmax at COLS x DTYPES on
# 1 GiB inputs, ROUNDS (default 1) times in turn; widths that both trees read alike
# (fp32 below 1025, aligned ones) show the noise. Every result is checked against
# float64, as always.
source "$(dirname "$0")/experiment_env.sh"
alt=${ALT:-/tmp/triton_fused_edges_alt}
cols=${COLS:-33,65,197,577,1024,1025,2049,3001,4097,8191,16383,32767}
dtypes=${DTYPES:-fp32,bf16}
passes=${PASSES:-fwd,bwd}
rounds=${ROUNDS:-1}
echo "triton_fused_edges_experiment at $rev on $gpu $(date -u +%FT%TZ), triton $(python3 -c 'import triton; print(triton.__version__)')"
alts=${ALTS:-values always}
rm -rf "$alt"
trees="$root"
for v in $alts; do
  mkdir -p "$alt/$v" && cp -r comparison kernels_cuda kernels_triton "$alt/$v"/
  python3 - "$alt/$v/kernels_triton/softmax_fused.py" "$v" <<'PY' || exit 1
import re, sys
path, variant = sys.argv[1:]
s = open(path).read()
if variant == "values":
    s, n = re.subn(r"^FUSED_EDGES_MIN_COLS = \{.*\}$", "FUSED_EDGES_MIN_COLS = {4: 1 << 40, 2: 1 << 40}", s, flags=re.M)
elif variant == "always":
    s, n = re.subn(r"^    edges_ = 0 if pairs_ else backward_edges\(y, dy\)$", "    edges_ = 0 if pairs_ else edges(y, dy)",
                   s, flags=re.M)
else:
    n = 0
assert n == 1, "softmax_fused.py changed (or an unknown copy): update this experiment"
open(path, "w").write(s)
PY
  trees="$trees $alt/$v"
done
compare_trees "triton_fused_edges_${tag}_${rev}" "$passes" "$rounds" \
  "--min-bytes 1GiB --quiet --format csv --op softmax --backends triton --variants auto --cols $cols --dtype $dtypes" \
  $trees
