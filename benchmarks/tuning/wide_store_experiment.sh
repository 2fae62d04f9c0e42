#!/usr/bin/env bash
# How the CUDA kernels' output stores (kOutputStore, common/packs.cuh) weigh on rows past
# warp_per_row (cluster_regs, block_hybrid, split, split_smem; forward and backward): the
# checkout's plain stores of one instruction per pack (Cache::kPlainVector) against the
# streaming ones (st.global.cs, evict-first) they replaced, or plain C++ stores. One
# device call of about six minutes, from the repository root on a GPU machine (results
# in $OUT, named by GPU and commit):
#
#   bash benchmarks/tuning/wide_store_experiment.sh
#
# Why ask: on the H200 the narrow rows' 16-bit output stored plainly gained up to three
# points (warp_per_row, bf16 128 95.2 -> 98.4; benchmarks/h200_2026-11-26b/
# warp_rows_st2_*), and the wide rows are where this GPU trails most (CUDA forward bf16
# 65536 / 131072 / 262144 at 93.0 / 90.0 / 80.9% of copy in the record at 8f858e4, where
# Quack's forward held 99.0 / 98.3 / 94.2; its kernel stores plainly).
# Copies of the package, differing from the checkout as ALTS names them (default "cs"):
#   cs       kOutputStore = Cache::kStreaming (the stores before c284b7d)
#   plain    kOutputStore = Cache::kNormal (`*w = raw`): ptxas then splits many 16-byte
#            stores (of 16-bit packs above all) into 2- and 4-byte ones (cuobjdump,
#            sm_90: 4733 STG.E against 174)
# Each copy and the checkout run `auto` (VARIANTS) of the CUDA backend, PASSES (default
# fwd,bwd) of softmax (OPS), at COLS x DTYPES on 1 GiB inputs; ROUNDS (default 2) times
# in turn, so the spread between rounds of one tree shows the noise. Every result is
# checked against float64, as always.
# Runs so far (the checkout then stored streaming, and the copies patched store_pack's
# streaming form): ALTS=plain at 5d1be00 on an H200 (COLS=65536,131072,262144;
# benchmarks/h200_2026-11-26c/wide_store_*_5d1be00*): fp32 forward +1.0-1.4 (92.9 / 91.9
# / 88.7 -> 94.3 / 93.0 / 90.0), backward +0.4-0.6, bf16 forward 65536 92.9 -> 44.9 and
# backward 93.5 -> 78.4 (the split stores). At 6ee8d08 (H200, 2048-1048576) two copies of
# one instruction per pack, a weak st.global.v4.b32 in inline assembly (v4) and __stwb
# (st.global.wb): both +0.5-1.4 in the forward everywhere (fp32 65536 93.3 -> 94.5), the
# backward within the rounds' spread. v4 is the package's Cache::kPlainVector since
# c284b7d (checked on an H100 by a before/after run of the package, benchmarks/
# h100_2026-11-26c/store_*).
source "$(dirname "$0")/experiment_env.sh"
alt=${ALT:-/tmp/wide_store_alt}
alts=${ALTS:-cs}
cols=${COLS:-2048,8192,32768,65536,131072,262144,524288,1048576}
dtypes=${DTYPES:-fp32,bf16}
passes=${PASSES:-fwd,bwd}
ops=${OPS:-softmax}
variants=${VARIANTS:-auto}
rounds=${ROUNDS:-2}
echo "wide_store_experiment at $rev on $gpu $(date -u +%FT%TZ): $alts"
rm -rf "$alt"
for v in $alts; do
  mkdir -p "$alt/$v" && cp -r comparison kernels_cuda kernels_triton "$alt/$v"/
  python3 - "$alt/$v/kernels_cuda/csrc/common/packs.cuh" "$v" <<'PY' || exit 1
import sys
path, variant = sys.argv[1:]
s = open(path).read()
line = "constexpr Cache kOutputStore = Cache::kPlainVector;"
assert line in s and variant in ("cs", "plain"), "packs.cuh changed (or an unknown copy): update this experiment"
store = {"cs": "Cache::kStreaming", "plain": "Cache::kNormal"}[variant]
open(path, "w").write(s.replace(line, f"constexpr Cache kOutputStore = {store};"))
PY
done
trees="$root"
for v in $alts; do trees="$trees $alt/$v"; done
build_trees $trees
B="--min-bytes 1GiB --quiet --format csv --op $ops --backends cuda --variants $variants --cols $cols --dtype $dtypes"
labels=""
for r in $(seq 1 "$rounds"); do
  for tree in $trees; do
    name=$([ "$tree" = "$root" ] && echo base || basename "$tree")
    for pass in ${passes//,/ }; do
      # Each tree runs from its own directory: `python -m` puts the working directory
      # first on sys.path, ahead of PYTHONPATH.
      cd "$tree" && PYTHONPATH=$tree timeout 240 python3 -m comparison $B --pass "$pass" \
        --output "$out/wide_store_${tag}_${rev}_${pass}_${name}_r$r.csv" | tail -1
      cd "$root"
    done
    labels="$labels ${name}_r$r"
  done
done
for pass in ${passes//,/ }; do
  echo "== $pass"
  python3 benchmarks/tuning/side_by_side.py "$out" "wide_store_${tag}_${rev}_${pass}" $labels
done
