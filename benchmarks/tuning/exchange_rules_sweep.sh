#!/usr/bin/env bash
# Where `auto` should now hand wide rows from block_hybrid's clusters to the variants that
# exchange through global memory. One device call of about six minutes, from the
# repository root on a GPU machine (results in $OUT, named by GPU and commit):
#
#   bash benchmarks/tuning/exchange_rules_sweep.sh
#
# Why ask: session 70 changed the instructions of the global exchange (an atomic exchange
# to publish, volatile loads to poll: kernels_cuda/csrc/softmax/split.cuh, publish_word),
# which lifted split, split_smem and split_hybrid by 5-10 points at the widest rows on the
# H200 (benchmarks/h200_2026-11-28/xchg_compare_h200_c1a9d9c.txt). auto's rules that
# choose between block_hybrid's clusters and split_hybrid (forward rule 2c, backward rules
# 1a / 1a' / 1b in softmax/auto.cuh) were tuned against the slower exchange: named
# split_hybrid already leads auto's block_hybrid at bf16 524288 backward (98.7 / 98.1
# against 97.0 / 97.6). This runs auto beside both variants named, forward and backward,
# at the widths around those rules (COLS_FWD, COLS_BWD; fp32 and bf16 by DTYPES), one
# round each, and the rule auto took at each (its plan's reason). Every result is
# checked against float64, as always.
source "$(dirname "$0")/experiment_env.sh"
export PYTHONPATH=$root
cols_fwd=${COLS_FWD:-393216,524288,589824,655360,786432,1048576,1310720}
cols_bwd=${COLS_BWD:-262144,393216,524288,786432,1048576}
dtypes=${DTYPES:-fp32,bf16}
echo "exchange_rules_sweep at $rev on $gpu $(date -u +%FT%TZ)"
build_trees "$root"
common="--dtype $dtypes --backends cuda --variants auto,block_hybrid,split_hybrid --min-bytes 1GiB --quiet --format csv"
timeout 240 python3 -m comparison --cols "$cols_fwd" --op softmax,log_softmax $common --pass fwd \
  --output "$out/xrules_fwd_$rev.csv" | tail -1
timeout 240 python3 -m comparison --cols "$cols_bwd" --op softmax,log_softmax $common --pass bwd \
  --output "$out/xrules_bwd_$rev.csv" | tail -1
for pass in fwd bwd; do
  echo "== $pass"
  python3 "$root/benchmarks/tuning/side_by_side.py" "$out" "xrules_$pass" "$rev"
done | tee "$out/xrules_compare_${tag}_$rev.txt"
COLS_FWD=$cols_fwd COLS_BWD=$cols_bwd DTYPES=$dtypes python3 - <<'PY' | tee "$out/xrules_plans_${tag}_$rev.txt"
import os
import torch
from kernels_cuda import softmax as s
names = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}
for pass_, key in (("forward", "COLS_FWD"), ("backward", "COLS_BWD")):
    for d in os.environ["DTYPES"].split(","):
        for c in map(int, os.environ[key].split(",")):
            dt = names[d]
            y = torch.empty(max((1 << 30) // (c * dt.itemsize), 1), c, dtype=dt, device="cuda")
            p = s.plan(y, "softmax_backward", "auto", dy=y) if pass_ == "backward" else s.plan(y, "softmax", "auto")
            print(pass_, d, c, p["variant"], p["split"] or p["cluster_size"], p["reason"])
PY
