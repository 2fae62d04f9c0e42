#!/usr/bin/env bash
# CUDA `split` forward on odd rows read in three parts (kEdges: each row's chunk moved by
# its head, the first part's edge values held from a load a row ahead; branch
# split-forward-edges, not yet run on a GPU): the odd-row and split GPU tests,
# compute-sanitizer's four tools over split's forward at odd widths, then `split` against
# `auto`'s choice (block_hybrid / cluster_regs, whose first CTA reads a row's edges while
# its cluster waits: what the backward's rule 1c answered with split) at odd and aligned
# widths, 1 GiB, forward, two rounds. One device call of about six minutes, from the
# repository root on a GPU machine (results in $OUT, named by GPU and commit):
#
#   bash benchmarks/tuning/split_forward_edges_check.sh
#
# The backward's numbers this asks after (benchmarks/h*_2026-11-26e/odd_split_rows_*):
# split led every cluster_regs plan of odd rows on the H200 and the clusters on the H100.
source "$(dirname "$0")/experiment_env.sh"
echo "split_forward_edges_check at $rev on $gpu $(date -u +%FT%TZ)"
build_trees "$root"
workers=""
python3 -c "import xdist" 2>/dev/null && workers="-n 4"
timeout 150 python3 -m pytest -q -rfEs --tb=short -p no:cacheprovider $workers tests/test_cuda_softmax.py \
  -k "three_parts or split" > "$out/split_fwd_edges_tests_${tag}_$rev.log" 2>&1
grep -E "passed|failed|FAILED|Error" "$out/split_fwd_edges_tests_${tag}_$rev.log" | tail -8
timeout 150 python3 benchmarks/sanitize.py --out "$out/split_fwd_edges_sanitize_${tag}_$rev.log" --backends cuda \
  --variants split --dtypes fp32,bf16 --ops softmax,log_softmax --shapes 5x33,5x1025,300x9001,3x70001 2>&1 | tail -7
cols=${COLS:-3001,20001,50257,70001,100001,151937,262145,65536,131072}
for r in 1 2; do
  timeout 200 python3 -m comparison --cols "$cols" --dtype fp32,bf16 --op softmax --pass fwd --backends cuda \
    --variants auto,split --min-bytes 1GiB --quiet --format csv --output "$out/split_fwd_edges_${tag}_${rev}_r$r.csv" | tail -1
done
python3 benchmarks/tuning/side_by_side.py "$out" "split_fwd_edges_${tag}_${rev}" r1 r2
