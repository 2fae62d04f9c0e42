#!/usr/bin/env bash
# Experiment for the widest rows (issue 17), one device call of about four minutes, from
# the repository root on a GPU machine (results in $OUT):
#
#   bash benchmarks/tuning/wide_rows_experiment.sh
#
# The question: does CUDA's cluster_regs close its gap at 131072-262144 fp32 columns
# with clusters of 1024-thread CTAs (128 KB of the row per CTA, one CTA per SM, half as
# many CTAs per cluster: 8 at 262144 fp32) instead of today's 512-thread CTAs (64 KB,
# two per SM, 16-CTA clusters)? Why ask: on the H100 (2026-11-23, 1 GiB inputs, % of
# copy) cluster_regs gives 91.0 / 83.7 at fp32 131072 / 262144 where QuACK gives
# 100.0 / 98.9 and Triton's split 95.1 / 92.5; QuACK 0.6.5's softmax uses, for fp32
# rows of 131073-262144 columns, 8-CTA clusters of 256 threads, each CTA staging its
# 128 KB in shared memory (one CTA per SM), i.e. fewer and larger CTAs than ours. An
# H200 run of 2026-11-21 found 1024-thread cluster CTAs slower at fp32 65536 (84.4 vs
# 87.0, csrc/softmax/cluster_regs.cuh): this measures the widest rows, forward.
#
# How: a copy of the package in $ALT with the cluster shapes of plan_cluster_regs taking
# kRegsWideThreads (1024) threads instead of kRegsMaxThreads (512); both extensions are
# built side by side, then `python -m comparison` times cluster_regs in each (every
# element checked against float64, as always) with auto and Triton's split beside.
set -uo pipefail
export PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext}
out=${OUT:-benchmarks/out}
mkdir -p "$out"
root=$PWD
alt=${ALT:-/tmp/wide_rows_alt}
header=kernels_cuda/csrc/softmax/cluster_regs.cuh
rm -rf "$alt" && mkdir -p "$alt" && cp -r comparison kernels_cuda kernels_triton "$alt"/
sed -i 's/shapes.emplace_back(k, kRegsMaxThreads);/shapes.emplace_back(k, kRegsWideThreads);/' "$alt/$header"
if ! grep -q 'shapes.emplace_back(k, kRegsWideThreads);' "$alt/$header"; then
  echo "the cluster shape line of $header changed: update this experiment's sed" >&2
  exit 1
fi
nvidia-smi --query-gpu=name --format=csv,noheader
for tree in "$root" "$alt"; do
  (cd "$tree" && PYTHONPATH="$tree" python3 -c "from kernels_cuda import build; build.extension()" 2>&1 | tail -1) &
done
wait
run() {  # run TREE LABEL VARIANTS
  (cd "$1" && PYTHONPATH="$1" timeout 200 python3 -m comparison --quiet --min-bytes 1GiB --dtype fp32,bf16 \
    --op softmax --pass fwd --cols 65536,131072,262144 --backends cuda,triton --variants "$3" \
    --format csv --output "$out/wide_rows_$2.csv")
}
run "$root" base auto,cluster_regs,split
run "$alt" cluster1024 cluster_regs
python3 - "$out" <<'PY'
import csv, sys
from pathlib import Path

out = Path(sys.argv[1])
rows = {}
for label in ("base", "cluster1024"):
    for r in csv.DictReader((out / f"wide_rows_{label}.csv").open()):
        if r.get("pct_of_copy"):
            key = (r["dtype"], int(r["cols"]))
            rows.setdefault(key, {})[f"{label}:{r['backend']}/{r['variant']}"] = (float(r["pct_of_copy"]), r["ok"])
for (dtype, cols), cells in sorted(rows.items()):
    print(f"{dtype} {cols:7d}  " + "  ".join(f"{k}={v:5.1f}{'' if ok in ('ok', 'True') else ' ' + ok}"
                                            for k, (v, ok) in sorted(cells.items())))
PY
